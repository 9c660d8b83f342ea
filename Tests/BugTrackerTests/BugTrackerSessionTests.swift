import Foundation
import Testing
@testable import BugTracker

/// The folder of this test run's bug files, removed when the test process exits.
let bugTrackerTestRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("BugTrackerTests-\(UUID().uuidString)")
    atexit { try? FileManager.default.removeItem(at: bugTrackerTestRootPath) }
    return root
}()
private let bugTrackerTestRootPath = bugTrackerTestRoot

/// A fresh directory for one test's bug file.
func temporaryBugFile() throws -> URL {
    let directory = bugTrackerTestRoot.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("bugs.txt")
}

@Suite struct BugTrackerSessionTests {
    @Test func aScriptedSessionAddsFixesDeletesFindsAndSaves() throws {
        let file = try temporaryBugFile()
        let session = try BugTrackerSession(file: file, seed: 7)
        let transcript = session.transcript(of: """
            list
            add Crash when saving
            add Typo in help
            add Slow start
            save
            fix 2
            delete 3
            list
            find isFixed == YES
            save
            quit
            """)
        #expect(transcript == """
            > list
            no bugs
            > add Crash when saving
            added: Crash when saving (not saved yet)
            > add Typo in help
            added: Typo in help (not saved yet)
            > add Slow start
            added: Slow start (not saved yet)
            > save
            saved to bugs.txt: 3 new, 0 changed, 0 deleted
            > fix 2
            fixed: #2 [x] Typo in help
            > delete 3
            deleted: #3 [ ] Slow start
            > list
            bugs 1–2 of 2 (page 1 of 1):
              1. #1 [ ] Crash when saving
              2. #2 [x] Typo in help
            > find isFixed == YES
            1 bug matches:
              #2 [x] Typo in help
            > save
            saved to bugs.txt: 0 new, 1 changed, 1 deleted
            > quit
            bye
            """)
        #expect(session.isFinished)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasSuffix("next 4\n1\t1\topen\tCrash when saving\n2\t2\tfixed\tTypo in help\n"))
    }

    @Test func bugsPersistAcrossRunsUnderTheSameIdentifier() throws {
        let file = try temporaryBugFile()
        let first = try BugTrackerSession(file: file)
        _ = first.execute("add Lost window after undo")
        _ = first.execute("save")
        let identifier = first.store.identifier
        let second = try BugTrackerSession(file: file)
        #expect(second.store.identifier == identifier)
        #expect(second.execute("list").contains("1. #1 [ ] Lost window after undo"))
        #expect(second.store.metadata["NSStoreUUID"] as? String == identifier)
    }

    @Test func listReadsValuesOnlyForTheBugsShown() throws {
        let file = try temporaryBugFile()
        let writer = try BugTrackerSession(file: file)
        for index in 1...12 { _ = writer.execute("add Bug \(index)") }
        _ = writer.execute("save")
        let reader = try BugTrackerSession(file: file, tracing: true)
        let page2 = reader.execute("list 2")
        let valueLines = page2.split(separator: "\n").filter { $0.hasPrefix("store: values of") }
        #expect(valueLines == ["store: values of bug #11 (version 1)", "store: values of bug #12 (version 1)"])
        #expect(page2.contains(" 11. #11 [ ] Bug 11") && page2.contains(" 12. #12 [ ] Bug 12"))
        let page1 = reader.execute("list")
        #expect(page1.split(separator: "\n").filter { $0.hasPrefix("store: values of") }.count == 10)
        #expect(page1.contains("'list 2' for more"))
        // Shown once, a bug's values are not read again.
        #expect(!reader.execute("list 2").contains("store: values of"))
        #expect(reader.execute("list 3") == "store: count Bug → 12 of 12\nthere are 2 pages of bugs", "a count reads no IDs")
    }

    @Test func undoAndRedoStepThroughCommands() throws {
        let session = try BugTrackerSession(file: try temporaryBugFile())
        #expect(session.execute("undo") == "nothing to undo")
        _ = session.execute("add First")
        _ = session.execute("add Second")
        #expect(session.execute("undo") == "undone (unsaved: 1 new, 0 changed, 0 deleted)")
        #expect(session.execute("list").contains("1. new [ ] First"))
        #expect(!session.execute("list").contains("Second"))
        #expect(session.execute("redo") == "redone (unsaved: 2 new, 0 changed, 0 deleted)")
        #expect(session.execute("redo") == "nothing to redo")
        _ = session.execute("save")
        _ = session.execute("fix 1")
        #expect(session.execute("undo").hasPrefix("undone"))
        #expect(session.execute("list").contains("1. #1 [ ] First"))
    }

    @Test func refreshReceivesReportsFromTheSeededGenerator() throws {
        let one = try BugTrackerSession(file: try temporaryBugFile(), seed: 42)
        let two = try BugTrackerSession(file: try temporaryBugFile(), seed: 42)
        let output = one.execute("refresh")
        #expect(output == two.execute("refresh"), "the same seed gives the same reports")
        let count = try #require(output.split(separator: "\n").last?.split(separator: " ").first.flatMap { Int($0) })
        #expect((1...3).contains(count))
        #expect(one.execute("list").contains("of \(count) (page 1 of 1)"))
    }

    @Test(arguments: [
        ("fix", "usage: fix N, N a position from 'list'"),
        ("fix 9", "no bug at position 9: 'list' shows the bugs there are"),
        ("delete 0", "usage: delete N, N a position from 'list'"),
        ("delete x", "usage: delete N, N a position from 'list'"),
        ("add", "usage: add TEXT"),
        ("list 0", "usage: list [PAGE], PAGE a number from 1"),
        ("find", "usage: find PREDICATE, e.g. find isFixed == NO"),
        ("trace maybe", "usage: trace on|off"),
        ("fly", "unknown command 'fly'; type 'help' for the commands"),
        ("save", "nothing to save"),
    ])
    func badInputIsExplained(command: String, expected: String) throws {
        let session = try BugTrackerSession(file: try temporaryBugFile())
        #expect(session.execute(command) == expected)
    }

    @Test func aBadPredicateIsAnError() throws {
        let session = try BugTrackerSession(file: try temporaryBugFile())
        #expect(session.execute("find title ==").hasPrefix("error: "))
    }

    @Test func quitWarnsOnceAboutUnsavedChanges() throws {
        let session = try BugTrackerSession(file: try temporaryBugFile())
        _ = session.execute("add Unsaved")
        #expect(session.execute("quit") == "you have unsaved changes: 'save' them, or 'quit' again to drop them")
        #expect(!session.isFinished)
        #expect(session.execute("quit") == "bye")
        #expect(session.isFinished)
    }
}
