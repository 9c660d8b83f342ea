// The bug tracker's commands.
import Foundation
import ObjectGraph

extension BugTrackerSession {
    private var allBugs: EntityFetchRequest { EntityFetchRequest(entityName: BugFileStore.entityName) }

    /// `list [PAGE]`: one page of bugs. Only the bugs shown are read from the file: the fetch
    /// gives faults, and each shown bug's values load when its line is printed.
    func list(page argument: String) throws -> String {
        let page = argument.isEmpty ? 1 : Int(argument) ?? 0
        guard page >= 1 else { return "usage: list [PAGE], PAGE a number from 1" }
        let total = try context.count(for: allBugs)
        guard total > 0 else { return "no bugs" }
        let pages = (total + Self.pageSize - 1) / Self.pageSize
        guard page <= pages else { return "there \(pages == 1 ? "is 1 page" : "are \(pages) pages") of bugs" }
        var request = allBugs
        request.fetchOffset = (page - 1) * Self.pageSize
        request.fetchLimit = Self.pageSize
        let bugs = try context.fetch(request)
        var lines = ["bugs \(request.fetchOffset + 1)–\(request.fetchOffset + bugs.count) of \(total) (page \(page) of \(pages)):"]
        for (offset, bug) in bugs.enumerated() {
            lines.append(String(format: "%3d. ", request.fetchOffset + offset + 1) + (try describe(bug)))
        }
        if page < pages { lines.append("'list \(page + 1)' for more") }
        return lines.joined(separator: "\n")
    }

    /// `add TEXT`.
    func add(_ title: String) throws -> String {
        guard !title.isEmpty else { return "usage: add TEXT" }
        let bug = try context.insertNewObject(forEntityNamed: BugFileStore.entityName)
        try bug.setValue(title, forKey: "title")
        return "added: \(title) (not saved yet)"
    }

    /// `refresh`: other trackers' saved changes come in (your unsaved changes stay on top of
    /// them), then a few new bug reports arrive.
    func refresh() throws -> String {
        var dropped: [String] = []
        for bug in context.registeredObjects where !bug.isFault && !bug.isInserted {
            if try store.row(for: bug.objectID) == nil {
                if bug.hasChanges { dropped.append(try describe(bug)) }
                context.refresh(bug, mergeChanges: false)
            } else {
                context.refresh(bug, mergeChanges: true)
            }
        }
        var titles: [String] = []
        for _ in 0 ..< reports.next(in: 1...3) {
            let title = reports.title()
            let bug = try context.insertNewObject(forEntityNamed: BugFileStore.entityName)
            try bug.setValue(title, forKey: "title")
            titles.append(title)
        }
        var lines = ["up to date with \(store.url.lastPathComponent)"]
        lines += dropped.map { "deleted by another tracker, your changes dropped: \($0)" }
        lines.append("\(titles.count) new report\(titles.count == 1 ? "" : "s"): " + titles.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    /// `fix N`.
    func fix(_ argument: String) throws -> String {
        guard let position = Int(argument), position >= 1 else { return "usage: fix N, N a position from 'list'" }
        guard let bug = try bug(at: position) else { return "no bug at position \(position): 'list' shows the bugs there are" }
        if try bug.value(forKey: "isFixed") as? Bool == true { return "already fixed: " + (try describe(bug)) }
        try bug.setValue(true, forKey: "isFixed")
        return "fixed: " + (try describe(bug))
    }

    /// `delete N`.
    func delete(_ argument: String) throws -> String {
        guard let position = Int(argument), position >= 1 else { return "usage: delete N, N a position from 'list'" }
        guard let bug = try bug(at: position) else { return "no bug at position \(position): 'list' shows the bugs there are" }
        let text = try describe(bug)
        context.delete(bug)
        return "deleted: " + text
    }

    /// `find PREDICATE`.
    func find(_ format: String) throws -> String {
        guard !format.isEmpty else { return "usage: find PREDICATE, e.g. find isFixed == NO" }
        let request = EntityFetchRequest(entityName: BugFileStore.entityName, predicate: try KeyValuePredicate(format: format))
        let bugs = try context.fetch(request)
        guard !bugs.isEmpty else { return "no bug matches" }
        let lines = try bugs.map { "  " + (try describe($0)) }
        return ([bugs.count == 1 ? "1 bug matches:" : "\(bugs.count) bugs match:"] + lines).joined(separator: "\n")
    }

    func undo() throws -> String {
        context.processPendingChanges()
        guard history.canUndo else { return "nothing to undo" }
        try context.undo()
        return "undone (unsaved: \(changeSummary))"
    }

    func redo() throws -> String {
        guard history.canRedo else { return "nothing to redo" }
        try context.redo()
        return "redone (unsaved: \(changeSummary))"
    }

    /// `save`: a conflict with another tracker's save is reported and nothing is written.
    func save() -> String {
        context.processPendingChanges()
        guard context.hasChanges else { return "nothing to save" }
        let summary = changeSummary
        let new = context.insertedObjects
        do {
            try context.save()
        } catch {
            let reason = error.localizedDescription
            return """
                not saved: \(reason)
                your changes are kept: 'refresh' takes the other tracker's changes (yours stay on top), then 'save' again
                """
        }
        // New bugs got their numbers from the store: read them back when next shown.
        for bug in new { context.refresh(bug, mergeChanges: false) }
        return "saved to \(store.url.lastPathComponent): \(summary)"
    }

    /// "2 new, 1 changed, 0 deleted": the unsaved changes.
    private var changeSummary: String {
        "\(context.insertedObjects.count) new, \(context.updatedObjects.count) changed, \(context.deletedObjects.count) deleted"
    }

    /// The bug at a 1-based position of the full list, or `nil` for a bad position.
    private func bug(at position: Int) throws -> ManagedObject? {
        var request = allBugs
        request.fetchOffset = position - 1
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// `#3 [x] Crash when saving`, or `new [ ] …` before the first save.
    func describe(_ bug: ManagedObject) throws -> String {
        // The number is the store's reference object of the bug's permanent ID (a save gives
        // the ID; the `number` attribute is the store's copy, read when the bug is refetched).
        let reference = bug.objectID.isTemporaryID ? nil : store.referenceObject(for: bug.objectID)?.integerValue
        let number = reference.map { "#\($0)" } ?? "new"
        let fixed = try bug.value(forKey: "isFixed") as? Bool == true
        let title = try bug.value(forKey: "title") as? String ?? ""
        return "\(number) [\(fixed ? "x" : " ")] \(title)"
    }
}
