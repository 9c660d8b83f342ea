// A session on an in-memory store: each change is one named undo step; undo and redo work
// across saves; bad input changes nothing; quit warns about unsaved changes.

import Foundation
import ManagedObjects
import Testing
@testable import FruitStand

@Suite struct FruitStandSessionTests {
    /// A session with stand Corner: crate 1 with apples 1.9 and 2.4, crate 2 with oranges 2.6
    /// and 2.2 (seven steps, unsaved).
    static func stocked(autosave: Bool = false) throws -> FruitStandSession {
        let session = try FruitStandSession(store: .inMemory, autosave: autosave)
        for line in ["stand add Corner", "crate add Corner", "crate add Corner",
                     "fruit add apple 1.9 Corner/1", "fruit add apple 2.4 Corner/1",
                     "fruit add orange 2.6 Corner/2", "fruit add orange 2.2 Corner/2"] {
            let output = session.execute(line)
            #expect(!output.hasPrefix("error"), "\(line): \(output)")
        }
        return session
    }

    static let stockedList = """
        Corner: 2 crates, 4 fruit
          Corner/1  apple 1.9  apple 2.4
          Corner/2  orange 2.2  orange 2.6
        """

    @Test func theShippedModelFileHasTheBookChaptersShape() throws {
        let model = try FruitStandDataModel.load()
        #expect(model.warnings.isEmpty, "\(model.warnings)")
        let fruit = try #require(model.entity(named: "Fruit"))
        #expect(fruit.isAbstract && fruit.subentityNames.sorted() == ["Apple", "Orange"])
        #expect(model.entity(named: "Apple")?.allProperties.map(\.name).sorted() == ["crate", "radius"])
        #expect(model.entity(named: "Stand")?.relationshipsByName["crates"]?.deleteRule == .cascade)
        #expect(model.entity(named: "Crate")?.relationshipsByName["fruit"]?.deleteRule == .cascade)
        #expect(model.managedObjectClass(forEntityNamed: "Orange") == Orange.self)
    }

    @Test func everyChangeIsOneNamedUndoStep() throws {
        let session = try Self.stocked()
        #expect(session.history.undoCount == 7)
        #expect(session.history.undoActionName == "Add Orange 2.2 to Corner/2")
        #expect(session.execute("list") == Self.stockedList)
        #expect(session.execute("undo") == "undid Add Orange 2.2 to Corner/2")
        #expect(session.execute("undo") == "undid Add Orange 2.6 to Corner/2")
        #expect(session.execute("list") == """
            Corner: 2 crates, 2 fruit
              Corner/1  apple 1.9  apple 2.4
              Corner/2  (empty)
            """)
        #expect(session.execute("redo") == "redid Add Orange 2.6 to Corner/2")
        #expect(session.execute("history") == """
            undo (next first):
              Add Orange 2.6 to Corner/2
              Add Apple 2.4 to Corner/1
              Add Apple 1.9 to Corner/1
              Add Crate Corner/2
              Add Crate Corner/1
              Add Stand Corner
            redo (next first):
              Add Orange 2.2 to Corner/2
            """)
        #expect(session.execute("rename stand Corner Market") == "renamed stand Corner to Market")
        #expect(session.history.undoActionName == "Rename Stand Corner to Market")
        #expect(!session.history.canRedo, "a new change clears the redo steps")
        #expect(session.execute("history").hasSuffix("redo (next first):\n  (none)"))
        for _ in 0..<7 { _ = session.execute("undo") }
        #expect(session.execute("undo") == "nothing to undo")
        #expect(session.execute("list") == "(no stands; add one with 'stand add NAME')")
        #expect(!session.context.hasChanges)
    }

    @Test func removeLargestAndDeleteStandUndoWithTheirCascades() throws {
        let session = try Self.stocked()
        #expect(session.execute("remove-largest apple") == "removed apple 2.4 from Corner/1")
        #expect(session.execute("remove-largest orange") == "removed orange 2.6 from Corner/2")
        #expect(session.execute("list").contains("Corner/1  apple 1.9\n  Corner/2  orange 2.2"))
        #expect(session.execute("undo") == "undid Remove Largest Orange")
        #expect(session.execute("undo") == "undid Remove Largest Apple")
        #expect(session.execute("list") == Self.stockedList)
        #expect(session.execute("delete stand Corner") == "deleted stand Corner with 2 crates and 4 fruit")
        #expect(session.execute("list") == "(no stands; add one with 'stand add NAME')")
        #expect(session.execute("remove-largest apple") == "error: there are no apples to remove")
        #expect(session.execute("undo") == "undid Delete Stand Corner")
        #expect(session.execute("list") == Self.stockedList)
    }

    @Test func undoAndRedoWorkAcrossSaves() throws {
        let session = try Self.stocked()
        #expect(session.execute("save") == "saved to memory: 7 inserted")
        #expect(session.execute("save") == "no changes to save")
        #expect(session.execute("delete stand Corner").hasPrefix("deleted"))
        #expect(session.execute("save") == "saved to memory: 7 deleted")
        #expect(session.execute("undo") == "undid Delete Stand Corner")
        #expect(session.execute("list") == Self.stockedList)
        // The stand, its crates and fruit are back as new objects; undoing the orange's insert
        // just forgets it.
        #expect(session.execute("undo") == "undid Add Orange 2.2 to Corner/2")
        #expect(session.execute("save") == "saved to memory: 6 inserted")
        let fresh = ManagedObjectContext(coordinator: session.container.coordinator)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Fruit")) == 3)
        #expect(session.execute("redo") == "redid Add Orange 2.2 to Corner/2")
        #expect(session.execute("list") == Self.stockedList)
    }

    @Test func rollbackDropsUnsavedChangesAndTheUndoHistory() throws {
        let session = try Self.stocked()
        _ = session.execute("save")
        _ = session.execute("rename stand Corner Market")
        _ = session.execute("fruit add apple 3 Market/1")
        #expect(session.execute("rollback") == "rolled back unsaved changes (1 inserted, 2 updated); the undo history is cleared")
        #expect(session.execute("list") == Self.stockedList)
        #expect(!session.history.canUndo && session.execute("history") == "undo (next first):\n  (none)\nredo (next first):\n  (none)")
        #expect(session.execute("rollback") == "nothing to roll back")
    }

    @Test func findTakesAnyPredicateAndAnEntity() throws {
        let session = try Self.stocked()
        #expect(session.execute("find apple 'radius > 2.1'") == "Corner/1  apple 2.4\n1 of 2 apples matches radius > 2.1")
        #expect(session.execute("find 'radius > 2.1'") == """
            Corner/2  orange 2.2
            Corner/1  apple 2.4
            Corner/2  orange 2.6
            3 of 4 fruit match radius > 2.1
            """, "in the sort order: radius, smallest first")
        #expect(session.execute("find orange crate.stand.name == 'Corner' AND radius BETWEEN {2.5, 3}")
                == "Corner/2  orange 2.6\n1 of 2 oranges matches crate.stand.name == \"Corner\" AND radius BETWEEN {2.5, 3}")
        #expect(session.execute("find radius > 10") == "0 of 4 fruit match radius > 10")
        #expect(session.execute("find apple") == "Corner/1  apple 1.9\nCorner/1  apple 2.4\n2 of 2 apples match")
    }

    @Test func sortOrdersListAndFindWithoutChangingObjects() throws {
        let session = try Self.stocked()
        #expect(session.execute("sort radius desc") == """
            fruit sorted by radius desc
            Corner: 2 crates, 4 fruit
              Corner/1  apple 2.4  apple 1.9
              Corner/2  orange 2.6  orange 2.2
            """)
        #expect(session.execute("find radius > 2").hasPrefix("Corner/2  orange 2.6\nCorner/1  apple 2.4\nCorner/2  orange 2.2"))
        #expect(session.history.undoCount == 7, "sorting is a view setting, not an undo step")
        #expect(session.execute("sort colour") == "error: cannot sort: fruit have no key 'colour' (\(FruitStandSession.keyHelp))")
        #expect(session.sortKeys == [.init(key: "radius", ascending: false)])
    }

    /// Each bad line: one line naming the problem, and nothing changed (objects, unsaved
    /// changes, undo steps).
    @Test(arguments: [
        ("frobnicate", "error: unknown command 'frobnicate' (type 'help' for the list)"),
        ("fruit add apple -2 Corner/1", "error: RADIUS must be a positive number, not '-2'"),
        ("fruit add pear 2 Corner/1", "error: unknown fruit 'pear' (apple or orange)"),
        ("fruit add apple 2 Corner/3", "error: no crate Corner/3 (crates: Corner/1, Corner/2)"),
        ("fruit add apple 2 Nowhere/1", "error: no stand named 'Nowhere' (stands: Corner)"),
        ("crate add Nowhere", "error: no stand named 'Nowhere' (stands: Corner)"),
        ("stand add Corner", "error: there is already a stand named 'Corner'"),
        ("delete stand corner", "error: no stand named 'corner' (stands: Corner)"),
        ("rename stand Nowhere Market", "error: no stand named 'Nowhere' (stands: Corner)"),
        ("find radius >", "error: bad predicate: at position 8 of \"radius >\": expected an expression, found end of input"),
        ("find colour == 'red'", "error: cannot evaluate the predicate: fruit have no key 'colour' (\(FruitStandSession.keyHelp))"),
        ("find apple crate.colour == 1", "error: cannot evaluate the predicate: crates have no key 'colour' (\(FruitStandSession.keyHelp))"),
        ("sort crate.stand.size", "error: cannot sort: stands have no key 'size' (\(FruitStandSession.keyHelp))"),
        ("sort crate", "error: cannot sort: 'crate' is not a value to sort by; sort keys end in an attribute: "
            + "radius, crate.number, crate.stand.name"),
        ("sort crate.stand.crates.number", "error: cannot sort: 'crate.stand.crates.number' is not a value to sort by; "
            + "sort keys end in an attribute: radius, crate.number, crate.stand.name"),
    ])
    func badInputChangesNothing(line: String, message: String) throws {
        let session = try Self.stocked()
        _ = session.execute("save")
        _ = session.execute("rename stand Corner Market")
        _ = session.execute("rename stand Market Corner")
        let steps = session.history.undoCount
        let updated = session.context.updatedObjects
        #expect(session.execute(line) == message)
        #expect(session.history.undoCount == steps && !session.history.canRedo)
        #expect(session.context.updatedObjects == updated && session.context.insertedObjects.isEmpty)
        #expect(session.context.deletedObjects.isEmpty)
        #expect(session.execute("list") == Self.stockedList)
    }

    @Test func aBadRadiusIsRefusedOnAnEmptyStoreToo() throws {
        let session = try FruitStandSession(store: .inMemory)
        #expect(session.execute("fruit add orange -1 Corner/1") == "error: RADIUS must be a positive number, not '-1'")
        #expect(session.execute("find colour == 1").hasPrefix("error: cannot evaluate the predicate: fruit have no key 'colour'"))
        #expect(session.execute("crate add Corner") == "error: no stand named 'Corner' (there are no stands)")
        #expect(session.execute("sort crate.stand.size") == "error: cannot sort: stands have no key 'size' (\(FruitStandSession.keyHelp))")
        #expect(!session.context.hasChanges && !session.history.canUndo)
    }

    @Test func quitWarnsAboutUnsavedChangesOnce() throws {
        let session = try Self.stocked()
        #expect(session.execute("quit") == "warning: there are unsaved changes (7 inserted): 'save' to keep them, "
                + "or 'quit' again to leave without saving")
        #expect(!session.isFinished)
        _ = session.execute("list")
        #expect(session.execute("quit").hasPrefix("warning:"), "another command in between: warned again")
        #expect(session.execute("quit") == "unsaved changes dropped\nbye")
        #expect(session.isFinished)

        let saved = try Self.stocked()
        _ = saved.execute("save")
        #expect(saved.execute("quit") == "bye" && saved.isFinished)
    }

    @Test func autosaveSavesWhenQuittingOrWhenTheInputEnds() throws {
        let session = try Self.stocked(autosave: true)
        #expect(session.execute("quit") == "saved to memory: 7 inserted\nbye")
        #expect(session.isFinished && !session.context.hasChanges)

        let ending = try Self.stocked(autosave: true)
        #expect(ending.finishInput() == "saved to memory: 7 inserted")
        let warned = try Self.stocked()
        #expect(warned.finishInput() == "warning: the input ended with unsaved changes (7 inserted); "
                + "they were not saved (use 'save', or --autosave)")
        #expect(warned.context.hasChanges, "nothing saved")
    }

    @Test func transcriptEchoesCommandsAndStopsAtQuit() throws {
        let session = try FruitStandSession(store: .inMemory)
        let transcript = session.transcript(of: "stand add Corner\n\n# a comment\nsave\nquit\nstand add Late\n")
        #expect(transcript == """
            > stand add Corner
            added stand Corner
            > save
            saved to memory: 1 inserted
            > quit
            bye
            """)
    }

    @Test func helpListsEveryCommand() {
        let help = FruitStandSession.helpText
        for entry in FruitStandCommand.usage { #expect(help.contains(entry.usage)) }
    }
}
