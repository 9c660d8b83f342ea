import Foundation
import Testing
import Predicates
@testable import ManagedObjects

/// The rows a save hands the in-memory store for new objects of an attribute-only entity whose
/// values are all of their attributes' exact types: built in place with `StoreRow`'s memberwise
/// initialiser (`appendExactValuesRow(of:plan:to:)`), they must be the rows the declared
/// initialisers made.
@Suite struct NewObjectRowTests {
    private static func stack() throws -> (ManagedObjectContext, InMemoryStore) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Reading", properties: [
                .attribute("label", .string), .attribute("count", .integer64), .attribute("level", .double),
                .attribute("taken", .date), .attribute("valid", .boolean), .attribute("note", .string),
            ]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = InMemoryStore()
        try coordinator.addStore(store)
        return (ManagedObjectContext(coordinator: coordinator), store)
    }

    @Test func aNewObjectsRowHoldsItsValuesAtVersionOne() throws {
        let (context, store) = try Self.stack()
        let taken = Date(timeIntervalSinceReferenceDate: 1_000)
        // Each reading's values by key ("note" left nil).
        let values: [[(String, Any)]] = (0..<3).map { index in
            [("label", "r\(index)"), ("count", Int64(index)), ("level", Double(index) / 2), ("taken", taken), ("valid", index == 1)]
        }
        let readings = try values.map { pairs in
            let reading = try context.insertNewObject(forEntityNamed: "Reading")
            for (key, value) in pairs { try reading.setValue(value, forKey: key) }
            return reading
        }
        try context.save()
        for (index, reading) in readings.enumerated() {
            let row = try #require(try store.row(for: reading.objectID))
            #expect(row.objectID == reading.objectID)
            #expect(row.version == 1)
            #expect(row.relationships.isEmpty)
            #expect(row.columns != nil, "a packed row")
            #expect(row.attributes == ["label": .string("r\(index)"), "count": .integer(Int64(index)),
                                       "level": .double(Double(index) / 2), "taken": .date(taken),
                                       "valid": .bool(index == 1)])
            #expect(row.attributeValue(named: "note") == nil)
            // The coordinator's row cache holds the same row.
            let cached = try #require(context.coordinator?.rowCache.row(for: reading.objectID, maximumAge: -1))
            #expect(cached == row)
        }
        // Another context reads the objects back from the rows.
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let fetched = try other.fetch(EntityFetchRequest(entityName: "Reading"))
        #expect(Set(try fetched.map { try #require($0.value(forKey: "label") as? String) }) == ["r0", "r1", "r2"])
    }

    @Test func theDeclaredInitialisersStillMakeTheirRows() throws {
        let id = ManagedObjectID(entityName: "Reading", storeIdentifier: "S", primaryKey: 7)
        let plain = StoreRow(objectID: id, version: 3, attributes: ["label": .string("x")])
        #expect(plain.columns == nil)
        #expect(plain.attributes == ["label": .string("x")])
        #expect(plain.relationships.isEmpty && plain.version == 3)
        let related = StoreRow(objectID: id, version: 1, relationships: ["owner": [id]])
        #expect(related.relationships == ["owner": [id]] && related.attributes.isEmpty)
    }
}
