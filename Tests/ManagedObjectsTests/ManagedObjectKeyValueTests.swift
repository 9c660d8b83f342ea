import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import Predicates
import TestSupport
@testable import ManagedObjects

@Suite struct ManagedObjectKeyValueTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Stand", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("crates", "Crate", inverse: "stand", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Crate", properties: [
                .attribute("capacity", .integer16, defaultValue: 12),
                .toOne("stand", "Stand", inverse: "crates"),
                .toMany("fruit", "Fruit", inverse: "crate", ordered: true),
            ]),
            EntityDescription(name: "Fruit", isAbstract: true, properties: [
                .attribute("radius", .double, isOptional: false),
                .toOne("crate", "Crate", inverse: "fruit"),
            ]),
            EntityDescription(name: "Apple", parent: "Fruit", properties: [.attribute("variety", .string)]),
        ])
    }()

    @Test func keysAreTheEntitysPropertiesWithDefaults() throws {
        let crate = try ManagedObject(entityName: "Crate", in: Self.model)
        #expect(try crate.value(forKey: "capacity") as? Int16 == 12)
        #expect(try crate.value(forKey: "stand") == nil)
        #expect((try crate.value(forKey: "fruit") as? [ManagedObject])?.isEmpty == true)
        let apple = try ManagedObject(entityName: "Apple", in: Self.model)
        try apple.setValue(2.4, forKey: "radius")
        try apple.setValue("Gala", forKey: "variety")
        #expect(try apple.value(forKey: "radius") as? Double == 2.4)
        #expect(apple.primitiveValue(forKey: "variety") as? String == "Gala")
        #expect(apple.objectID.isTemporaryID && apple.objectID.entityName == "Apple")
    }

    @Test func wrongKeysAndTypesThrow() throws {
        let crate = try ManagedObject(entityName: "Crate", in: Self.model)
        #expect(throws: KeyValueCodingError.self) { try crate.value(forKey: "colour") }
        #expect(throws: KeyValueCodingError.self) { try crate.setValue("many", forKey: "capacity") }
        #expect(throws: KeyValueCodingError.self) { try crate.setValue(70_000, forKey: "capacity") }
        #expect(try crate.value(forKey: "capacity") as? Int16 == 12)
        #expect(throws: ManagedObjectModelError(.unknownEntity("Pear"))) { try ManagedObject(entityName: "Pear", in: Self.model) }
    }

    @Test func observersSeeChangesByKey() throws {
        let crate = try ManagedObject(entityName: "Crate", in: Self.model)
        let recorder = ChangeRecorder()
        try crate.addObserver(recorder, forKeyPath: "capacity", options: [.old, .new])
        try crate.setValue(20, forKey: "capacity")
        #expect(recorder.count == 1)
        #expect(recorder.records.first?.change.oldValue as? Int16 == 12)
        #expect(recorder.records.first?.change.newValue as? Int16 == 20)
        try crate.removeObserver(recorder, forKeyPath: "capacity")
    }

    @Test func keyPathsPredicatesAndSortingReadManagedObjects() throws {
        let stand = try ManagedObject(entityName: "Stand", in: Self.model)
        try stand.setValue("Corner", forKey: "name")
        var crates: [ManagedObject] = []
        for capacity in [30, 10, 20] {
            let crate = try ManagedObject(entityName: "Crate", in: Self.model)
            try crate.setValue(capacity, forKey: "capacity")
            try crate.setValue(stand, forKey: "stand")
            crates.append(crate)
        }
        try stand.setValue(Set(crates), forKey: "crates")
        #expect(try crates[0].value(forKeyPath: "stand.name") as? String == "Corner")
        #expect(try stand.value(forKeyPath: "crates.@sum.capacity") as? Int == 60)
        let big = try crates.filtered(using: KeyValuePredicate(format: "capacity >= 20 AND stand.name == 'Corner'"))
        #expect(big.count == 2)
        let sorted = try crates.sorted(using: [KeyValueSortDescriptor(key: "capacity")])
        #expect(try sorted.map { try $0.value(forKey: "capacity") as? Int16 } == [10, 20, 30])
    }
}
