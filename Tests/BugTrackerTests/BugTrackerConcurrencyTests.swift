import Foundation
import Testing
@testable import BugTracker

/// Two trackers on one file: conflicts are reported, never lost writes.
@Suite struct BugTrackerConcurrencyTests {
    static func twoTrackers() throws -> (URL, BugTrackerSession, BugTrackerSession) {
        let file = try temporaryBugFile()
        let first = try BugTrackerSession(file: file)
        _ = first.execute("add Crash when saving")
        _ = first.execute("add Typo in help")
        _ = first.execute("save")
        let second = try BugTrackerSession(file: file)
        _ = first.execute("list")
        _ = second.execute("list")
        return (file, first, second)
    }

    @Test func aChangeToABugChangedElsewhereIsAReportedConflict() throws {
        let (file, first, second) = try Self.twoTrackers()
        _ = first.execute("fix 1")
        #expect(first.execute("save").hasPrefix("saved"))
        let before = try Data(contentsOf: file)
        _ = second.execute("delete 1")
        let refused = second.execute("save")
        #expect(refused.hasPrefix("not saved: "), "\(refused)")
        #expect(refused.contains("'refresh'"))
        #expect(try Data(contentsOf: file) == before, "the first tracker's write is kept, nothing else written")
        // Taking the other tracker's changes, then saving, is the user's explicit choice.
        #expect(second.execute("refresh").hasPrefix("up to date with bugs.txt"))
        #expect(second.execute("save").hasPrefix("saved"))
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("1\t") }, "bug #1 deleted (refresh may add reports with any title)")
        #expect(lines.contains("2\t1\topen\tTypo in help"))
    }

    @Test func bothTrackersChangingOneBugConflictOnTheSecondSave() throws {
        let (file, first, second) = try Self.twoTrackers()
        _ = first.execute("fix 2")
        _ = second.execute("delete 2")
        #expect(second.execute("save").hasPrefix("saved"))
        #expect(first.execute("save").hasPrefix("not saved: "))
        #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix("next 3\n1\t1\topen\tCrash when saving\n"))
        #expect(first.execute("refresh").contains("deleted by another tracker, your changes dropped: #2 [x] Typo in help"))
    }

    @Test func trackersAddingAtOnceGetDistinctNumbers() throws {
        let (file, first, second) = try Self.twoTrackers()
        _ = first.execute("add From the first")
        _ = second.execute("add From the second")
        #expect(second.execute("save").hasPrefix("saved"))
        #expect(first.execute("save").hasPrefix("saved"))
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("3\t1\topen\tFrom the second\n4\t1\topen\tFrom the first\n"))
        #expect(first.execute("refresh").hasPrefix("up to date"))
        #expect(first.execute("list").contains("From the second"))
    }

    @Test func trackersOnThreadsNeverLoseAWrite() async throws {
        let file = try temporaryBugFile()
        _ = try BugTrackerSession(file: file)
        await withTaskGroup(of: Void.self) { group in
            for tracker in 0..<4 {
                group.addTask {
                    guard let session = try? BugTrackerSession(file: file) else { return }
                    for index in 0..<5 {
                        _ = session.execute("add Bug \(tracker)-\(index)")
                        _ = session.execute("save")
                    }
                }
            }
        }
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").dropFirst(3)
        #expect(lines.count == 20)
        #expect(Set(lines.map { $0.split(separator: "\t")[0] }).count == 20)
    }
}
