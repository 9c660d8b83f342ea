import Foundation
import Testing
import KeyValueCoding
import Predicates
@testable import ManagedObjects

/// The in-memory store tests its rows with the predicate compiled against its columns; the
/// rows it selects are exactly the objects that `evaluate(with:)` accepts (Apple: a fetch's
/// predicate gives the same objects in the store as over the objects in memory): nil rules,
/// `[c]`, `[d]`, `[cd]`, Unicode, numbers of mixed types, NaN, `IN`, `BETWEEN`, the string
/// operators, and the parts it leaves to the general evaluator.
@Suite struct ColumnPredicateParityTests {
    static let names: [String?] = [
        "alice", "Alice", "ALICE", nil, "", "café", "cafe\u{301}", "Café", "Straße", "STRASSE", "ǅemal",
        "naïve", "ﬁle", "a*b", "a?c", "émile", "Émile", "zoë", "😀 smile", "\u{212A}iwi", "Kiwi", "a.b",
    ]
    static let scores: [Double?] = [1.5, nil, .nan, -0.0, 0, 2, 2.5, .infinity, -.infinity, 1e300, 3]

    static func stocked() throws -> (InMemoryStore, [ManagedObject]) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("name", .string), .attribute("note", .string), .attribute("rank", .integer32),
                .attribute("big", .integer64), .attribute("small", .integer16), .attribute("score", .double),
                .attribute("ratio", .float), .attribute("flag", .boolean), .attribute("when", .date),
                .attribute("amount", .decimal),
            ]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        for i in 0..<66 {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(names[i % names.count], forKey: "name")
            try item.setValue(names[(i * 7 + 3) % names.count], forKey: "note")
            if i % 5 != 0 { try item.setValue(Int32(i % 7 - 3), forKey: "rank") }
            try item.setValue(i % 4 == 0 ? Int64.max - Int64(i) : Int64(i * 3 % 11), forKey: "big")
            if i % 6 != 1 { try item.setValue(Int16(i % 3), forKey: "small") }
            try item.setValue(scores[i % scores.count], forKey: "score")
            if i % 4 != 2 { try item.setValue(Float(i % 5) / 2, forKey: "ratio") }
            if i % 3 != 2 { try item.setValue(i % 2 == 0, forKey: "flag") }
            if i % 8 != 7 { try item.setValue(Date(timeIntervalSinceReferenceDate: Double(i % 9) * 100), forKey: "when") }
            if i % 5 != 4 { try item.setValue(Decimal(i % 6) / 4, forKey: "amount") }
        }
        try context.save()
        return (store, try context.fetch(EntityFetchRequest(entityName: "Item")))
    }

    static let formats: [String] = [
        // Numbers of every type against integers, doubles, Booleans and nil.
        "rank > 0", "rank >= -1 AND rank < 2", "rank == nil", "rank != nil", "rank != 1", "rank == 1.0",
        "rank < 1.5", "big > 5", "big == 9223372036854775807", "big > 9.2e18", "small == YES", "small == 2",
        "score > 1", "score == nil", "score != nil", "score < 2.5", "score == 0", "score >= -0.0",
        "score > -1e308", "score != 2", "ratio > 0.5", "ratio == 1", "ratio == 1.5", "flag == YES",
        "flag == NO", "flag == 1", "flag != nil", "flag == nil", "amount > 0.5", "amount == 0.25",
        "amount == nil", "when > CAST(300, 'NSDate')", "when == nil", "when <= CAST(0, 'NSDate')",
        "rank IN {1, 2, -3}", "rank IN {1.0, 2.5}", "score IN {1.5, 3}", "rank BETWEEN {-1, 1}",
        "score BETWEEN {0, 2.5}", "NOT (rank BETWEEN {0, 2})", "rank IN {}",
        // Strings: equality, order, the string operators, options, Unicode.
        "name == 'alice'", "name ==[c] 'alice'", "name ==[d] 'cafe'", "name ==[cd] 'CAFE'", "name == 'café'",
        "name != 'alice'", "name == nil", "name != nil", "name == ''", "name < 'b'", "name >= 'Café'",
        "name <[c] 'B'", "name >[cd] 'e'", "name BEGINSWITH 'a'", "name BEGINSWITH[c] 'a'",
        "name BEGINSWITH[d] 'cafe'", "name BEGINSWITH[cd] 'E'", "name BEGINSWITH ''", "name BEGINSWITH 'Ki'",
        "name ENDSWITH 'e'", "name ENDSWITH[c] 'E'", "name ENDSWITH[cd] 'e'", "name CONTAINS 'li'",
        "name CONTAINS[c] 'LI'", "name CONTAINS[cd] 'ss'", "name CONTAINS 'ß'", "name LIKE 'a*'",
        "name LIKE[c] 'A?ICE'", "name LIKE 'a\\\\*b'", "name LIKE[cd] 'cafe'", "name MATCHES 'a.*e'",
        "name MATCHES[c] 'ALI.E'", "name MATCHES[cd] 'cafe'", "name IN {'alice', 'Kiwi', 'zoë'}",
        "name IN[c] {'ALICE', 'kiwi'}", "name IN[cd] {'CAFE', 'emile', 'x', 'y', 'z', 'w', 'v', 'u', 't'}",
        "name BETWEEN {'a', 'c'}", "name == note", "name ==[c] note", "name < note", "name CONTAINS note",
        "rank == small", "rank < big", "score == score", "score > ratio", "amount < rank",
        // Compounds, negation, constants, and parts left to the general evaluator.
        "rank > 0 AND name BEGINSWITH 'a'", "rank > 0 OR name == nil", "NOT name BEGINSWITH[c] 'a'",
        "NOT (rank > 0 OR score < 1)", "(rank > 0 AND score > 1) OR (flag == YES AND name != nil)",
        "rank > 0 AND score > 1 AND flag == YES AND name != nil", "TRUEPREDICATE", "FALSEPREDICATE",
        "rank > 0 AND TRUEPREDICATE", "1 < rank", "'alice' == name", "nil == score", "2 IN {rank, small}",
        "'a' IN name",
        // Mismatched types: these throw for some rows, so the store leaves them to the context.
        "name > 1", "rank BEGINSWITH 'a'",
    ]

    /// The IDs of the objects `predicate.evaluate(with:)` accepts; `nil` when it throws for
    /// any of them (the store must then leave the predicate to the context).
    static func acceptedIDs(of predicate: KeyValuePredicate, _ objects: [ManagedObject]) -> Set<ManagedObjectID>? {
        var accepted: Set<ManagedObjectID> = []
        for object in objects {
            guard let accepts = try? predicate.evaluate(with: object) else { return nil }
            if accepts { accepted.insert(object.objectID) }
        }
        return accepted
    }

    @Test(arguments: 0..<formats.count)
    func storeSelectsWhatTheEvaluatorAccepts(index: Int) throws {
        let format = Self.formats[index]
        let predicate = try KeyValuePredicate(format: format)
        let (store, objects) = try Self.stocked()
        let expected = Self.acceptedIDs(of: predicate, objects)
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: predicate))
        if let expected {
            #expect(result.appliedPredicate, "\(format)")
            #expect(Set(result.rows.map(\.objectID)) == expected, "\(format)")
        } else {
            // A predicate that throws on a row is left to the context, which reports the error.
            #expect(!result.appliedPredicate, "\(format)")
            #expect(result.rows.count == objects.count, "\(format)")
        }
    }

    @Test func theParityTableHoldsBothOutcomes() throws {
        // The table above must exercise rows selected, rows refused and a predicate that throws.
        let (store, objects) = try Self.stocked()
        let some = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: try KeyValuePredicate(format: "name BEGINSWITH[cd] 'e'")))
        #expect(some.appliedPredicate && !some.rows.isEmpty && some.rows.count < objects.count)
        let failing = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: try KeyValuePredicate(format: "name > 1")))
        #expect(!failing.appliedPredicate)
    }
}

/// The compiled form reads a column's slot only for keys that are columns; every other part
/// goes to the fallback, in the order the general evaluator tests the parts.
@Suite struct ColumnTestCompilingTests {
    static var rows: [[String: Any]] {
        [["n": 1, "s": "alpha", "o": ["x": 5]], ["n": 2.5, "s": "Beta"], ["s": "gamma", "o": ["x": 1]], ["n": Double.nan]]
    }
    static var columns: [String: KeyValueReadingColumn] {
        ["n": ContiguousArray(rows.map { KeyValueReading($0["n"]) }),
         "s": ContiguousArray(rows.map { KeyValueReading($0["s"]) })]
    }

    @Test(arguments: ["n > 1", "s BEGINSWITH[c] 'b'", "o.x > 2", "n > 0 OR o.x == 1", "ANY {1, 2} == n",
                      "n == nil AND s != nil", "s MATCHES '.*a'", "NOT (n >= 1 AND o.x > 3)", "n < n"])
    func compiledColumnTestMatchesEvaluation(format: String) throws {
        let predicate = try KeyValuePredicate(format: format)
        let rows = Self.rows
        let test = try predicate.compiledColumnTest(column: { Self.columns[$0] }, fallback: { part in
            { position in try part.evaluate(with: rows[position]) }
        })
        for (position, row) in rows.enumerated() {
            #expect(try test(position) == predicate.evaluate(with: row), "\(format) at \(position)")
        }
    }

    @Test(arguments: ["n > 1", "s BEGINSWITH[c] 'b'", "o.x > 2", "n > 0 OR o.x == 1", "ANY {1, 2} == n",
                      "n == nil AND s != nil", "s MATCHES '.*a'", "NOT (n >= 1 AND o.x > 3)", "n < n",
                      "n > 0 OR s CONTAINS 'm' OR s == nil", "NOT n > 1", "TRUEPREDICATE", "FALSEPREDICATE",
                      "n > 0 AND FALSEPREDICATE", "NOT (n > 5 OR s ENDSWITH 'a')"])
    func filteredPositionsAreTheRowsEvaluationAccepts(format: String) throws {
        let predicate = try KeyValuePredicate(format: format)
        let rows = Self.rows
        let positions = try predicate.columnFilteredPositions(count: rows.count, column: { Self.columns[$0] }, fallback: { part in
            { position in try part.evaluate(with: rows[position]) }
        })
        #expect(try positions == rows.indices.filter { try predicate.evaluate(with: rows[$0]) }, "\(format)")
    }

    @Test func filteredPartsReadOnlyTheRowsTheShortCircuitsLeave() throws {
        // The second part of an AND sees the rows the first kept; of an OR, those it refused.
        let rows = Self.rows
        var seen: [String: [Int]] = [:]
        func record(_ part: KeyValuePredicate) -> RowPositionTest {
            { position in
                seen[part.predicateFormat, default: []].append(position)
                return try part.evaluate(with: rows[position])
            }
        }
        _ = try KeyValuePredicate(format: "n >= 1 AND o.x > 2").columnFilteredPositions(
            count: rows.count, column: { Self.columns[$0] }, fallback: record)
        #expect(seen["o.x > 2"] == [0, 1])
        seen = [:]
        _ = try KeyValuePredicate(format: "n >= 1 OR o.x > 2").columnFilteredPositions(
            count: rows.count, column: { Self.columns[$0] }, fallback: record)
        #expect(seen["o.x > 2"] == [2, 3])
    }

    @Test func onlyKeysThatAreColumnsAreReadFromColumns() throws {
        let predicate = try KeyValuePredicate(format: "n > 1 AND o.x > 2 AND s == 'alpha' AND missing == nil")
        var fallbacks: [String] = []
        var asked: [String] = []
        _ = try predicate.compiledColumnTest(column: { key in asked.append(key); return Self.columns[key] }, fallback: { part in
            fallbacks.append(part.predicateFormat)
            return { _ in true }
        })
        #expect(asked == ["n", "s", "missing"])
        #expect(fallbacks == ["o.x > 2", "missing == nil"])
    }
}
