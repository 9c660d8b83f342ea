import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// A process killed while creating a store leaves its temporary file beside the store; the next
/// load removes such files when their process is gone, and only those.
@Suite struct CreationLitterTests {
    /// The ID of a process that has exited.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func aLoadRemovesTheLitterOfKilledCreationsOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("Litter.sqlite").path
        let dead = try Self.deadProcessID()
        let uuid = UUID().uuidString
        let killed = store + ".creating-\(dead)-\(uuid)"
        let oldStyle = store + ".creating-" + UUID().uuidString
        let recentOldStyle = store + ".creating-" + UUID().uuidString
        let running = store + ".creating-\(ProcessInfo.processInfo.processIdentifier)-" + UUID().uuidString   // a creation in progress here
        let otherStore = directory.file("Other.sqlite").path + ".creating-\(dead)-" + UUID().uuidString
        let notOurs = store + ".creating-notes.txt"
        for file in [killed, killed + "-wal", killed + "-shm", oldStyle, recentOldStyle, running, otherStore, notOurs] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data("half".utf8)))
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: oldStyle)

        let (_, context) = try openStack(try Models.library(), at: directory.file("Litter.sqlite"))
        _ = try context.insertNewObject(forEntityNamed: "Tag")
        try context.save()

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
        let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
        for gone in [killed, killed + "-wal", killed + "-shm", oldStyle] { #expect(!left.contains(name(gone)), "\(gone)") }
        for kept in [recentOldStyle, running, otherStore, notOurs] { #expect(left.contains(name(kept)), "\(kept)") }
        #expect(left.contains("Litter.sqlite"))
    }

    @Test func aFolderOrLinkNamedLikeLitterIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("Kept.sqlite").path
        let dead = try Self.deadProcessID()
        let folder = store + ".creating-\(dead)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let precious = folder + "/precious.txt"
        #expect(FileManager.default.createFile(atPath: precious, contents: Data("precious".utf8)))
        let target = directory.file("target.txt").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("target".utf8)))
        let link = store + ".creating-\(dead)-" + UUID().uuidString
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let (_, context) = try openStack(try Models.library(), at: directory.file("Kept.sqlite"))
        _ = try context.insertNewObject(forEntityNamed: "Tag")
        try context.save()

        #expect(FileManager.default.contents(atPath: precious) == Data("precious".utf8))
        #expect(FileManager.default.contents(atPath: target) == Data("target".utf8))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
    }

    @Test func aStoreCreatedNowLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Fresh.sqlite")
        _ = try openStack(try Models.library(), at: url)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains(".creating-") }, "\(names)")
        // The name a creation uses records its process, so that a later load can tell.
        let temporary = SQLiteStoreEngine.creationPath(for: url.path)
        #expect(temporary.hasPrefix(url.path + ".creating-\(ProcessInfo.processInfo.processIdentifier)-"))
    }
}
