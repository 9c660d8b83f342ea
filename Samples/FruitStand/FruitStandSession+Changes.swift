// The changing commands. Each checks its input first, then changes typed properties of the
// managed objects inside one named undo step; the context registers the undo actions.

import Foundation
import ManagedObjects
import UndoManagement

extension FruitStandSession {
    /// Runs a parsed command.
    func run(_ command: FruitStandCommand) throws -> String {
        switch command {
        case let .addStand(name):
            return try addStand(named: name)
        case let .addCrate(standName):
            return try addCrate(to: standName)
        case let .addFruit(kind, radius, crateName):
            return try addFruit(kind, radius: radius, to: crateName)
        case .list:
            return try listing()
        case let .find(kind, format):
            return try find(kind, format)
        case let .sort(keys):
            return try sort(by: keys)
        case let .removeLargest(kind):
            return try removeLargest(kind)
        case let .deleteStand(name):
            return try deleteStand(named: name)
        case let .renameStand(old, new):
            return try renameStand(old, to: new)
        case .undo:
            return try undo()
        case .redo:
            return try redo()
        case .save:
            return try save()
        case .rollback:
            return rollback()
        case .history:
            return historyText
        case .help:
            return Self.helpText
        case .quit:
            return quit()
        }
    }

    // MARK: Changes

    private func addStand(named name: String) throws -> String {
        if try stands().contains(where: { $0.name == name }) { throw FruitStandError.duplicateStand(name) }
        return try change(named: "Add Stand \(name)") {
            let stand = try context.insertNewObject(Stand.self)
            stand.name = name
            return "added stand \(name)"
        }
    }

    private func addCrate(to standName: String) throws -> String {
        let stand = try self.stand(named: standName)
        let number = (stand.crates.map(\.number).max() ?? 0) + 1
        let label = "\(stand.name)/\(number)"
        return try change(named: "Add Crate \(label)") {
            let crate = try context.insertNewObject(Crate.self)
            crate.number = number
            crate.stand = stand
            return "added crate \(label)"
        }
    }

    private func addFruit(_ kind: FruitKind, radius: Double, to name: CrateName) throws -> String {
        let crate = try self.crate(named: name)
        let text = "\(kind.rawValue) \(radius) to \(crate.label)"
        return try change(named: "Add \(kind.entityName) \(radius) to \(crate.label)") {
            let fruit: Fruit = switch kind {
            case .apple: try context.insertNewObject(Apple.self)
            case .orange: try context.insertNewObject(Orange.self)
            }
            fruit.radius = radius
            fruit.crate = crate
            return "added " + text
        }
    }

    private func removeLargest(_ kind: FruitKind) throws -> String {
        let request = EntityFetchRequest(entityName: kind.entityName)
        let candidates = try stableOrder(context.fetch(request, as: Fruit.self))
        // The largest radius; among equals, the first in list order.
        guard let largest = candidates.max(by: { $0.radius < $1.radius }) else {
            throw FruitStandError.nothingToRemove(kind: kind.rawValue)
        }
        let text = "removed \(kind.rawValue) \(largest.radius) from \(largest.crate?.label ?? "?")"
        return try change(named: "Remove Largest \(kind.entityName)") {
            context.delete(largest)
            return text
        }
    }

    private func deleteStand(named name: String) throws -> String {
        let stand = try self.stand(named: name)
        let crates = stand.crates
        let fruit = crates.reduce(0) { $0 + $1.fruit.count }
        let text = "deleted stand \(name) with \(Self.count(crates.count, "crate")) and \(fruit) fruit"
        return try change(named: "Delete Stand \(name)") {
            context.delete(stand)   // the delete rules cascade to the crates and their fruit
            return text
        }
    }

    private func renameStand(_ old: String, to new: String) throws -> String {
        let stand = try self.stand(named: old)
        guard old != new else { return "stand \(old) already has that name" }
        if try stands().contains(where: { $0.name == new }) { throw FruitStandError.duplicateStand(new) }
        return try change(named: "Rename Stand \(old) to \(new)") {
            stand.name = new
            return "renamed stand \(old) to \(new)"
        }
    }

    /// Runs `body` as one user event and names its undo step `name`.
    ///
    /// The context registers undo actions for every change `body` makes, into the undo
    /// manager's event group; the group is named, then ``ManagedObjectContext/processPendingChanges()``
    /// ends the event (closing the group: one step). Every body checks its input before its
    /// first change, and its only throwing call is the first insertion: when it throws, nothing
    /// was changed.
    func change(named name: String, _ body: () throws -> String) throws -> String {
        let steps = history.undoCount
        let text = try body()
        if history.groupingLevel > 0 { history.setActionName(name) }
        context.processPendingChanges()
        if history.undoCount > steps {
            undoNames.append(name)
            redoNames.removeAll()
        }
        return text
    }

    // MARK: Undo, redo, save, rollback, quit

    private func undo() throws -> String {
        guard history.canUndo else { return "nothing to undo" }
        let name = history.undoActionName
        try context.undo()
        redoNames.append(undoNames.popLast() ?? name)
        return "undid \(name)"
    }

    private func redo() throws -> String {
        guard history.canRedo else { return "nothing to redo" }
        let name = history.redoActionName
        try context.redo()
        undoNames.append(redoNames.popLast() ?? name)
        return "redid \(name)"
    }

    /// Saves the context's changes to the store. The undo history stays: undo works across saves.
    func save() throws -> String {
        context.processPendingChanges()
        guard context.hasChanges else { return "no changes to save" }
        let summary = changeSummary
        do {
            try context.save()
        } catch {
            throw FruitStandError.saveFailed("\(error)")
        }
        return "saved to \(location.displayName): \(summary)"
    }

    private func rollback() -> String {
        context.processPendingChanges()
        guard context.hasChanges else { return "nothing to roll back" }
        let summary = unsavedSummary
        context.rollback()   // as on Apple platforms, this also empties the undo manager
        undoNames.removeAll()
        redoNames.removeAll()
        return "rolled back \(summary); the undo history is cleared"
    }

    private func quit() -> String {
        context.processPendingChanges()
        if !context.hasChanges || quitWasWarned {
            let dropped = context.hasChanges ? "unsaved changes dropped\n" : ""
            isFinished = true
            return dropped + "bye"
        }
        if autosave {
            do {
                let saved = try save()
                isFinished = true
                return saved + "\nbye"
            } catch {
                return "error: \(error) (not quitting)"
            }
        }
        quitWasWarned = true
        return "warning: there are \(unsavedSummary): 'save' to keep them, "
            + "or 'quit' again to leave without saving"
    }

    /// The undo and redo steps by name, the next one to run first.
    var historyText: String {
        func lines(_ names: [String]) -> [String] {
            names.isEmpty ? ["  (none)"] : names.reversed().map { "  " + $0 }
        }
        return (["undo (next first):"] + lines(undoNames) + ["redo (next first):"] + lines(redoNames))
            .joined(separator: "\n")
    }

    /// What a save would write: `3 inserted, 1 deleted` (objects).
    var changeSummary: String {
        let parts = [(context.insertedObjects.count, "inserted"), (context.updatedObjects.count, "updated"),
                     (context.deletedObjects.count, "deleted")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The unsaved changes in words: `unsaved changes (3 inserted, 1 deleted)`.
    var unsavedSummary: String { "unsaved changes (\(changeSummary))" }

    /// `1 crate`, `2 crates`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
