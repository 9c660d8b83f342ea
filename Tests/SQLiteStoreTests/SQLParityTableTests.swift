import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// The same data in an in-memory store and in an SQLite store compiling predicates to SQL:
/// every predicate of the table (and every order, offset and limit) fetches the same objects
/// in the same order through a context, with and without unsaved changes.
@Suite struct SQLParityTableTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", properties: [
                .attribute("serial", .integer64), .attribute("count", .integer64), .attribute("small", .integer16),
                .attribute("weight", .double), .attribute("price", .decimal), .attribute("ripe", .boolean),
                .attribute("name", .string), .attribute("picked", .date), .attribute("code", .uuid),
                .toOne("stand", "Stand", inverse: "fruits"),
                .toMany("tags", "Tag", inverse: "fruits"),
            ]),
            EntityDescription(name: "Stand", properties: [
                .attribute("serial", .integer64), .attribute("label", .string), .attribute("rank", .integer32),
                .toMany("fruits", "Fruit", inverse: "stand"),
                .toOne("owner", "Owner", inverse: "stands"),
            ]),
            EntityDescription(name: "Owner", properties: [
                .attribute("serial", .integer64), .attribute("name", .string),
                .toMany("stands", "Stand", inverse: "owner"),
            ]),
            EntityDescription(name: "Tag", properties: [
                .attribute("serial", .integer64), .attribute("label", .string), .attribute("weight", .double),
                .toMany("fruits", "Fruit", inverse: "tags"),
            ]),
        ])
    }

    static let names: [String?] = [nil, "apple", "Apple", "APPLE", "\u{E9}clair", "e\u{301}clair", "Eclair", "banana", "",
                                    "\u{212A}iwi", "kiwi", "Stra\u{DF}e", "STRASSE", "na\u{EF}ve", "\u{1F34E} red", "a*b", "a?c",
                                    "pe\u{301}ar", "z", "\u{130}stanbul", "istanbul"]
    static let weights: [Double?] = [nil, 0.5, 2, -3, .nan, 2.0, 1e300, -0.0, 0, 7.25]
    static let prices: [Decimal?] = [nil, Decimal(string: "10.11"), 2, Decimal(string: "0.1"), -5]
    static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let code = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    /// Fills a context: 3 owners, 6 stands, 8 tags, 60 fruit with every kind of value.
    static func stock(_ context: ManagedObjectContext) throws {
        var owners: [ManagedObject] = []
        for index in 0..<3 {
            let owner = try context.insertNewObject(forEntityNamed: "Owner")
            try owner.setValue(Int64(index), forKey: "serial")
            try owner.setValue(["Ann", "b\u{F6}b", nil][index], forKey: "name")
            owners.append(owner)
        }
        var stands: [ManagedObject] = []
        for index in 0..<6 {
            let stand = try context.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue(Int64(index), forKey: "serial")
            try stand.setValue(["North", "south", nil, "\u{C9}ast", "east", "West"][index], forKey: "label")
            try stand.setValue(index == 2 ? nil : Int32(index % 3), forKey: "rank")
            try stand.setValue(index < 5 ? owners[index % 3] : nil, forKey: "owner")
            stands.append(stand)
        }
        var tags: [ManagedObject] = []
        for index in 0..<8 {
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            try tag.setValue(Int64(index), forKey: "serial")
            try tag.setValue(["sweet", "Sour", nil, "sw\u{E9}et", "organic", "local", "LOCAL", "x"][index], forKey: "label")
            try tag.setValue(index == 3 ? Double.nan : Double(index) * 1.5, forKey: "weight")
            tags.append(tag)
        }
        for index in 0..<60 {
            let fruit = try context.insertNewObject(forEntityNamed: "Fruit")
            try fruit.setValue(Int64(index), forKey: "serial")
            try fruit.setValue(index % 9 == 0 ? nil : Int64(index % 13 - 6), forKey: "count")
            try fruit.setValue(index % 11 == 0 ? nil : Int16(index % 4), forKey: "small")
            try fruit.setValue(weights[index % weights.count], forKey: "weight")
            try fruit.setValue(prices[index % prices.count], forKey: "price")
            try fruit.setValue(index % 7 == 0 ? nil : index % 2 == 0, forKey: "ripe")
            try fruit.setValue(names[index % names.count], forKey: "name")
            try fruit.setValue(index % 8 == 0 ? nil : reference.addingTimeInterval(Double(index % 10 - 5) * 3600), forKey: "picked")
            try fruit.setValue(index % 6 == 0 ? code : (index % 6 == 1 ? nil : UUID()), forKey: "code")
            try fruit.setValue(index % 10 == 9 ? nil : stands[index % stands.count], forKey: "stand")
            let tagged = (0..<8).filter { (index + $0) % 5 == 0 || (index * $0) % 7 == 3 }
            try fruit.setValue(Set(tagged.map { tags[$0] }), forKey: "tags")
        }
    }

    /// Predicates on Fruit. Those marked `true` must compile to SQL exactly.
    static let table: [(String, Bool)] = [
        // numbers, across integer, double and Boolean constants; nil; NaN
        ("count == 3", true), ("count != 3", true), ("count < 0", true), ("count >= -2.5", true), ("3 > count", true),
        ("count == nil", true), ("count != nil", true), ("count IN {1, 2, -6}", true), ("count BETWEEN {-1, 1.5}", true),
        ("small == 2", true), ("small > 1.5", true), ("small == YES", true),
        ("weight > 1", true), ("weight < 1", true), ("weight == 2", true), ("weight != 2", true), ("weight <= 0", true),
        ("weight == nil", true), ("weight != nil", true), ("weight >= -0.0", true), ("weight IN {0.5, 7.25}", true),
        ("weight BETWEEN {0, 3}", true), ("NOT (weight > 1)", true), ("weight > 1e299", true),
        ("price > 1", false), ("price == 10.11", false), ("price == nil", true),
        ("ripe == YES", true), ("ripe == NO", true), ("ripe != YES", true), ("ripe == nil", true), ("ripe == 1", true),
        // strings: Unicode, canonical equivalence, case and diacritic folding
        ("name == 'apple'", true), ("name != 'apple'", true), ("name == '\u{E9}clair'", true), ("name < 'b'", true),
        ("name >= 'Apple'", true), ("name == ''", true), ("name == nil", true),
        ("name ==[c] 'apple'", true), ("name ==[d] 'eclair'", true), ("name ==[cd] 'ECLAIR'", true),
        ("name ==[c] 'strasse'", true), ("name ==[c] 'kiwi'", true), ("name ==[c] 'istanbul'", true),
        ("name !=[c] 'apple'", true), ("name <[c] 'b'", true), ("name >=[cd] 'e'", true),
        ("name BEGINSWITH 'a'", true), ("name BEGINSWITH[c] 'a'", true), ("name BEGINSWITH 'e'", true),
        ("name BEGINSWITH[d] 'e'", true), ("name BEGINSWITH ''", true), ("name ENDSWITH 'clair'", true),
        ("name ENDSWITH[cd] 'E'", true), ("name CONTAINS 'a'", true), ("name CONTAINS[c] 'SS'", true),
        ("name CONTAINS '\u{301}'", true), ("name CONTAINS '\u{1F34E}'", true), ("name LIKE 'a*'", true),
        ("name LIKE[c] 'a?ple'", true), ("name LIKE 'a\\\\*b'", true), ("name LIKE '*'", true),
        ("name MATCHES '[a-z]+'", false), ("name MATCHES[c] 'a.*'", false), ("name IN {'apple', 'kiwi'}", true),
        ("name IN[c] {'APPLE', 'KIWI'}", true), ("name BETWEEN {'a', 'c'}", true),
        ("NOT (name BEGINSWITH[cd] 'e')", true), ("name BEGINSWITH 'a' OR name ENDSWITH 'e'", true),
        // dates and UUIDs
        ("picked > CAST(700000000, 'NSDate')", true), ("picked == nil", true),
        ("picked BETWEEN {CAST(699990000, 'NSDate'), CAST(700003600, 'NSDate')}", true),
        // key paths through to-ones
        ("stand.label == 'North'", true), ("stand.label ==[cd] 'east'", true), ("stand.label == nil", true),
        ("stand.rank > 0", true), ("stand.owner.name BEGINSWITH[c] 'b'", true), ("stand.owner.name == nil", true),
        ("stand == nil", true), ("stand != nil", true), ("stand.owner == nil", true),
        // to-many: ANY, ALL, NONE, @count, aggregates, SUBQUERY
        ("ANY tags.label == 'sweet'", true), ("ANY tags.label ==[cd] 'SWEET'", true), ("ALL tags.weight > 1", true),
        ("NONE tags.label BEGINSWITH 'l'", true), ("ALL tags.label ==[c] 'local'", true), ("ANY tags.weight > 5", true), ("ALL tags.label != nil", true),
        ("tags.@count == 0", true), ("tags.@count > 2", true), ("tags.@count BETWEEN {1, 2}", true),
        ("tags.@max.weight > 5", false), ("tags.@sum.serial > 10", true), ("tags.@avg.serial >= 3", true),
        ("tags.@min.serial == 0", true), ("tags.@max.serial < 4", true),
        ("SUBQUERY(tags, $t, $t.weight > 3).@count > 0", true),
        ("SUBQUERY(tags, $t, $t.label BEGINSWITH[c] 's' AND $t.weight < 5).@count == 1", true),
        ("stand.fruits.@count > 9", true), ("ANY stand.fruits.name == 'kiwi'", false), ("ANY tags.label == nil", true), ("ANY tags.fruits.serial == 3", false),
        // compounds, constants
        ("count > 0 AND (name BEGINSWITH[c] 'a' OR ANY tags.label == 'local')", true),
        ("NOT (count > 0 AND stand.label == 'North')", true), ("TRUEPREDICATE", true), ("FALSEPREDICATE", true),
        ("count > 0 AND name MATCHES 'a.*'", false), ("name == stand.label", true),
        ("count < small", true), ("count == small", true), ("count != small", true), ("NOT (count >= small)", true),
        ("stand.label == stand.owner.name", true), ("picked < picked", true), ("weight > count", false), ("name ==[c] stand.label", false),
    ]

    /// An in-memory and an SQLite context holding the same objects.
    static func contexts(_ directory: TemporaryDirectory) throws -> (memory: ManagedObjectContext, sqlite: ManagedObjectContext,
                                                                    store: SQLitePersistentStore) {
        let model = try model()
        let memory = PersistentStoreCoordinator(model: model)
        try memory.addStore(InMemoryStore())
        let sqlite = PersistentStoreCoordinator(model: model)
        let store = SQLitePersistentStore(url: directory.file("Parity.sqlite"))
        try sqlite.addStore(store)
        for coordinator in [memory, sqlite] {
            let context = ManagedObjectContext(coordinator: coordinator)
            try stock(context)
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
            // A to-one before a to-many may be nil: ANY of nil throws, on both stores.
            #expect((expected == nil) == (format == "ANY stand.fruits.name == 'kiwi'"), "\(format) throws in memory")
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
