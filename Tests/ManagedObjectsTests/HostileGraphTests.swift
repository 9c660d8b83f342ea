import Foundation
import Testing
import KeyValueCoding
@testable import ManagedObjects

/// What the hostile trial found: each case a thrown error or a correct result, never a crash
/// or a quietly wrong graph.
@Suite struct HostileGraphTests {
    static func chainModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Node", properties: [
                .attribute("when", .date),
                .toOne("next", "Node", inverse: "previous", deleteRule: .cascade),
                .toOne("previous", "Node", inverse: "next"),
                .toMany("ordered", "Node", inverse: nil, ordered: true),
            ]),
            EntityDescription(name: "Other"),
        ])
    }

    @Test func aLongCascadeChainDeletesWithoutRecursion() throws {
        let context = ManagedObjectContext(model: try Self.chainModel())
        var previous: ManagedObject?
        var head: ManagedObject?
        for _ in 0..<20_000 {
            let node = try context.insertNewObject(forEntityNamed: "Node")
            if let previous { try previous.setValue(node, forKey: "next") } else { head = node }
            previous = node
        }
        context.commitChanges()
        context.delete(try #require(head))
        #expect(context.deletedObjects.count == 20_000)
    }

    @Test func relationshipsRefuseObjectsOfOtherEntitiesAndContexts() throws {
        let model = try Self.chainModel()
        let context = ManagedObjectContext(model: model)
        let node = try context.insertNewObject(forEntityNamed: "Node")
        let other = try context.insertNewObject(forEntityNamed: "Other")
        #expect(throws: KeyValueCodingError.self) { try node.setValue(other, forKey: "next") }
        #expect(throws: KeyValueCodingError.self) { try node.setValue([other], forKey: "ordered") }
        let elsewhere = try ManagedObjectContext(model: model).insertNewObject(forEntityNamed: "Node")
        #expect(throws: KeyValueCodingError.self) { try node.setValue(elsewhere, forKey: "next") }
        let detached = try ManagedObject(entityName: "Node", in: model)
        #expect(throws: KeyValueCodingError.self) { try node.setValue(detached, forKey: "next") }
        #expect(try node.value(forKey: "next") == nil)
    }

    @Test func orderedRelationshipsRefuseRepeats() throws {
        let context = ManagedObjectContext(model: try Self.chainModel())
        let node = try context.insertNewObject(forEntityNamed: "Node")
        let a = try context.insertNewObject(forEntityNamed: "Node")
        let b = try context.insertNewObject(forEntityNamed: "Node")
        #expect(throws: KeyValueCodingError.self) { try node.setValue([a, b, a], forKey: "ordered") }
        try node.setValue([a, b], forKey: "ordered")
        #expect((try node.value(forKey: "ordered") as? [ManagedObject])?.count == 2)
    }

    @Test func aDateThatIsNotANumberIsRefused() throws {
        let context = ManagedObjectContext(model: try Self.chainModel())
        let node = try context.insertNewObject(forEntityNamed: "Node")
        #expect(throws: KeyValueCodingError.self) {
            try node.setValue(Date(timeIntervalSinceReferenceDate: .nan), forKey: "when")
        }
        #expect(throws: KeyValueCodingError.self) {
            try node.setValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "when")
        }
        #expect(!node.description.isEmpty)
    }
}

@Suite struct PrintableDateTests {
    @Test func datesThatAreNotNumbersPrint() throws {
        let model = try HostileGraphTests.chainModel()
        let node = try ManagedObject(entityName: "Node", in: model)
        try node.setPrimitiveValue(Date(timeIntervalSinceReferenceDate: .nan), forKey: "when")
        #expect(node.description.contains("nan"))
        let error = ManagedObjectValidationError(.invalidDate, entity: "Node", key: "when",
                                                 value: .date(Date(timeIntervalSinceReferenceDate: .nan)))
        #expect(error.description.contains("nan"))
    }
}

@Suite struct NameAndForeignObjectTests {
    @Test(arguments: ["", "two words", "a.b", "@count", "tab\there"])
    func namesThatCannotBeKeysAreRefused(name: String) {
        #expect(throws: ManagedObjectModelError.self) {
            try ManagedObjectModel(entities: [EntityDescription(name: "E", properties: [.attribute(name, .string)])])
        }
        #expect(throws: ManagedObjectModelError.self) { try ManagedObjectModel(entities: [EntityDescription(name: name)]) }
    }

    @Test func aSaveRefusesObjectsRelatedAcrossContexts() throws {
        let model = try TypedFixtures.model()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let crate = try first.insertNewObject(TypedCrate.self)
        let stand = try second.insertNewObject(TypedStand.self)
        stand.name = "Corner"
        crate.stand = stand                    // a typed set cannot throw: the save says it
        let error = try #require(throws: ManagedObjectValidationError.self) { try first.save() }
        #expect(error.errors.contains { $0.key == "stand" && ($0.reason ?? "").contains("another context") })
    }
}
