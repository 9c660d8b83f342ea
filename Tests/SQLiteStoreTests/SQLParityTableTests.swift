import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
@testable import SQLiteStore

/// The same data in an in-memory store and in an SQLite store compiling predicates to SQL:
/// every predicate of the table (and every order, offset and limit) fetches the same objects
/// in the same order through a context, with and without unsaved changes.
@Suite struct SQLParityTableTests {
    /// The shared data and predicates (TestSupport's ``SQLParityTable``, also run on PostgreSQL).
    static var table: [(String, Bool)] { SQLParityTable.predicates }
    static func model() throws -> ManagedObjectModel { try SQLParityTable.model() }
    static func stock(_ context: ManagedObjectContext) throws { try SQLParityTable.stock(context) }

    /// An in-memory and an SQLite context holding the same objects.
    static func contexts(_ directory: TemporaryDirectory) throws -> (memory: ManagedObjectContext, sqlite: ManagedObjectContext,
                                                                    store: SQLitePersistentStore) {
        let model = try SQLParityTable.model()
        let memory = PersistentStoreCoordinator(model: model)
        try memory.addStore(InMemoryStore())
        let sqlite = PersistentStoreCoordinator(model: model)
        let store = SQLitePersistentStore(url: directory.file("Parity.sqlite"))
        try sqlite.addStore(store)
        for coordinator in [memory, sqlite] {
            let context = ManagedObjectContext(coordinator: coordinator)
            try SQLParityTable.stock(context)
            try context.save()
        }
        return (ManagedObjectContext(coordinator: memory), ManagedObjectContext(coordinator: sqlite), store)
    }

    /// The serials a request fetches, or `nil` when the fetch throws.
    static func serials(_ context: ManagedObjectContext, _ request: EntityFetchRequest) -> [Int64]? {
        try? context.fetch(request).map { ($0.stored("serial") as? Int64) ?? -1 }
    }

    @Test func everyPredicateSelectsTheSameObjects() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (memory, sqlite, store) = try Self.contexts(directory)
        let order = [KeyValueSortDescriptor(key: "serial")]
        for (format, compiles) in Self.table {
            let predicate = try KeyValuePredicate(format: format)
            let request = EntityFetchRequest(entityName: "Fruit", predicate: predicate, sortDescriptors: order)
            let expected = Self.serials(memory, request)
            #expect(Self.serials(sqlite, request) == expected, "\(format)")
            // None throws (a to-one before a to-many may be nil: a qualifier then goes over no elements).
            #expect(expected != nil, "\(format) throws in memory")
            let result = try store.fetch(StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate))
            #expect(result.appliedPredicate == compiles, "\(format) compiled: \(result.appliedPredicate)")
        }
    }

    @Test func ordersOffsetsAndLimitsMatch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (memory, sqlite, store) = try Self.contexts(directory)
        let orders: [[KeyValueSortDescriptor]] = [
            [KeyValueSortDescriptor(key: "name")], [KeyValueSortDescriptor(key: "name", ascending: false)],
            [KeyValueSortDescriptor(key: "name", comparison: .caseInsensitiveCompare), KeyValueSortDescriptor(key: "serial")],
            [KeyValueSortDescriptor(key: "weight")], [KeyValueSortDescriptor(key: "weight", ascending: false)],
            [KeyValueSortDescriptor(key: "count"), KeyValueSortDescriptor(key: "picked", ascending: false)],
            [KeyValueSortDescriptor(key: "ripe", ascending: false), KeyValueSortDescriptor(key: "small")],
            [KeyValueSortDescriptor(key: "stand.label")], [KeyValueSortDescriptor(key: "price")],
            [KeyValueSortDescriptor(key: "name", comparison: .localizedStandardCompare)], [],
        ]
        for descriptors in orders {
            // Without an order the in-memory store's row order is arbitrary: compare members only.
            guard !descriptors.isEmpty else {
                let request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "serial != 4"))
                #expect(Self.serials(sqlite, request).map(Set.init) == Self.serials(memory, request).map(Set.init))
                continue
            }
            for (offset, limit) in [(0, 0), (0, 7), (5, 10), (55, 10), (3, 0)] {
                // Ties keep the stores' row orders, which differ: the serial breaks them.
                var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "serial != 4"),
                                                 sortDescriptors: descriptors + [KeyValueSortDescriptor(key: "serial")])
                request.fetchOffset = offset
                request.fetchLimit = limit
                #expect(Self.serials(sqlite, request) == Self.serials(memory, request), "\(descriptors) \(offset) \(limit)")
            }
            let result = try store.fetch(StoreFetchRequest(entityNames: ["Fruit"], sortDescriptors: descriptors + [KeyValueSortDescriptor(key: "serial")], fetchLimit: 3))
            let compiled = !descriptors.contains { $0.key == "price" || $0.comparison == .localizedStandardCompare }
            #expect(result.appliedOrderAndLimits == compiled, "\(descriptors)")
        }
    }

    @Test func predicatesOnTheObjectItselfAndOnRelatedObjects() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (memory, sqlite, store) = try Self.contexts(directory)
        let formats = ["SELF IN %@", "NOT (SELF IN %@)", "SELF == %@", "stand IN %@", "ANY tags == %@",
                       "SUBQUERY(tags, $t, $t == %@).@count > 0", "stand.owner == %@"]
        for format in formats {
            var found: [[Int64]?] = []
            for context in [memory, sqlite] {
                let serial = format.hasPrefix("stand IN") || format.hasPrefix("stand.owner") ? "Stand" : (format.contains("tags") ? "Tag" : "Fruit")
                let entity = format.hasPrefix("stand.owner") ? "Owner" : serial
                let objects = try context.fetch(EntityFetchRequest(entityName: entity, predicate: try KeyValuePredicate(format: "serial IN {1, 2, 5}"),
                                                                   sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
                let argument: Any = format.contains("IN %@") ? objects : objects[0]
                let request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: format, argument),
                                                 sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
                found.append(Self.serials(context, request))
                if context === sqlite {
                    let ids = objects.map { KeyValueConstant($0.objectID) }
                    let constant: KeyValueConstant = format.contains("IN %@") ? .array(ids) : ids[0]
                    let forStore = try KeyValuePredicate(format: format, argument).mappingConstants { value in
                        if case .object = value { return constant }
                        if case .array = value { return constant }
                        return value
                    }
                    #expect(try store.fetch(StoreFetchRequest(entityNames: ["Fruit"], predicate: forStore)).appliedPredicate, "\(format)")
                }
            }
            #expect(found[0] != nil && found[0] == found[1], "\(format)")
            #expect(found[0]?.isEmpty == false || format.hasPrefix("NOT") == false, "\(format)")
        }
    }

    @Test func whatSQLCannotExpressFallsBackToMemory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (memory, sqlite, store) = try Self.contexts(directory)
        let block = KeyValuePredicate(block: { object, _ in ((object as? ManagedObject)?.stored("serial") as? Int64 ?? 0) % 3 == 0 })
        let many = KeyValuePredicate(.comparison(KeyValueComparison(.keyPath("count"), .in,
                                                                    .constant(.array((0..<5000).map { KeyValueConstant.integer(Int64($0 % 7)) })))))
        let deep = (0..<400).reduce(try KeyValuePredicate(format: "serial == -1")) { predicate, index in
            KeyValuePredicate(.or([predicate, try! KeyValuePredicate(format: "serial == \(index * 2)")]))
        }
        let wide = KeyValuePredicate(.or((0..<2000).map { try! KeyValuePredicate(format: "name == 'n\($0)' OR serial == \($0 * 3)") }))
        for predicate in [block, many, deep, wide, block && (try KeyValuePredicate(format: "count > 0"))] {
            let request = EntityFetchRequest(entityName: "Fruit", predicate: predicate, sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
            let expected = try #require(Self.serials(memory, request))
            #expect(Self.serials(sqlite, request) == expected)
            let result = try store.fetch(StoreFetchRequest(entityNames: ["Fruit"], predicate: predicate))
            #expect(!result.appliedPredicate)
        }
    }

    @Test func unsavedChangesAreMergedAsInMemory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (memory, sqlite, _) = try Self.contexts(directory)
        for context in [memory, sqlite] {
            let all = try context.fetch(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
            try all[1].setValue("apple pie", forKey: "name")             // now matches BEGINSWITH 'a'
            try all[2].setValue("zzz", forKey: "name")                   // no longer matches
            try all[3].setValue(Int64(100), forKey: "count")
            context.delete(all[4])
            let added = try context.insertNewObject(forEntityNamed: "Fruit")
            try added.setValue(Int64(1000), forKey: "serial")
            try added.setValue("avocado", forKey: "name")
            let stands = try context.fetch(EntityFetchRequest(entityName: "Stand", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
            try stands[1].setValue("Apple stand", forKey: "label")     // changes stand.label for its fruit
        }
        let formats = ["name BEGINSWITH 'a'", "count > 50", "stand.label BEGINSWITH 'A'", "TRUEPREDICATE", "ANY tags.label == 'sweet'"]
        for format in formats {
            for includesPending in [true, false] {
                var request = EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: format),
                                                 sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
                request.includesPendingChanges = includesPending
                request.fetchLimit = 20
                #expect(Self.serials(sqlite, request) == Self.serials(memory, request), "\(format) \(includesPending)")
            }
        }
    }
}
