import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile probes of rows written by another coordinator meeting the row cache (session 8):
// faults filled with the cached row or the file's by the staleness interval, fetches reading
// the file, registered objects not overwritten by a refetch, the store's own cache after its
// saves of changed columns.
@Suite struct HostileSession8RowCacheTests {
    /// A SQLite stack with three saved things (variant 0) and a rival coordinator that renamed
    /// the second after this coordinator had read it.
    static func renamedUnderneath() throws -> (H8Stack, [ManagedObjectID]) {
        let stack = try H8Stack(.sqlite)
        let ids = try stack.savedThings(3).map(\.objectID)
        let rival = try stack.rival()
        try rival.existingObject(with: ids[1]).setValue("theirs", forKey: "name")
        try rival.save()
        return (stack, ids)
    }

    @Test func faultsTakeTheCachedRowUntilTheStalenessIntervalSaysOtherwise() throws {
        let (stack, ids) = try Self.renamedUnderneath()
        // The coordinator saved version 1 of every row; a context with the default interval
        // fills its fault from that row.
        let cached = ManagedObjectContext(coordinator: stack.coordinator)
        let old = try cached.object(with: ids[1])
        #expect(try old.value(forKey: "name") as? String == H8.value("name", 0) as? String)
        #expect(old.storeVersion == 1)
        // Interval 0 reads the file (and caches what it read).
        let current = ManagedObjectContext(coordinator: stack.coordinator)
        current.stalenessInterval = 0
        let new = try current.object(with: ids[1])
        #expect(try new.value(forKey: "name") as? String == "theirs")
        #expect(new.storeVersion == 2)
        H8.expect(new, 0, [:], "read from the file", except: ["name"])
        let later = ManagedObjectContext(coordinator: stack.coordinator)
        #expect(try later.object(with: ids[1]).value(forKey: "name") as? String == "theirs")
        // The stale object conflicts; the current one saves.
        try old.setValue(Int64(1), forKey: "large")
        #expect(throws: ManagedObjectMergeError.self) { try cached.save() }
        try new.setValue(Int64(2), forKey: "large")
        try current.save()
        #expect(try stack.version(ids[1]) == 3)
        #expect(try stack.reread(ids[1]).value(forKey: "name") as? String == "theirs")
    }

    @Test func aFetchReadsTheFileButLeavesRegisteredObjectsAsTheyAre() throws {
        let (stack, ids) = try Self.renamedUnderneath()
        let context = stack.context
        let registered = try context.existingObject(with: ids[1])
        // The registered object holds the row it read (version 1): fetches evaluate it on its
        // own values (Docs/Porting.md), so every object a fetch returns matches by its values.
        for format in ["name == 'theirs'", "name != 'theirs'", "name == %@"] {
            let predicate = try KeyValuePredicate(format: format, H8.value("name", 0))
            let fetched = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: predicate))
            #expect(try fetched.allSatisfy { try predicate.evaluate(with: $0) }, "\(format)")
            #expect(fetched.allSatisfy { object in object !== registered || object.storeVersion == 1 }, "\(format)")
        }
        #expect(try registered.value(forKey: "name") as? String == H8.value("name", 0) as? String, "a fetch does not overwrite it")
        // A context that has not registered it gets the new row from the same fetch.
        let other = ManagedObjectContext(coordinator: stack.coordinator)
        let fresh = try other.fetch(EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: "name == 'theirs'")))
        #expect(fresh.count == 1)
        #expect(try fresh.first?.value(forKey: "name") as? String == "theirs")
        #expect(fresh.first?.storeVersion == 2)
        H8.expect(try #require(fresh.first), 0, [:], "fetched", except: ["name"])
    }

    @Test func theStoresOwnCacheAfterSavesOfChangedColumns() throws {
        let stack = try H8Stack(.sqlite)
        let store = try #require(stack.store as? SQLitePersistentStore)
        let thing = try stack.context.insertNewObject(forEntityNamed: "SubThing")
        try H8.fill(thing, 1)
        try thing.setValue("e", forKey: "extra")
        try stack.context.save()
        // Rows read into the store's cache, then one column saved, several times.
        for round in 0..<4 {
            _ = try store.row(for: thing.objectID)
            _ = try store.rows(for: [thing.objectID])
            try thing.setValue(Int64(round), forKey: "serial")
            if round == 2 { try thing.setValue(nil, forKey: "payload") }
            try stack.context.save()
            let row = try #require(try store.row(for: thing.objectID))
            #expect(row.version == Int64(round + 2))
            #expect(row.attributes["serial"] == .integer(Int64(round)))
            #expect(row.attributes["name"] == .string(""))
            #expect(row.attributes["extra"] == .string("e"))
            #expect(row.attributes["large"] == .integer(-1))
            #expect(((row.attributes["payload"] ?? .null) == .null) == (round >= 2), "round \(round)")
        }
        let peer = ManagedObjectContext(coordinator: stack.coordinator)
        H8.expect(try peer.existingObject(with: thing.objectID), 1, ["payload": 2], "peer")
        H8.expect(try stack.reread(thing.objectID), 1, ["payload": 2], "file")
    }
}
