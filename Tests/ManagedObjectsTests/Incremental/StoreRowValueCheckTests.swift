import Foundation
import Testing
import Predicates
@testable import ManagedObjects
import TestSupport

/// A user's store's rows are checked: values of the wrong type, negative versions, several
/// objects on a to-one and objects of another store fail the operation with
/// invalidStoreAnswer naming the object, the key and the value (trial13 T11).
@Suite struct StoreRowValueCheckTests {
    static func id(_ entity: String, _ key: Int64, store: String = StoreAnswerCheckTests.storeID) -> ManagedObjectID {
        StoreAnswerCheckTests.id(entity, key, store: store)
    }

    /// The reason of the invalidStoreAnswer `body` throws, or a text saying what it did instead.
    static func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch let error as ManagedObjectContextError {
            guard case .invalidStoreAnswer(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    static func context(_ rows: [StoreRow]) throws -> ManagedObjectContext {
        var script = ScriptedAnswerStore.Script()
        script.rows = rows
        return try StoreAnswerCheckTests.context(script)
    }

    static func apple(_ attributes: [String: KeyValueConstant], version: Int64 = 1,
                      crate: [ManagedObjectID] = []) -> StoreRow {
        StoreRow(objectID: id("Apple", 1), version: version, attributes: attributes, relationships: ["crate": crate])
    }

    @Test func valuesOfTheWrongTypeAreRefusedNamingTheKeyAndValue() throws {
        let crate = { (value: KeyValueConstant) in StoreRow(objectID: Self.id("Crate", 2), version: 1, attributes: ["capacity": value]) }
        let cases: [(StoreRow, String, [String])] = [
            (Self.apple(["radius": .string("not a number")]), "Apple", ["Apple.radius", "not a number", "double"]),
            (Self.apple(["radius": .array([.string("a")])]), "Apple", ["Apple.radius", "array", "double"]),
            (crate(.unsignedInteger(UInt64.max)), "Crate", ["Crate.capacity", "18446744073709551615", "integer 16"]),
            (crate(.integer(Int64(Int16.max) + 1)), "Crate", ["Crate.capacity", "32768", "integer 16"]),
        ]
        for (row, entity, words) in cases {
            var script = ScriptedAnswerStore.Script()
            script.rows = [row]
            let context = try StoreAnswerCheckTests.context(script, model: try TypedFixtures.model())
            let reason = Self.refusal { _ = try context.fetch(EntityFetchRequest(entityName: entity)) }
            for word in words { #expect(reason.lowercased().contains(word.lowercased()), "\(reason) lacks \(word)") }
        }
        // A name (String) given a number, read by a fault.
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Stand", 2), version: 1, attributes: ["name": .integer(5)])]
        let context = try StoreAnswerCheckTests.context(script)
        let fault = try context.object(with: Self.id("Stand", 2))
        let reason = Self.refusal { try fault.fulfillFault() }
        #expect(reason.contains("Stand.name") && reason.lowercased().contains("string"), "\(reason)")
    }

    @Test func exactNumbersNullsAndMissingValuesStillRead() throws {
        let context = try Self.context([Self.apple(["radius": .integer(3)]),
                                        StoreRow(objectID: Self.id("Crate", 2), version: 1, attributes: ["label": .null])])
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        #expect(try apple.value(forKey: "radius") as? Double == 3)
        let crate = try #require(try context.fetch(EntityFetchRequest(entityName: "Crate")).first)
        #expect(try crate.value(forKey: "label") == nil)
    }

    @Test func negativeVersionsAreRefused() throws {
        let context = try Self.context([Self.apple(["radius": .double(2)], version: -5)])
        let reason = Self.refusal { _ = try context.fetch(EntityFetchRequest(entityName: "Apple")) }
        #expect(reason.contains("negative version -5"), "\(reason)")
    }

    @Test func twoObjectsOnAToOneAreRefused() throws {
        let context = try Self.context([Self.apple(["radius": .double(2)], crate: [Self.id("Crate", 1), Self.id("Crate", 2)])])
        let reason = Self.refusal { _ = try context.fetch(EntityFetchRequest(entityName: "Apple")) }
        #expect(reason.contains("2 objects for the to-one relationship Apple.crate"), "\(reason)")
    }

    @Test func anObjectOfAnotherStoreIsRefused() throws {
        let other = Self.id("Crate", 1, store: "OTHER")
        let context = try Self.context([Self.apple(["radius": .double(2)], crate: [other])])
        let reason = Self.refusal { _ = try context.fetch(EntityFetchRequest(entityName: "Apple")) }
        #expect(reason.contains("an object of another store") && reason.contains("Apple.crate"), "\(reason)")
    }

    @Test func theInMemoryStoresRowsAreTrustedAndUserStoresAreNot() throws {
        let stores: [any PersistentStore] = [InMemoryStore(), ScriptedAnswerStore(.init())]
        #expect(stores.map { $0 is any TrustedRowStore } == [true, false])
    }
}
