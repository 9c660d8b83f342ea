import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
@testable import PostgreSQLStore

/// The SQLite store's parity table (TestSupport's `SQLParityTable`) on PostgreSQL: the same
/// data in an in-memory store and in a PostgreSQL store compiling predicates, orders and
/// limits to SQL select the same objects in the same order; where the store says it applied
/// the predicate (or the order and limits) it returned exactly the in-memory answer.
@Suite struct PostgreSQLParityTableTests {
    /// What PostgreSQL's built-ins cannot decide for values beyond ASCII: folding (`[c]`,
    /// `[d]`) and the string operators are compiled only while every value in the column is
    /// ASCII (Docs/PostgreSQLStore.md).
    static let asciiOnlyMarkers = ["[c]", "[d]", "[cd]", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES"]

    /// Patterns beyond ASCII are never compiled on PostgreSQL.
    static let nonASCIIPatterns: Set<String> = ["name CONTAINS '\u{301}'", "name CONTAINS '\u{1F34E}'",
                                                 "name BEGINSWITH '\u{E9}'", "name BEGINSWITH 'a\u{10FFFF}'"]

    /// An in-memory and a PostgreSQL context holding the same objects, and the store;
    /// `ascii` replaces every string by an ASCII one first.
    static func contexts(_ database: TestDatabase, ascii: Bool) throws
        -> (memory: ManagedObjectContext, postgres: ManagedObjectContext, store: PostgreSQLPersistentStore) {
        let model = try SQLParityTable.model()
        let memory = PersistentStoreCoordinator(model: model)
        try memory.addStore(InMemoryStore())
        let postgres = PersistentStoreCoordinator(model: model)
        let store = database.store()
        try postgres.addStore(store)
        for coordinator in [memory, postgres] {
            let context = ManagedObjectContext(coordinator: coordinator)
            try SQLParityTable.stock(context)
            if ascii { try asciiStrings(context) }
            try context.save()
        }
        return (ManagedObjectContext(coordinator: memory), ManagedObjectContext(coordinator: postgres), store)
    }

    /// Replaces every string of the stock by ASCII ones (with tabs, line feeds, wildcards).
    static func asciiStrings(_ context: ManagedObjectContext) throws {
        let names: [String?] = [nil, "apple", "Apple", "APPLE", "eclair", "Eclair", "banana", "", "Kiwi", "kiwi", "STRASSE",
                                "strasse", "a*b", "a?c", "a%c", "a_c", "pear", "z", "istanbul", "a\\b", "tab\there", "line\nfeed", "E"]
        let labels: [String?] = ["North", "south", nil, "East", "east", "West", "sweet", "Sour", "SWEET", "organic", "local", "LOCAL", "x", "Ann", "bob"]
        for entity in ["Fruit", "Stand", "Owner", "Tag"] {
            let key = entity == "Fruit" || entity == "Owner" ? "name" : "label"
            let objects = try context.fetch(EntityFetchRequest(entityName: entity, sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
            for (index, object) in objects.enumerated() {
                let list = entity == "Fruit" ? names : labels
                try object.setValue(list[(index * 7 + (entity == "Owner" ? 13 : 0)) % list.count], forKey: key)
            }
        }
    }

    static func serials(_ context: ManagedObjectContext, _ request: EntityFetchRequest) -> [Int64]? {
        try? context.fetch(request).map { ($0.stored("serial") as? Int64) ?? -1 }
    }

    /// The serials of a store result's rows.
    static func serials(_ result: StoreFetchResult) -> [Int64] {
        result.rows.map { row in
            if case .integer(let serial)? = row.attributes["serial"] { return serial }
            return -1
        }
    }

    /// Runs the table; `expected` says which predicates must be applied in SQL.
    static func check(ascii: Bool, expected: (String, Bool) -> Bool) throws {
        try TestDatabase.run { database in
            let (memory, postgres, store) = try contexts(database, ascii: ascii)
            let order = [KeyValueSortDescriptor(key: "serial")]
            var applied = 0
            for (format, compilesOnSQLite) in SQLParityTable.predicates {
                let predicate = try KeyValuePredicate(format: format)
                let request = EntityFetchRequest(entityName: "Fruit", predicate: predicate, sortDescriptors: order)
                let wanted = serials(memory, request)
                #expect(serials(postgres, request) == wanted, "\(format)")
                guard let wanted else { continue }
                let storeRequest = StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate)
                let result = try store.fetch(storeRequest)
                let found = Set(serials(result))
                if result.appliedPredicate {
                    #expect(found == Set(wanted), "\(format): applied, but \(found.subtracting(wanted).sorted()) extra, \(Set(wanted).subtracting(found).sorted()) missing")
                } else {
                    #expect(found.isSuperset(of: wanted), "\(format): \(Set(wanted).subtracting(found).sorted()) missing")
                }
                let inSQL = try store.sqlDecides(storeRequest).predicate
                if inSQL { applied += 1 }
                #expect(inSQL == expected(format, compilesOnSQLite), "\(format) decided in SQL: \(inSQL)")
                // Counts and IDs decided in SQL are the in-memory answer too.
                let count = try store.fetch(StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate, resultType: .count))
                if let number = count.count, count.appliedPredicate { #expect(number == wanted.count, "\(format) count") }
                var limited = StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate, sortDescriptors: order,
                                                fetchOffset: 2, fetchLimit: 5, resultType: .objectIDs)
                let ids = try store.fetch(limited)
                if ids.appliedPredicate, ids.appliedOrderAndLimits {
                    limited.resultType = .rows
                    let rows = try store.fetch(limited)
                    #expect(rows.appliedOrderAndLimits, "\(format)")
                    #expect(serials(rows) == Array(wanted.dropFirst(2).prefix(5)), "\(format) offset and limit")
                    #expect(ids.rows.map(\.objectID) + ids.objectIDs == rows.rows.map(\.objectID), "\(format) IDs")
                }
            }
            #expect(applied > 60, "only \(applied) predicates applied in SQL")
        }
    }

    @Test func everyPredicateSelectsTheSameObjects() throws {
        try Self.check(ascii: false) { format, compiles in
            // An empty pattern matches nothing, whatever the data.
            compiles && (!Self.asciiOnlyMarkers.contains { format.contains($0) } || format == "name BEGINSWITH ''")
        }
    }

    @Test func stringOperatorsCompileOnASCIIData() throws {
        try Self.check(ascii: true) { format, compiles in
            compiles && !Self.nonASCIIPatterns.contains(format)
        }
    }

    @Test func ordersOffsetsAndLimitsMatch() throws {
        try TestDatabase.run { database in
            let (memory, postgres, store) = try Self.contexts(database, ascii: false)
            let orders: [[KeyValueSortDescriptor]] = [
                [KeyValueSortDescriptor(key: "name")], [KeyValueSortDescriptor(key: "name", ascending: false)],
                [KeyValueSortDescriptor(key: "name", comparison: .caseInsensitiveCompare), KeyValueSortDescriptor(key: "serial")],
                [KeyValueSortDescriptor(key: "weight")], [KeyValueSortDescriptor(key: "weight", ascending: false)],
                [KeyValueSortDescriptor(key: "count"), KeyValueSortDescriptor(key: "picked", ascending: false)],
                [KeyValueSortDescriptor(key: "ripe", ascending: false), KeyValueSortDescriptor(key: "small")],
                [KeyValueSortDescriptor(key: "stand.label")], [KeyValueSortDescriptor(key: "price")],
                [KeyValueSortDescriptor(key: "name", comparison: .localizedStandardCompare)],
            ]
            for descriptors in orders {
                for (offset, limit) in [(0, 0), (0, 7), (5, 10), (55, 10), (3, 0)] {
                    // Ties keep the stores' row orders, which differ: the serial breaks them.
                    var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "serial != 4"),
                                                     sortDescriptors: descriptors + [KeyValueSortDescriptor(key: "serial")])
                    request.fetchOffset = offset
                    request.fetchLimit = limit
                    #expect(Self.serials(postgres, request) == Self.serials(memory, request), "\(descriptors) \(offset) \(limit)")
                }
                let sorted = descriptors + [KeyValueSortDescriptor(key: "serial")]
                let storeRequest = StoreFetchRequest(entityNames: ["Fruit"], sortDescriptors: sorted, fetchOffset: 4, fetchLimit: 9)
                let result = try store.fetch(storeRequest)
                let compiled = !descriptors.contains { $0.key == "price" || $0.comparison != .compare }
                #expect(try store.sqlDecides(storeRequest).orderAndLimits == compiled, "\(descriptors)")
                if result.appliedOrderAndLimits {
                    let all = try #require(Self.serials(memory, EntityFetchRequest(entityName: "Fruit", sortDescriptors: sorted)))
                    #expect(Self.serials(result) == Array(all.dropFirst(4).prefix(9)), "\(descriptors)")
                }
            }
        }
    }

    @Test func unsavedChangesAreMergedAsInMemory() throws {
        try TestDatabase.run { database in
            let (memory, postgres, _) = try Self.contexts(database, ascii: true)
            for context in [memory, postgres] {
                let all = try context.fetch(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
                try all[1].setValue("apple pie", forKey: "name")
                try all[2].setValue("zzz", forKey: "name")
                try all[3].setValue(Int64(100), forKey: "count")
                context.delete(all[4])
                let added = try context.insertNewObject(forEntityNamed: "Fruit")
                try added.setValue(Int64(1000), forKey: "serial")
                try added.setValue("avocado", forKey: "name")
            }
            for format in ["name BEGINSWITH 'a'", "count > 50", "TRUEPREDICATE", "ANY tags.label == 'sweet'", "weight > 1"] {
                for includesPending in [true, false] {
                    var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: format),
                                                     sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
                    request.includesPendingChanges = includesPending
                    request.fetchLimit = 20
                    #expect(Self.serials(postgres, request) == Self.serials(memory, request), "\(format) \(includesPending)")
                }
            }
        }
    }

    @Test func aValueBeyondASCIIStopsTheStringOperatorsCompiling() throws {
        try TestDatabase.run { database in
            let (memory, postgres, store) = try Self.contexts(database, ascii: true)
            let predicate = try KeyValuePredicate(format: "name BEGINSWITH[c] 'k'")
            let storeRequest = StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate)
            #expect(try store.sqlDecides(storeRequest).predicate)
            for context in [memory, postgres] {
                let fruit = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "serial == 3")))
                try #require(fruit.first).setValue("\u{212A}elvin", forKey: "name")   // the Kelvin sign folds to k
                try context.save()
            }
            #expect(try !store.sqlDecides(storeRequest).predicate)
            let request = EntityFetchRequest(entityName: "Fruit", predicate: predicate, sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
            #expect(Self.serials(postgres, request) == Self.serials(memory, request))
            #expect(Self.serials(postgres, request)?.contains(3) == true)
        }
    }
}
