import Foundation
import Testing
import KeyValueCoding
import Predicates
@testable import ManagedObjects

@Suite struct ContextDictionaryFetchTests {
    static func context() throws -> ManagedObjectContext {
        let (coordinator, _) = try ContextSaveFetchTests.stocked()
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func chosenPropertiesKeyPathsAndRelationshipsAsIDs() throws {
        let context = try Self.context()
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        request.resultType = .dictionaries
        request.propertiesToFetch = ["radius", "crate.label", "crate"]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.count == 5)
        #expect(rows.first?["radius"] as? Double == 1.9)
        #expect(rows.first?["crate.label"] as? String == "O")
        #expect(rows.first?["crate"] is ManagedObjectID)
        let all = try context.fetchDictionaries(EntityFetchRequest(entityName: "Crate"))
        #expect(Set(all.compactMap { $0["label"] as? String }) == ["A", "O"])
        #expect(all.allSatisfy { $0["stand"] == nil }, "every attribute, no relationships")
    }

    @Test func groupsAggregatesAndHaving() throws {
        let context = try Self.context()
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "crate.label")])
        request.propertiesToGroupBy = ["crate.label"]
        request.propertiesToFetch = [
            "crate.label",
            .expression(ExpressionDescription(name: "total", expression: .function(.sum, [.keyPath("radius")]))),
            .expression(ExpressionDescription(name: "n", expression: .function(.count, [.keyPath("radius")]))),
        ]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["crate.label"] as? String } == ["A", "O"])
        #expect(abs(((rows.first?["total"] as? NSNumber)?.doubleValue ?? 0) - 6.6) < 1e-9)
        #expect(rows.map { $0["n"] as? Int } == [3, 2])
        request.havingPredicate = try KeyValuePredicate(format: "n > 2")
        #expect(try context.fetchDictionaries(request).map { $0["crate.label"] as? String } == ["A"])
        request.propertiesToFetch.append("radius")
        #expect(throws: ManagedObjectContextError.self) { try context.fetchDictionaries(request) }
    }

    @Test func aggregatesWithoutGroupingAndDistinct() throws {
        let context = try Self.context()
        var request = EntityFetchRequest(entityName: "Apple")
        request.propertiesToFetch = [.expression(ExpressionDescription(name: "largest", expression: .function(.max, [.keyPath("radius")])))]
        #expect(try context.fetchDictionaries(request).first?["largest"] as? Double == 2.4)
        var labels = EntityFetchRequest(entityName: "Fruit")
        labels.propertiesToFetch = ["crate.label"]
        labels.returnsDistinctResults = true
        #expect(try context.fetchDictionaries(labels).count == 2)
    }
}
