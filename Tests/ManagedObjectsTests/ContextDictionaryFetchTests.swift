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

    /// The message of the error a dictionary fetch throws, or `nil` when it throws none.
    static func refusal(_ context: ManagedObjectContext, _ request: EntityFetchRequest) -> String? {
        do {
            _ = try context.fetchDictionaries(request)
            return nil
        } catch let error as ManagedObjectContextError {
            guard case .invalidDictionaryFetch = error else { return "unexpected \(error)" }
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    static func grouped(having: String? = nil) throws -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Fruit")
        request.resultType = .dictionaries
        request.propertiesToGroupBy = ["crate.label"]
        request.propertiesToFetch = ["crate.label", .expression(ExpressionDescription(name: "n", expression: .function(.count, [.keyPath("radius")])))]
        request.havingPredicate = try having.map { try KeyValuePredicate(format: $0) }
        return request
    }

    @Test func havingReadingAnUnknownOrUnfetchedNameIsRefusedNamingIt() throws {
        let context = try Self.context()
        let unknown = Self.refusal(context, try Self.grouped(having: "nosuch > 1"))
        #expect(unknown?.contains("'nosuch'") == true, "\(unknown ?? "no error")")
        // radius is a property, but the groups' dictionaries do not hold it.
        let unfetched = Self.refusal(context, try Self.grouped(having: "radius > 1"))
        #expect(unfetched?.contains("havingPredicate reads 'radius'") == true, "\(unfetched ?? "no error")")
        // The fetched names are what it may read; a fetched key path is read by key path
        // (its first key), so it cannot be compared: refused with a hint.
        #expect(try context.fetchDictionaries(try Self.grouped(having: "n > 2")).count == 1)
        let dotted = Self.refusal(context, try Self.grouped(having: "crate.label == 'A'"))
        #expect(dotted?.contains("expression description with a plain name") == true, "\(dotted ?? "no error")")
        // The way the hint gives: the key path fetched and grouped as a named expression.
        var named = try Self.grouped(having: "label == 'A' AND n > 2")
        let label = PropertyToFetch.expression(ExpressionDescription(name: "label", expression: .keyPath("crate.label")))
        named.propertiesToGroupBy = [label]
        named.propertiesToFetch[0] = label
        #expect(try context.fetchDictionaries(named).map { $0["label"] as? String } == ["A"])
    }

    @Test func unknownKeysAreRefusedBeforeAnyObjectIsRead() throws {
        let context = try Self.context()
        var request = try Self.grouped()
        request.predicate = try KeyValuePredicate(format: "radius > 1000")   // matches nothing
        request.propertiesToGroupBy = ["crate.nosuch"]
        request.propertiesToFetch = ["crate.nosuch"]
        #expect(Self.refusal(context, request)?.contains("the entity 'Crate' has no property 'nosuch'") == true)
        request = try Self.grouped()
        request.predicate = try KeyValuePredicate(format: "radius > 1000")
        request.propertiesToFetch.append(.expression(ExpressionDescription(name: "s", expression: .function(.sum, [.keyPath("weight")]))))
        #expect(Self.refusal(context, request)?.contains("the entity 'Fruit' has no property 'weight'") == true)
    }

    @Test func anExpressionNamedLikeAFetchedKeyIsRefused() throws {
        let context = try Self.context()
        var request = try Self.grouped()
        request.propertiesToFetch.append(.expression(ExpressionDescription(name: "crate.label", expression: .function(.sum, [.keyPath("radius")]))))
        #expect(Self.refusal(context, request)?.contains("two entries of propertiesToFetch are named 'crate.label'") == true)
        // The same entry twice is one column.
        request = try Self.grouped()
        request.propertiesToFetch.append("crate.label")
        #expect(try context.fetchDictionaries(request).count == 2)
    }
}
