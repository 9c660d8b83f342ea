import Foundation
import Testing
import KeyValueCoding
import TestSupport
@testable import ManagedObjects

/// A store by key (`setValue(_:forKey:)`) tries the key after the one set last, then that key,
/// before it scans the entity's keys (`ManagedObject.keyPositionHint`), and writes a value of
/// exactly the attribute's type in place when the object's value array is its own. Whatever
/// order keys come in, each store must reach its own slot, and a value array another holder
/// shares must never be written.
@Suite struct KeyedStoreHintTests {
    static func model(extraAttributes: Int = 0) -> ManagedObjectModel {
        var properties: [PropertyDescription] = [
            .attribute("name", .string), .attribute("count", .integer64, defaultValue: 3), .attribute("ratio", .double),
            .attribute("flag", .boolean), .attribute("label", .string), .attribute("size", .integer32),
        ]
        for index in 0..<extraAttributes { properties.append(.attribute("extra\(index)", .integer64)) }
        // A valid model: building it cannot fail.
        return try! ManagedObjectModel(entities: [EntityDescription(name: "Item", properties: properties)])
    }

    static func context(_ model: ManagedObjectModel = model()) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// A value for `key` in round `round`, of the attribute's type.
    static func value(_ key: String, _ round: Int) -> Any {
        switch key {
        case "name": return "name \(round)"
        case "count": return Int64(100 + round)
        case "ratio": return Double(round) / 4
        case "flag": return round % 2 == 1
        case "label": return String(repeating: "label \(round) ", count: 4)
        default: return Int32(round)
        }
    }

    static let keys = ["name", "count", "ratio", "flag", "label", "size"]

    /// Text of the object's values, by key.
    static func text(of object: ManagedObject, keys: [String] = keys) throws -> [String: String] {
        var read: [String: String] = [:]
        for key in keys { read[key] = try object.value(forKey: key).map { String(describing: $0) } ?? "nil" }
        return read
    }

    @Test(arguments: [
        ["name", "count", "ratio", "flag", "label", "size"],
        ["size", "label", "flag", "ratio", "count", "name"],
        ["count", "count", "name", "name", "size", "ratio", "label", "flag", "flag"],
        ["flag", "name", "size", "count", "label", "ratio"],
    ])
    func everyOrderOfKeysReachesEachKeysSlot(order: [String]) throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Item")
        var expected: [String: String] = try Self.text(of: object)
        for (round, key) in order.enumerated() {
            let value = Self.value(key, round)
            try object.setValue(value, forKey: key)
            expected[key] = String(describing: value)
            #expect(try Self.text(of: object) == expected, "after setting \(key) in round \(round)")
        }
        #expect(try Self.text(of: object) == expected)
    }

    @Test func aKeyTheEntityDoesNotHaveThrowsBetweenStoresThatStillLand() throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Item")
        try object.setValue("first", forKey: "name")
        #expect(throws: KeyValueCodingError.self) { try object.setValue(1, forKey: "colour") }
        try object.setValue(Int64(9), forKey: "count")
        #expect(throws: KeyValueCodingError.self) { try object.setValue(1, forKey: "") }
        try object.setValue("second", forKey: "label")
        let read = try Self.text(of: object)
        #expect(read["name"] == "first" && read["count"] == "9" && read["label"] == "second")
    }

    @Test func aKeyWithTheSameTextInOtherStorageIsFound() throws {
        // Keys made at run time: a long key in heap storage, a short one built from parts.
        let model = Self.model(extraAttributes: 12)
        let context = try Self.context(model)
        let object = try context.insertNewObject(forEntityNamed: "Item")
        let longKey = ["ex", "tra", "11"].joined()
        let built = String(["l", "a", "b", "e", "l"])
        try object.setValue(Int64(42), forKey: longKey)
        try object.setValue("built", forKey: built)
        try object.setValue(Int64(43), forKey: String("extra10".utf8.map { Character(UnicodeScalar($0)) }))
        #expect(try object.value(forKey: "extra11") as? Int64 == 42)
        #expect(try object.value(forKey: "label") as? String == "built")
        #expect(try object.value(forKey: "extra10") as? Int64 == 43)
    }

    @Test func anEntityOfMoreThan256KeysFindsEveryKeyInEitherOrder() throws {
        // The hint keeps one byte of the position: past 255 it names another key, which only
        // costs the scan.
        let model = Self.model(extraAttributes: 300)
        let context = try Self.context(model)
        let object = try context.insertNewObject(forEntityNamed: "Item")
        let keys = (0..<300).map { "extra\($0)" }
        for (index, key) in keys.enumerated() { try object.setValue(Int64(index), forKey: key) }
        for (index, key) in keys.enumerated().reversed() { try object.setValue(Int64(index * 2), forKey: key) }
        for (index, key) in keys.enumerated() { #expect(try object.value(forKey: key) as? Int64 == Int64(index * 2)) }
        try object.setValue("after", forKey: "name")
        #expect(try object.value(forKey: "name") as? String == "after")
    }

    @Test func aStoreIntoAnObjectOutsideAContextLeavesOtherNewObjectsAlone() throws {
        // A new object outside any context shares its entity's new-object values until its
        // first store: that store must give it values of its own.
        let model = Self.model()
        let first = try ManagedObject(entityName: "Item", in: model)
        let second = try ManagedObject(entityName: "Item", in: model)
        try first.setValue(Int64(7), forKey: "count")
        try first.setValue(2.5, forKey: "ratio")
        try first.setValue("mine", forKey: "name")
        let third = try ManagedObject(entityName: "Item", in: model)
        for object in [second, third] {
            #expect(try object.value(forKey: "count") as? Int64 == 3, "the default")
            #expect(try object.value(forKey: "ratio") == nil && object.value(forKey: "name") == nil)
        }
        #expect(try first.value(forKey: "count") as? Int64 == 7 && first.value(forKey: "name") as? String == "mine")
        // Inserted, they still differ.
        let context = try Self.context(model)
        try context.insert(first)
        try context.insert(second)
        try second.setValue(Int64(8), forKey: "count")
        #expect(try first.value(forKey: "count") as? Int64 == 7 && second.value(forKey: "count") as? Int64 == 8)
        #expect(try third.value(forKey: "count") as? Int64 == 3)
    }

    /// Changes an object that had values before its insert, then stores again by key, and
    /// returns what its records answer (its value array is shared with its event-start record
    /// at the insert).
    static func storeAfterInsertOfChangedObject(watched: Bool) throws -> [String] {
        let model = Self.model()
        let object = try ManagedObject(entityName: "Item", in: model)
        try object.setValue("before", forKey: "name")
        try object.setValue(Int64(1), forKey: "count")
        let context = try Self.context(model)
        try context.insert(object)
        let recorder = ChangeRecorder()
        if watched { try object.addObserver(recorder, forKeyPath: "name", options: [.new]) }
        try object.setValue("after", forKey: "name")
        try object.setValue(Int64(2), forKey: "count")
        func describe(_ values: [String: Any?]) -> String {
            values.keys.sorted().map { "\($0)=\(values[$0]!.map { String(describing: $0) } ?? "nil")" }.joined(separator: ",")
        }
        let answers = [describe(object.changedValuesForCurrentEvent()), describe(object.changedValues()),
                       describe(object.committedValues(forKeys: ["name", "count"])), try Self.text(of: object).sorted { $0.key < $1.key }.description]
        context.processPendingChanges()
        try object.setValue("later", forKey: "name")
        return answers + [describe(object.changedValuesForCurrentEvent()), describe(object.changedValues()),
                          String(watched ? recorder.records.count : 2)]
    }

    @Test func aStoreIntoValuesSharedWithTheEventRecordMatchesTheFullWay() throws {
        let direct = try Self.storeAfterInsertOfChangedObject(watched: false)
        let full = try Self.storeAfterInsertOfChangedObject(watched: true)
        #expect(direct == full)
    }

    @Test func aSavedObjectsCommittedValuesSurviveStoresByKey() throws {
        let context = try Self.context()
        let object = try context.insertNewObject(forEntityNamed: "Item")
        for (round, key) in Self.keys.enumerated() { try object.setValue(Self.value(key, round), forKey: key) }
        try context.save()
        let saved = try Self.text(of: object)
        for (round, key) in Self.keys.enumerated() { try object.setValue(Self.value(key, round + 10), forKey: key) }
        let committed = object.committedValues(forKeys: Self.keys).mapValues { $0.map { String(describing: $0) } ?? "nil" }
        #expect(committed == saved)
        context.rollback()
        #expect(try Self.text(of: object) == saved)
    }
}
