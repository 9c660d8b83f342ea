import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import UndoManagement
import TestSupport
@testable import ManagedObjects

/// `setValue(_:forKey:)` of a value of exactly an attribute's type into a new object (or an
/// object outside any context) goes straight to the slot (ManagedObject+StoresByKey.swift).
/// Every store must end as the key's property would have ended it: these tests run the same
/// steps on an object nobody observes (the direct way) and on one a key-value observer watches
/// (the full way), and check conversions, refusals, observers, undo and change tracking.
@Suite struct DirectStoreByKeyTests {
    static func model() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Every", properties: [
                .attribute("text", .string), .attribute("small", .integer16), .attribute("medium", .integer32),
                .attribute("large", .integer64, defaultValue: 5), .attribute("real", .double), .attribute("single", .float),
                .attribute("flag", .boolean), .attribute("when", .date), .attribute("amount", .decimal),
                .attribute("bytes", .binaryData), .attribute("identifier", .uuid), .attribute("link", .uri),
                .attribute("note", .string, isTransient: true),
            ]),
        ])
    }

    static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model())
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// One value of exactly each attribute's type, by key; a long (heap) string for `text`.
    static func values(_ round: Int) -> [(String, Any)] {
        [("text", String(repeating: "long text \(round) ", count: 8)), ("small", Int16(3 + round)), ("medium", Int32(-4 - round)),
         ("large", Int64(1 << 40) + Int64(round)), ("real", 2.5 + Double(round)), ("single", Float(1.25)),
         ("flag", round % 2 == 0), ("when", Date(timeIntervalSinceReferenceDate: 1000 + Double(round))),
         ("amount", Decimal(string: "12.34")!), ("bytes", Data([1, 2, UInt8(round)])),
         ("identifier", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5\(round % 10)")!),
         ("link", URL(string: "https://example.com/\(round)")!), ("note", "transient \(round)")]
    }

    /// Text of the values of an object, by key.
    static func text(_ values: [String: Any?]) -> [String: String] {
        values.mapValues { $0.map { String(describing: $0) } ?? "nil" }
    }

    /// Inserts an object, stores every value twice (the second store replaces a value of the
    /// same type), and returns its values, changed values and the did-change batches.
    static func insertAndStore(watched: Bool) throws -> (values: [String: String], changed: [String: String],
                                                         batches: [[Int]], heard: Int) {
        let context = try Self.context()
        var batches: [[Int]] = []
        let token = context.onObjectsDidChange { batches.append([$0.inserted.count, $0.updated.count]) }
        defer { token.cancel() }
        let recorder = ChangeRecorder()
        let object = try context.insertNewObject(forEntityNamed: "Every")
        if watched { try object.addObserver(recorder, forKeyPath: "text", options: [.old, .new]) }
        for (key, value) in values(1) { try object.setValue(value, forKey: key) }
        for (key, value) in values(2) { try object.setValue(value, forKey: key) }
        var read: [String: Any?] = [:]
        for (key, _) in values(2) { read[key] = try object.value(forKey: key) }
        let changed = text(object.changedValues())
        context.processPendingChanges()
        return (text(read), changed, batches, recorder.records.count)
    }

    @Test func everyPlainTypeIsStoredAsTheFullWayStoresIt() throws {
        let direct = try Self.insertAndStore(watched: false)
        let full = try Self.insertAndStore(watched: true)
        #expect(direct.values == full.values && direct.changed == full.changed && direct.batches == full.batches)
        #expect(full.heard == 2, "the observer heard both stores of text")
        #expect(direct.values["text"] == String(repeating: "long text 2 ", count: 8))
        #expect(direct.values["large"] == "\((Int64(1) << 40) + 2)" && direct.values["flag"] == "true")
        #expect(direct.changed["note"] == nil && direct.changed.count == 12, "every saved value, no transient one")
        #expect(direct.batches == [[1, 0]])
    }

    @Test func aStringStoredByKeyOutlivesTheCallersCopy() throws {
        let context = try Self.context()
        let objects = try (0..<50).map { _ in try context.insertNewObject(forEntityNamed: "Every") }
        for (index, object) in objects.enumerated() {
            // A heap string made here and dropped after the store: the slot keeps its own.
            try object.setValue(String(repeating: "x", count: 40) + "\(index)", forKey: "text")
        }
        for (index, object) in objects.enumerated() {
            #expect(try object.value(forKey: "text") as? String == String(repeating: "x", count: 40) + "\(index)")
        }
        try context.save()
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Every"))
        #expect(Set(fetched.compactMap { try? $0.value(forKey: "text") as? String }).count == 50)
    }

    @Test func conversionsAndRefusalsAreUnchanged() throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Every")
        try object.setValue(7, forKey: "large")                        // an Int: converted
        #expect(try object.value(forKey: "large") as? Int64 == 7)
        try object.setValue(Int64(3), forKey: "small")                 // another integer type: converted
        #expect(try object.value(forKey: "small") as? Int16 == 3)
        #expect {
            try object.setValue("seven", forKey: "large")
        } throws: { error in
            guard case .typeMismatch(let key, _, _, _) = error as? KeyValueCodingError else { return false }
            return key == "large"
        }
        #expect(try object.value(forKey: "large") as? Int64 == 7, "a refused value leaves the slot as it was")
        #expect {
            try object.setValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "when")
        } throws: { error in
            guard case .valueOutOfRange(let key, _, _) = error as? KeyValueCodingError else { return false }
            return key == "when"
        }
        #expect(try object.value(forKey: "when") == nil)
        try object.setValue("text", forKey: "text")
        try object.setValue(NSNull(), forKey: "text")                  // NSNull is nil
        #expect(try object.value(forKey: "text") == nil)
        #expect(throws: KeyValueCodingError.self) { try object.setValue(1, forKey: "missing") }
    }

    @Test func anObserverAddedAfterTheInsertHearsStoresByKey() throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Every")
        try object.setValue("before", forKey: "text")                  // direct: nobody observes yet
        let recorder = ChangeRecorder()
        try object.addObserver(recorder, forKeyPath: "text", options: [.old, .new])
        try object.setValue("after", forKey: "text")
        #expect(recorder.records.count == 1)
        #expect(recorder.records.first?.change.oldValue as? String == "before")
        #expect(recorder.records.first?.change.newValue as? String == "after")
        try object.removeObserver(recorder, forKeyPath: "text")
        try object.setValue("unheard", forKey: "text")
        #expect(recorder.records.count == 1)
    }

    @Test func aContextWithAnUndoManagerUndoesStoresIntoANewObject() throws {
        let context = try Self.context()
        context.undoManager = UndoHistory()
        let object = try context.insertNewObject(forEntityNamed: "Every")
        try object.setValue("first", forKey: "text")
        try object.setValue(Int64(9), forKey: "large")
        context.processPendingChanges()
        try object.setValue("second", forKey: "text")
        context.processPendingChanges()
        try context.undo()
        #expect(try object.value(forKey: "text") as? String == "first")
        try context.redo()
        #expect(try object.value(forKey: "text") as? String == "second")
        try context.undo()
        try context.undo()                                             // the insert and its stores
        #expect(context.insertedObjects.isEmpty)
    }

    @Test func aSavedObjectStillRecordsItsCommittedValues() throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Every")
        try object.setValue("saved", forKey: "text")
        try context.save()
        try object.setValue("changed", forKey: "text")
        #expect(object.isUpdated)
        #expect(Self.text(object.changedValues()) == ["text": "changed"])
        #expect(object.committedValues(forKeys: ["text"])["text"] as? String == "saved")
        context.rollback()
        #expect(try object.value(forKey: "text") as? String == "saved")
    }

    @Test func hooksOfASubclassHearStoresByKeyIntoANewObject() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Record", properties: [.attribute("name", .string), .attribute("count", .integer64)]),
        ])
        try model.setManagedObjectClass(HookedRecord.self, forEntityNamed: "Record")
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let record = try #require(try context.insertNewObject(forEntityNamed: "Record") as? HookedRecord)
        try record.setValue("alpha", forKey: "name")
        try record.setValue(Int64(2), forKey: "count")
        #expect(record.hooks == ["will name", "did name", "will count", "did count"])
        // Outside any context, too.
        let loose = try HookedRecord(in: model)
        try loose.setValue("beta", forKey: "name")
        #expect(loose.hooks == ["will name", "did name"])
        #expect(try loose.value(forKey: "name") as? String == "beta")
    }

    @Test func anObjectOutsideAContextStoresByKey() throws {
        let object = try ManagedObject(entityName: "Every", in: Self.model())
        for (key, value) in Self.values(3) { try object.setValue(value, forKey: key) }
        try object.setValue(Int64(11), forKey: "large")
        try object.setValue("replaced", forKey: "text")
        #expect(try object.value(forKey: "large") as? Int64 == 11)
        #expect(try object.value(forKey: "text") as? String == "replaced")
        #expect(try object.value(forKey: "flag") as? Bool == false)
    }
}
