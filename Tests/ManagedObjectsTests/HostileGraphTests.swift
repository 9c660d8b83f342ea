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
