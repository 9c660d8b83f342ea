import Foundation
import Testing
@testable import BugTracker
import ObjectGraph

@Suite struct BugFileTests {
    @Test func titlesWithTabsBackslashesAndLineBreaksRoundTrip() throws {
        var file = BugFile(uuid: UUID().uuidString)
        file.next = 3
        file.bugs = [BugFile.Line(number: 1, version: 1, isFixed: false, title: "a\tb\\c\nd\re"),
                     BugFile.Line(number: 2, version: 4, isFixed: true, title: "plain")]
        #expect(try BugFile(text: file.text, path: "x") == file)
        #expect(file.text.split(separator: "\n").count == 5)
    }

    @Test(arguments: [
        ("", 1, "not a bug-tracker file"),
        ("bug-tracker 1\nuuid nope\nnext 1\n", 2, "expected 'uuid' and a UUID"),
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 0\n", 3, "expected 'next'"),
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 5\n1\t1\topen\n", 4, "expected number, version"),
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 5\n2\t1\topen\ta\n1\t1\topen\tb\n", 5, "bug numbers must rise"),
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 2\n2\t1\topen\ta\n", 4, "below 'next'"),
        // Numbers and versions near Int64.max would overflow when reserved or raised.
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 9223372036854775807\n", 3, "counts at most to"),
        ("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext 5\n1\t9223372036854775807\topen\ta\n", 4, "the version 9223372036854775807 is beyond"),
    ])
    func damagedFilesAreErrorsNamingTheLineAndAreLeftAlone(text: String, line: Int, reason: String) throws {
        let url = try temporaryBugFile()
        try Data(text.utf8).write(to: url)
        do {
            _ = try BugTrackerSession(file: url)
            Issue.record("a damaged file opened")
        } catch let error as BugTrackerError {
            guard case .damagedFile(let path, let errorLine, let why) = error else { Issue.record("\(error)"); return }
            #expect(path == url.path && errorLine == line && why.contains(reason))
            #expect(error.localizedDescription.hasPrefix("\(url.path), line \(line): "))
        }
        #expect(try Data(contentsOf: url) == Data(text.utf8))
    }

    @Test func aFileWithCRLFLineEndingsReads() throws {
        let text = "bug-tracker 1\r\nuuid 780D858C-827F-40AF-99B6-A80A97179216\r\nnext 3\r\n1\t1\topen\tFirst\r\n2\t2\tfixed\ta\\rb\r\n"
        let file = try BugFile(text: text, path: "crlf")
        #expect(file.next == 3)
        #expect(file.bugs.map(\.title) == ["First", "a\rb"])
    }

    @Test func theLastNumbersAreReservedAndThenRefused() throws {
        let url = try temporaryBugFile()
        let last = BugFile.largestNumber
        try Data("bug-tracker 1\nuuid 780D858C-827F-40AF-99B6-A80A97179216\nnext \(last - 1)\n".utf8).write(to: url)
        let session = try BugTrackerSession(file: url)
        _ = session.execute("add One")
        #expect(session.execute("save").hasPrefix("saved"))
        _ = session.execute("add Two")
        #expect(session.execute("save").contains("no bug numbers are left"))
        #expect(try String(contentsOf: url, encoding: .utf8).contains("next \(last)\n"))
    }

    @Test func aFolderIsRefusedByName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bugs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: BugTrackerError.io(path: folder.path, reason: "this is a folder; give the path of a bug file")) {
            _ = try BugTrackerSession(file: folder)
        }
    }

    @Test func theStoreRegistersByNameAndMapsNumbersToIDs() throws {
        BugFileStore.registerStoreType()
        let url = try temporaryBugFile()
        let coordinator = PersistentStoreCoordinator(model: try BugTrackerModel.make())
        let store = try coordinator.addStore(with: StoreDescription(type: BugFileStore.type, url: url))
        #expect(store.storeType == "BugFile")
        let ids = try store.newObjectIDs(for: ["Bug", "Bug"])
        #expect(ids.map { store.referenceObject(for: $0) } == [.integer(1), .integer(2)])
        #expect(try String(contentsOf: url, encoding: .utf8).contains("next 3\n"), "numbers are reserved in the file")
        #expect(throws: BugTrackerError.io(path: "(no URL)", reason: "a BugFile store description needs a file URL")) {
            try coordinator.addStore(with: StoreDescription(type: BugFileStore.type))
        }
        let other = PersistentStoreCoordinator(model: try ManagedObjectModel(entities: [EntityDescription(name: "Other")]))
        #expect(throws: BugTrackerError.io(path: url.path, reason: "the model has no entity 'Bug'")) {
            try other.addStore(BugFileStore(url: url))
        }
    }
}
