import Foundation
import Testing
import TestSupport
import KeyValueCoding
import Predicates
@testable import ManagedObjects

/// The in-memory store answers predicates, order, offset and limit over its rows when they read
/// only the entities' own saved attributes; the context trusts that answer only for objects
/// holding the rows' values, and tests every other object itself (Apple: a fetch's predicate
/// runs in the store for saved objects and in memory for pending changes).
@Suite struct StoreSideFetchTests {
    static func stocked() throws -> (PersistentStoreCoordinator, InMemoryStore, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        return (coordinator, store, context)
    }

    static func radii(_ objects: [ManagedObject]) throws -> [Double?] {
        try objects.map { try $0.value(forKey: "radius") as? Double }
    }

    static func radius(_ row: StoreRow) -> Double? {
        if case .double(let value)? = row.attributes["radius"] { return value }
        return nil
    }

    @Test func storeAppliesAPredicateOnOwnAttributes() throws {
        let (_, store, _) = try Self.stocked()
        let request = StoreFetchRequest(entityNames: ["Apple", "Orange"], predicate: try KeyValuePredicate(format: "radius > 2.1"))
        let result = try store.fetch(request)
        #expect(result.appliedPredicate)
        #expect(Set(result.rows.compactMap(Self.radius)) == [2.4, 2.2, 2.6])
    }

    @Test func storeAppliesOrderOffsetAndLimit() throws {
        let (_, store, _) = try Self.stocked()
        let request = StoreFetchRequest(entityNames: ["Apple", "Orange"], predicate: try KeyValuePredicate(format: "radius >= 2.0"),
                                        sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)],
                                        fetchOffset: 1, fetchLimit: 2)
        let result = try store.fetch(request)
        #expect(result.appliedPredicate && result.appliedOrderAndLimits)
        #expect(result.rows.map(Self.radius) == [2.4, 2.2])
    }

    @Test(arguments: ["crate.label == 'A'", "SELF != nil", "SUBQUERY(crate.fruit, $f, $f.radius > 2).@count > 0", "crate == nil"])
    func storeLeavesOtherPredicatesToTheContext(format: String) throws {
        let (_, store, _) = try Self.stocked()
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: try KeyValuePredicate(format: format)))
        #expect(!result.appliedPredicate, "\(format)")
        #expect(result.rows.count == 3, "every row, for the context to test")
    }

    @Test func storeLeavesAPredicateThatFailsOnARowToTheContext() throws {
        let (_, store, _) = try Self.stocked()
        // A number compared with a string by `<` throws when evaluated.
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: try KeyValuePredicate(format: "radius < 'x'")))
        #expect(!result.appliedPredicate)
        #expect(result.rows.count == 3)
    }

    @Test func unsavedChangesDecideOverTheStoresVerdict() throws {
        let (coordinator, _, _) = try Self.stocked()
        let context = ManagedObjectContext(coordinator: coordinator)
        let apples = try context.fetch(EntityFetchRequest(entityName: "Apple", sortDescriptors: [KeyValueSortDescriptor(key: "radius")]))
        #expect(try Self.radii(apples) == [2.0, 2.2, 2.4])
        // Saved 2.4 matches "radius > 2.3", current 1.0 does not; saved 2.0 does not, current 3.0 does.
        try apples[2].setValue(1.0, forKey: "radius")
        try apples[0].setValue(3.0, forKey: "radius")
        let request = EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius > 2.3"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        #expect(try Self.radii(context.fetch(request)) == [3.0])
        var first = request
        first.fetchLimit = 1
        #expect(try Self.radii(context.fetch(first)) == [3.0])
    }

    @Test func objectsLoadedFromAnOlderRowAreTestedWithTheirOwnValues() throws {
        let (coordinator, _, writer) = try Self.stocked()
        let reader = ManagedObjectContext(coordinator: coordinator)
        let ordered = [KeyValueSortDescriptor(key: "radius")]
        let apples = try reader.fetch(EntityFetchRequest(entityName: "Apple", sortDescriptors: ordered))
        #expect(try Self.radii(apples) == [2.0, 2.2, 2.4])
        // Another context saves 2.0 → 5.0: the row matches "radius > 4" now; the reader's object
        // still holds 2.0 (not refreshed), and its values are what the fetch compares.
        let writerApple = try #require(try writer.fetch(EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius == 2.0"))).first)
        try writerApple.setValue(5.0, forKey: "radius")
        try writer.save()
        #expect(try reader.fetch(EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius > 4"))).isEmpty)
        // With a limit, the store counted the changed row; the reader's answer does not.
        var largest = EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius > 2.1"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)])
        largest.fetchLimit = 1
        #expect(try Self.radii(reader.fetch(largest)) == [2.4])
    }

    @Test func insertedObjectsCountAgainstOffsetAndLimit() throws {
        let (_, _, context) = try Self.stocked()
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(9.0, forKey: "radius")
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try Self.radii(context.fetch(request)) == [2.6, 2.4])
        try context.save()
        #expect(try Self.radii(context.fetch(request)) == [2.6, 2.4])
        request.fetchOffset = 0
        #expect(try Self.radii(context.fetch(request)) == [9.0, 2.6])
    }

    @Test func deletedObjectsLeaveTheStoresAnswer() throws {
        let (_, _, context) = try Self.stocked()
        let request = EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius > 2.1"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        let big = try context.fetch(request)
        #expect(try Self.radii(big) == [2.2, 2.4])
        context.delete(big[0])
        #expect(try Self.radii(context.fetch(request)) == [2.4])
        var including = request
        including.includesPendingChanges = false
        #expect(try Self.radii(context.fetch(including)) == [2.2, 2.4])
    }

    @Test func rowsStayConsistentAcrossUpdatesAndDeletes() throws {
        let (_, store, context) = try Self.stocked()
        let apples = try context.fetch(EntityFetchRequest(entityName: "Apple", sortDescriptors: [KeyValueSortDescriptor(key: "radius")]))
        context.delete(apples[0])
        try apples[2].setValue(7.5, forKey: "radius")
        try context.save()
        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Apple"], sortDescriptors: [KeyValueSortDescriptor(key: "radius")])).rows
        #expect(rows.map(Self.radius) == [2.2, 7.5])
        #expect(try store.row(for: apples[2].objectID).map(Self.radius) == 7.5)
        #expect(try store.row(for: apples[0].objectID) == nil)
        let matching = try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: try KeyValuePredicate(format: "radius > 7"))).rows
        #expect(matching.map(\.objectID) == [apples[2].objectID])
    }

    @Test func columnsFollowSavesMadeBetweenFetches() throws {
        let (_, store, context) = try Self.stocked()
        let big = try KeyValuePredicate(format: "radius > 2.3")
        func matching() throws -> [Double?] {
            try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: big,
                                              sortDescriptors: [KeyValueSortDescriptor(key: "radius")])).rows.map(Self.radius)
        }
        #expect(try matching() == [2.4])          // the columns are built here
        let apples = try context.fetch(EntityFetchRequest(entityName: "Apple", sortDescriptors: [KeyValueSortDescriptor(key: "radius")]))
        for radius in [3.5, 1.0, 4.5] {
            let apple = try context.insertNewObject(forEntityNamed: "Apple")
            try apple.setValue(radius, forKey: "radius")
        }
        try apples[0].setValue(9.0, forKey: "radius")   // a row the columns hold: 2.0 → 9.0
        try context.save()
        #expect(try matching() == [2.4, 3.5, 4.5, 9.0])
        let added = try context.fetch(EntityFetchRequest(entityName: "Apple", predicate: try KeyValuePredicate(format: "radius == 3.5")))
        try #require(added.count == 1)
        try added[0].setValue(0.5, forKey: "radius")     // a row saved after the last fetch
        context.delete(apples[2])                        // 2.4, in the middle of the columns
        try context.save()
        #expect(try matching() == [4.5, 9.0])
        #expect(try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: try KeyValuePredicate(format: "radius < 1"))).rows
                    .map(Self.radius) == [0.5])
    }

    @Test func fetchScopeNamesOwnKeysOnly() throws {
        #expect(FetchScope.ownKeys(of: try KeyValuePredicate(format: "radius > 2 AND (name BEGINSWITH 'a' OR NOT flag == YES)"))
                == ["radius", "name", "flag"])
        #expect(FetchScope.ownKeys(of: try KeyValuePredicate(format: "crate.label == 'A'")) == nil)
        #expect(FetchScope.ownKeys(of: try KeyValuePredicate(format: "radius IN {1, 2}")) == ["radius"])
        #expect(FetchScope.ownKeys(of: try KeyValuePredicate(format: "radius > $limit")) == nil)
        #expect(FetchScope.ownKeys(of: [KeyValueSortDescriptor(key: "radius"), KeyValueSortDescriptor(key: "crate.label")]) == nil)
        #expect(FetchScope.ownKeys(of: [KeyValueSortDescriptor(key: nil)]) == nil)
    }
}

/// The typed shortcuts of row building and store columns give what the general conversions give.
@Suite struct AttributeValueConversionTests {
    static let samples: [(AttributeDescription.AttributeType, any Sendable)] = [
        (.string, "Gala"), (.string, ""), (.integer64, Int64.max), (.integer64, Int64(-3)), (.integer32, Int32.min),
        (.integer16, Int16(7)), (.double, 2.5), (.double, -0.0), (.boolean, true), (.boolean, false),
        (.date, Date(timeIntervalSinceReferenceDate: 12.5)), (.decimal, Decimal(string: "1.25")!),
        (.float, Float(1.5)), (.uuid, UUID()), (.binaryData, Data([1, 2])),
        // Values of another type than the attribute's take the general path.
        (.double, 3), (.integer64, "12"),
    ]

    /// A comparable description of a reading (the type has no equality of its own).
    static func text(_ reading: KeyValueReading) -> String {
        switch reading {
        case .null: return "null"
        case .number(let number): return "number \(number)"
        case .string(let string): return "string \(string)"
        case .object(let object): return "object \(ObjectIdentifier(object))"
        case .value(let value): return "value \(type(of: value)) \(value)"
        }
    }

    @Test(arguments: 0..<samples.count)
    func constantsAndReadingsMatchTheGeneralConversions(index: Int) throws {
        let (type, value) = Self.samples[index]
        let constant = AttributeValueConversion.constant(of: value, type: type)
        #expect(constant == KeyValueConstant(value))
        let attribute = AttributeDescription(name: "a", type: type)
        let general = KeyValueReading(attribute.typedValue(from: constant) ?? nil)
        #expect(Self.text(AttributeValueConversion.reading(of: constant, attribute: attribute)) == Self.text(general))
    }

    @Test func outOfRangeAndMissingValuesReadAsNull() {
        let small = AttributeDescription(name: "a", type: .integer16)
        #expect(Self.text(AttributeValueConversion.reading(of: .integer(70_000), attribute: small)) == "null")
        #expect(Self.text(AttributeValueConversion.reading(of: nil, attribute: small)) == "null")
        #expect(Self.text(AttributeValueConversion.reading(of: .null, attribute: small)) == "null")
    }
}

/// The store's order (sorted on its columns) is the order `sorted(using:)` gives over the objects.
@Suite struct StoreSideOrderTests {
    static let names = ["beth", "Adam", "carol", nil, "adam", "Beth", "dave", nil, "Carol", "anna"]

    static func stocked() throws -> (InMemoryStore, ManagedObjectContext) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", properties: [.attribute("name", .string), .attribute("rank", .integer32),
                                                           .attribute("score", .double)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (i, name) in names.enumerated() {
            let person = try context.insertNewObject(forEntityNamed: "Person")
            try person.setValue(name, forKey: "name")
            if i % 3 != 0 { try person.setValue(Int32(i % 4), forKey: "rank") }
            try person.setValue(Double(i * 7 % 5) / 2, forKey: "score")
        }
        try context.save()
        return (store, context)
    }

    static let orders: [[KeyValueSortDescriptor]] = [
        [KeyValueSortDescriptor(key: "name")],
        [KeyValueSortDescriptor(key: "name", ascending: false, comparison: .caseInsensitiveCompare)],
        [KeyValueSortDescriptor(key: "rank", ascending: false), KeyValueSortDescriptor(key: "score")],
        [KeyValueSortDescriptor(key: "score"), KeyValueSortDescriptor(key: "name", comparison: .localizedStandardCompare)],
        [KeyValueSortDescriptor(key: "name", comparator: { lhs, rhs in
            let (l, r) = ((lhs as? String)?.count ?? 0, (rhs as? String)?.count ?? 0)
            return l == r ? .orderedSame : l < r ? .orderedAscending : .orderedDescending
        }), KeyValueSortDescriptor(key: "rank")],
    ]

    @Test(arguments: 0..<orders.count)
    func storeOrderMatchesSortingTheObjects(index: Int) throws {
        let (store, context) = try Self.stocked()
        let descriptors = Self.orders[index]
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Person"], sortDescriptors: descriptors))
        #expect(result.appliedOrderAndLimits)
        let objects = try context.fetch(EntityFetchRequest(entityName: "Person"))
        let expected = try objects.sorted(using: descriptors).map(\.objectID)
        // Ties keep no particular order across the two (both are stable over different inputs):
        // compare the keys in order.
        func keys(_ ids: [ManagedObjectID]) throws -> [String] {
            try ids.map { id in
                let object = try context.existingObject(with: id)
                return try descriptors.map { descriptor -> String in
                    let value = try object.value(forKey: descriptor.key!)
                    switch descriptor.comparison {
                    case .comparator: return "\((value as? String)?.count ?? 0)"
                    case .caseInsensitiveCompare, .localizedStandardCompare: return "\(value ?? "nil")".lowercased()
                    default: return "\(value ?? "nil")"
                    }
                }.joined(separator: "|")
            }
        }
        #expect(try keys(result.rows.map(\.objectID)) == keys(expected))
    }
}
