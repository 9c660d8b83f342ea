import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Saves of changed objects of an entity of plain attributes: from the second save of an
/// object on, the coordinator's row cache writes the changed values into its own row (in
/// place) instead of taking the object's values array, so the object keeps its array to itself.
/// The cached rows still hold exactly what the file holds, and other contexts read them.
@Suite struct RowCacheInPlaceSaveTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Meter", properties: [
                .attribute("name", .string), .attribute("reading", .integer64), .attribute("level", .double),
            ]),
        ])
    }

    /// A coordinator with the store of the file at `url`.
    static func coordinator(at url: URL) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: try model())
        try coordinator.addStore(SQLitePersistentStore(url: url))
        return coordinator
    }

    /// A new meter in `context`, level 0.5.
    static func meter(_ name: String, reading: Int64, in context: ManagedObjectContext) throws -> ManagedObject {
        let meter = try context.insertNewObject(forEntityNamed: "Meter")
        try meter.setValue(name, forKey: "name")
        try meter.setValue(reading, forKey: "reading")
        try meter.setValue(0.5, forKey: "level")
        return meter
    }

    static func buffer(of values: ContiguousArray<Any?>?) -> UnsafeRawPointer? {
        values?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func repeatedSavesKeepTheCacheAndTheFileAlikeAndTheObjectsArraysTheirOwn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Meters.sqlite")
        let coordinator = try Self.coordinator(at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let meters = try (0..<3).map { try Self.meter("m\($0)", reading: Int64($0), in: context) }
        try context.save()
        for round in 1...3 {
            for meter in meters { try meter.setValue(Int64(100 * round), forKey: "reading") }
            if round == 2 { try meters[1].setValue(9.5, forKey: "level") }
            try context.save()
            for meter in meters {
                let row = try #require(coordinator.rowCache.row(for: meter.objectID, maximumAge: -1))
                #expect(row.version == Int64(round + 1))
                #expect(row.attributes["reading"] == .integer(Int64(100 * round)))
                #expect(row.attributes["name"] == .string(try #require(try meter.value(forKey: "name") as? String)))
                #expect(row.attributes["level"] == .double(try #require(try meter.value(forKey: "level") as? Double)))
                // From the second save on the cached row has an array of its own.
                if round >= 2 { #expect(Self.buffer(of: row.columns?.slotValues) != Self.buffer(of: meter.values)) }
            }
        }
        // Another context of the coordinator fills its faults from the cache: the saved values.
        let other = ManagedObjectContext(coordinator: coordinator)
        for meter in meters {
            let copy = try other.existingObject(with: meter.objectID)
            #expect(try copy.value(forKey: "reading") as? Int64 == 300)
            #expect(try copy.value(forKey: "level") as? Double == (meter === meters[1] ? 9.5 : 0.5))
        }
        // A new coordinator reads the file: the same rows.
        let reader = try Self.coordinator(at: url)
        let fresh = ManagedObjectContext(coordinator: reader)
        let fetched = try fresh.fetch(EntityFetchRequest(entityName: "Meter"))
        #expect(fetched.count == 3)
        for object in fetched {
            let row = try #require(coordinator.rowCache.row(for: object.objectID, maximumAge: -1))
            #expect(try reader.stores[0].row(for: object.objectID)?.attributes == row.attributes)
            #expect(try object.value(forKey: "reading") as? Int64 == 300)
        }
    }

    @Test func aConflictLeavesTheCacheWithTheFilesRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Meters.sqlite")
        let coordinator = try Self.coordinator(at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let meter = try Self.meter("m", reading: 1, in: context)
        try context.save()
        try meter.setValue(Int64(2), forKey: "reading")
        try context.save()
        // Another coordinator writes the row: this context's next save is a conflict.
        let writer = try Self.coordinator(at: url)
        let writerContext = ManagedObjectContext(coordinator: writer)
        try writerContext.existingObject(with: meter.objectID).setValue(Int64(50), forKey: "reading")
        try writerContext.save()
        try meter.setValue(Int64(3), forKey: "reading")
        #expect(throws: (any Error).self) { try context.save() }
        // Nothing of the refused save reached the cache: it holds the row the file holds (the
        // other coordinator's, read when the conflict was found), not this context's value.
        let row = try #require(coordinator.rowCache.row(for: meter.objectID, maximumAge: -1))
        let stored = try #require(try writer.stores[0].row(for: meter.objectID))
        #expect(row.version == stored.version)
        #expect(row.attributes == stored.attributes)
        #expect(row.attributes["reading"] == .integer(50))
    }
}
