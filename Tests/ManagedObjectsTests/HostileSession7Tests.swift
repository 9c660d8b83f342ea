import Foundation
import Testing
import KeyValueCoding
import Predicates
import KeyValueObserving
import UndoManagement
@testable import ManagedObjects

// Hostile probes of session 7's speed changes (compact object IDs, column-compiled predicates in
// the in-memory store, lean saves, lean context teardown, direct key-value coding). Each test is
// written from Apple's documented rule: a store's fetch gives the objects `evaluate(with:)`
// accepts; IDs of one object are equal and hash alike; a save writes what changed.

@Suite struct HostileColumnPredicateTests {
    /// Items and sub-items (two entities' rows in one fetch) with hostile values.
    static func stocked() throws -> (InMemoryStore, ManagedObjectContext, [ManagedObject]) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("name", .string), .attribute("note", .string), .attribute("rank", .integer32),
                .attribute("big", .integer64), .attribute("score", .double), .attribute("ratio", .float),
                .attribute("flag", .boolean), .attribute("when", .date), .attribute("amount", .decimal),
            ]),
            EntityDescription(name: "SubItem", parent: "Item", properties: [.attribute("extra", .string)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let names: [String?] = ["alice", "ALICE", nil, "", "café", "cafe\u{301}", "Straße", "STRASSE", "a*b", "a?c",
                                "ǅemal", "ǆ", "x\ny", "\u{212A}", "K", "ﬁ", "fi"]
        let scores: [Double?] = [.nan, -0.0, 0.0, nil, 1e300, -.infinity, 0.1, 9.223372036854775807e18]
        let ratios: [Float?] = [0.1, nil, 0.3, Float.nan, -0.0, 1.5, 16_777_216]
        let bigs: [Int64?] = [.max, .min, 9_007_199_254_740_993, nil, 0, -1]
        for i in 0..<60 {
            let item = try context.insertNewObject(forEntityNamed: i % 3 == 0 ? "SubItem" : "Item")
            try item.setValue(names[i % names.count], forKey: "name")
            try item.setValue(names[(i * 5 + 2) % names.count], forKey: "note")
            if i % 4 != 0 { try item.setValue(Int32(i % 7 - 3), forKey: "rank") }
            try item.setValue(bigs[i % bigs.count], forKey: "big")
            try item.setValue(scores[i % scores.count], forKey: "score")
            try item.setValue(ratios[i % ratios.count], forKey: "ratio")
            if i % 3 != 1 { try item.setValue(i % 2 == 0, forKey: "flag") }
            if i % 5 != 0 { try item.setValue(Date(timeIntervalSinceReferenceDate: Double(i % 4) * 100), forKey: "when") }
            if i % 4 != 3 { try item.setValue(Decimal(string: ["0.1", "0.3", "1e-30", "12345678901234567890.5"][i % 4]), forKey: "amount") }
        }
        try context.save()
        return (store, context, try context.fetch(EntityFetchRequest(entityName: "Item")))
    }

    static let formats: [String] = [
        "ratio == 0.1", "ratio < 0.1", "ratio > 0.1", "ratio == 0.30000001192092896", "ratio == 16777216",
        "ratio == 16777217", "ratio == nil", "ratio != ratio", "ratio == -0.0",
        "big == 9223372036854775807", "big == 9223372036854775807.0", "big > 9223372036854775806.5",
        "big == 9.223372036854776e18", "big < -9223372036854775807", "big == 9007199254740992",
        "big == 9007199254740993", "big == 9007199254740992.0", "big IN {9007199254740992.0}",
        "score == 9223372036854775807", "score > 9223372036854775807", "score == -0.0", "score < 0",
        "score == score", "score != score", "score BETWEEN {1, -1}", "rank BETWEEN {2, -2}",
        "rank BETWEEN {-2, 2}", "rank IN {1, 'a', nil}", "rank IN {nil}", "score IN {nil, 0}",
        "amount == 0.1", "amount == 0.3", "amount < 0.1", "amount > 1e19", "amount == 12345678901234567890.5",
        "amount BETWEEN {0, 0.5}", "amount IN {0.1, 0.3}", "amount == rank",
        "when BETWEEN {CAST(100, 'NSDate'), CAST(200, 'NSDate')}", "when IN {CAST(0, 'NSDate')}",
        "flag == 2", "flag > 0", "flag == 1.0", "flag < YES", "flag != NO",
        "name LIKE '*?*'", "name LIKE '?'", "name LIKE[c] '*SS*'", "name LIKE '*'", "name LIKE ''",
        "name LIKE 'a\\\\?c'", "name LIKE[cd] 'CAFE'", "name MATCHES '.*'",
        "name MATCHES '(?i)Alice'", "name MATCHES 'x.y'", "name MATCHES 'x\\\\ny'",
        "name ENDSWITH ''", "name CONTAINS ''", "name BEGINSWITH nil", "name == nil OR name == ''",
        "name ==[c] 'STRASSE'", "name ==[cd] 'strasse'", "name CONTAINS[c] 'ǆ'", "name ==[c] 'ǆemal'",
        "name ==[c] 'k'", "name ==[cd] 'k'", "name == 'fi'", "name ==[c] 'FI'", "name ==[cd] 'fi'",
        "name BEGINSWITH[c] 'ﬁ'", "name == 'café'", "name ==[d] 'cafe'", "name < 'café'",
        "name IN {'café'}", "name IN[c] {'Café', 'STRASSE'}", "name BETWEEN {'z', 'a'}",
        "NOT NOT rank > 0", "NOT (rank > 0 AND NOT name == nil)", "rank > 0 OR rank > 0 OR rank < 0",
        "(rank > 0 OR flag == YES) AND (score > 0 OR name != nil) AND NOT (ratio < 1)",
        "FALSEPREDICATE OR rank > 0", "rank > 1 AND FALSEPREDICATE", "NOT TRUEPREDICATE",
        "rank == big", "rank < score", "ratio == score", "name == note", "name ==[cd] note", "name LIKE note",
        "rank IN {big, 1}", "1 IN {rank}", "nil == rank", "nil != name", "0.1 == ratio",
        // Parts the columns cannot answer (arithmetic, functions, modifiers) mixed with ones they can.
        "rank + 1 > 2", "rank + 1 > 2 AND name != nil", "name != nil AND rank * 2 < 0", "rank * 2 < 0 OR rank == nil",
        "NOT (rank + 0 == 1) OR score == -0.0", "(rank + 0 > 0 OR flag == YES) AND NOT (big - 1 < 0)",
        "ANY name == 'alice'", "ALL rank > 0", "SOME name BEGINSWITH 'a'", "NONE rank == 1",
        "rank > 0 AND (rank - 1) * 2 > 2 AND rank < 3", "abs(rank) == 2", "rank > 0 OR abs(rank) == 3 OR rank == nil",
        "lowercase(name) == 'alice'", "uppercase(name) BEGINSWITH 'STR'", "name.length > 3",
        "rank == 1 AND name.length > 2", "name.@count > 0", "SUBQUERY(name, $x, $x == 'a').@count > 0",
        "rank BETWEEN {rank, rank}", "rank IN {rank}", "TRUEPREDICATE AND rank + 1 == 2",
        // Parts that throw for some rows, reached or not by the evaluator's short circuits.
        "rank == 99 AND name > 1", "rank == 1 AND name > 1", "name > 1 OR TRUEPREDICATE", "TRUEPREDICATE OR name > 1",
        "NOT (rank BEGINSWITH 'a')", "rank == nil OR rank BEGINSWITH 'a'", "name != nil AND name < 1",
        // Options, escapes, empty collections and number edges.
        "name ==[n] 'alice'", "name BEGINSWITH[cdn] 'A'", "name ENDSWITH[l] 'e'", "note CONTAINS[c] name",
        "name MATCHES 'a|'", "name MATCHES '\\\\'", "name LIKE '\\\\'", "NOT rank IN {}", "name IN {}",
        "name == 'alice' AND NOT (name == 'alice')", "rank == 0x7fffffff", "rank > -2147483649", "rank < 1e400",
        "big > -1e400", "big < 9223372036854775808", "big >= 18446744073709551615", "rank == 1e-400",
        "score > 1e-400", "flag == 'YES'", "flag IN {YES, 1}", "name IN {nil, 'alice'}",
    ]

    @Test(arguments: 0..<formats.count)
    func storeSelectsWhatTheEvaluatorAccepts(index: Int) throws {
        let format = Self.formats[index]
        guard let predicate = try? KeyValuePredicate(format: format) else { return }   // refused by the parser: fine
        let (store, _, objects) = try Self.stocked()
        let expected = ColumnPredicateParityTests.acceptedIDs(of: predicate, objects)
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Item", "SubItem"], predicate: predicate))
        if let expected, result.appliedPredicate {
            let got = Set(result.rows.map(\.objectID))
            #expect(got == expected, "\(format): store \(got.count), evaluator \(expected.count)")
        } else if expected == nil {
            // The evaluator throws for a row: the store must leave the predicate to the context.
            #expect(!result.appliedPredicate, "\(format)")
        }
    }

    /// A context fetch (store rows plus pending changes, sorted, offset and limit) gives the
    /// objects `evaluate(with:)` accepts, in the sort's order.
    @Test(arguments: [
        "rank > 0", "name ==[cd] 'cafe'", "score == -0.0", "ratio == 0.1", "big == 9223372036854775807",
        "NOT (rank > 0)", "name LIKE[c] 'a*'", "flag == YES OR rank == nil",
    ])
    func contextFetchWithPendingChangesMatchesTheEvaluator(format: String) throws {
        let (_, context, objects) = try Self.stocked()
        // Pending changes: a change, a deletion, a new object of each entity.
        try objects[1].setValue(Int32(3), forKey: "rank")
        try objects[2].setValue("cafe", forKey: "name")
        try objects[4].setValue(Float(0.1), forKey: "ratio")
        context.delete(objects[5])
        let new = try context.insertNewObject(forEntityNamed: "SubItem")
        try new.setValue("CAFÉ", forKey: "name")
        try new.setValue(Int32(9), forKey: "rank")
        try new.setValue(Int64.max, forKey: "big")
        let predicate = try KeyValuePredicate(format: format)
        var request = EntityFetchRequest(entityName: "Item", predicate: predicate,
                                         sortDescriptors: [KeyValueSortDescriptor(key: "big", ascending: false),
                                                           KeyValueSortDescriptor(key: "name", ascending: true)])
        let live = context.registeredObjects.filter { !$0.isDeleted }
        let expected = try live.filter { try predicate.evaluate(with: $0) }
        let all = try context.fetch(request)
        #expect(Set(all.map(\.objectID)) == Set(expected.map(\.objectID)), "\(format)")
        request.fetchOffset = 1
        request.fetchLimit = 3
        let page = try context.fetch(request)
        #expect(page.map(\.objectID) == Array(all.dropFirst().prefix(3)).map(\.objectID), "\(format)")
    }

    /// The store's own sort, offset and limit (no pending changes: the store answers alone)
    /// order the rows as the context's in-memory sort does (a pending change makes the context
    /// sort itself).
    @Test(arguments: [("big", false), ("score", true), ("ratio", true), ("name", true), ("amount", false), ("when", true)])
    func storeOrderMatchesTheContextsOrder(key: String, ascending: Bool) throws {
        let (_, context, objects) = try Self.stocked()
        let descriptors = [KeyValueSortDescriptor(key: key, ascending: ascending)]
        var request = EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "rank != 99"),
                                         sortDescriptors: descriptors)
        request.fetchOffset = 3
        request.fetchLimit = 20
        func keys(_ list: [ManagedObject]) -> [String] {
            list.map { String(describing: (try? $0.value(forKey: key)) ?? nil) }
        }
        let fromStore = keys(try context.fetch(request))
        // A pending change to another key: the context now sorts in memory.
        try objects[0].setValue("zzz-pending", forKey: "note")
        let inMemory = keys(try context.fetch(request))
        #expect(fromStore == inMemory, "\(key)")
    }

    /// A bad regular expression is a thrown error, in the store and in a context fetch.
    @Test(arguments: ["name MATCHES '('", "name MATCHES '[a-'", "name MATCHES[c] '*'", "rank > 0 AND name MATCHES '(?<'"])
    func badPatternsThrowCleanly(format: String) throws {
        let (store, context, _) = try Self.stocked()
        guard let predicate = try? KeyValuePredicate(format: format) else { return }
        let result = try? store.fetch(StoreFetchRequest(entityNames: ["Item", "SubItem"], predicate: predicate))
        #expect(result == nil || result?.appliedPredicate == false, "\(format)")
        #expect(throws: (any Error).self) { try context.fetch(EntityFetchRequest(entityName: "Item", predicate: predicate)) }
    }
}

@Suite struct HostileObjectIDTests {
    static let store = "0C4E2A10-1111-4222-8333-444455556666"

    @Test func temporaryAndPermanentIDsWithEqualNumbersDiffer() throws {
        let temporary = ManagedObjectID.temporary(entityName: "Movie")
        guard case .temporary(let uuid) = temporary.referenceObject else {
            Issue.record("not temporary")
            return
        }
        // The counter half of the UUID, as a permanent key of the same entity.
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let counter = Int64(bitPattern: bytes[8...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        let permanent = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: counter)
        let nilStore = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: counter)
            .withPrimaryKey(counter)
        #expect(temporary != permanent && temporary != nilStore)
        #expect(Set([temporary, permanent]).count == 2)
        // A temporary reference given with a store identifier is still temporary, and differs
        // from the one without.
        let withStore = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, referenceObject: .temporary(uuid))
        #expect(withStore.isTemporaryID)
        #expect(withStore.referenceObject == .temporary(uuid))
    }

    @Test func idsOfEntitiesWithCanonicallyEqualNamesHashAlike() {
        // Swift compares the names canonically; equal IDs must hash alike.
        let a = ManagedObjectID(entityName: "Caf\u{E9}", storeIdentifier: Self.store, primaryKey: 1)
        let b = ManagedObjectID(entityName: "Cafe\u{301}", storeIdentifier: Self.store, primaryKey: 1)
        if a == b { #expect(a.hashValue == b.hashValue) }
        let c = ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, referenceObject: .string("caf\u{E9}"))
        let d = ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, referenceObject: .string("cafe\u{301}"))
        if c == d { #expect(c.hashValue == d.hashValue) }
    }

    /// IDs made on many threads while the shared scope table keeps being emptied (thousands of
    /// stores): equal IDs stay equal and hash alike, a dictionary keyed by them holds one entry
    /// per object, and temporary IDs made concurrently are all different.
    @Test func idsMadeWhileTheScopeTableChurnsOnManyThreads() async {
        let results = await withTaskGroup(of: ([ManagedObjectID], [ManagedObjectID]).self) { group in
            for task in 0..<4 {
                group.addTask {
                    var permanent: [ManagedObjectID] = []
                    var temporary: [ManagedObjectID] = []
                    for key in 0..<1_500 {
                        _ = ManagedObjectID(entityName: "Churn", storeIdentifier: "t\(task)-\(key)", primaryKey: 1)
                        permanent.append(ManagedObjectID(entityName: key % 2 == 0 ? "Movie" : "Actor",
                                                         storeIdentifier: Self.store, primaryKey: Int64(key % 100)))
                        temporary.append(.temporary(entityName: "Movie"))
                    }
                    return (permanent, temporary)
                }
            }
            var all: ([ManagedObjectID], [ManagedObjectID]) = ([], [])
            for await part in group { all.0 += part.0; all.1 += part.1 }
            return all
        }
        #expect(Set(results.0).count == 100)
        var counts: [ManagedObjectID: Int] = [:]
        for id in results.0 { counts[id, default: 0] += 1 }
        #expect(counts.count == 100 && counts.values.allSatisfy { $0 == 60 })
        #expect(Set(results.1).count == results.1.count)
        for id in results.1.prefix(50) {
            let parsed = ManagedObjectID(uriRepresentation: id.uriRepresentation())
            #expect(parsed == id && parsed?.hashValue == id.hashValue)
        }
    }

    @Test func hostileURIsAreRefusedOrRoundTrip() throws {
        let texts = [
            "x-coredata://S/Movie/p9223372036854775807", "x-coredata://S/Movie/p-9223372036854775808",
            "x-coredata://S/Movie/p", "x-coredata://S/Movie/p1x", "x-coredata://S/Movie/s", "x-coredata://S/Movie/s%2F%25",
            "x-coredata:///Movie/t", "x-coredata:///Movie/tnot-a-uuid", "x-coredata://S/Movie/t\(UUID().uuidString)",
            "x-coredata://S//p1", "x-coredata://S/Mo%2Fvie/p1", "x-coredata://S/Movie/q1", "x-coredata://S/Movie/p1/extra",
            "x-coredata://S/%E2%98%83/p3", "x-coredata://S/Movie/s%F0%9F%98%80",
        ]
        for text in texts {
            guard let url = URL(string: text), let id = ManagedObjectID(uriRepresentation: url) else { continue }
            let again = try #require(ManagedObjectID(uriRepresentation: id.uriRepresentation()), "\(text)")
            #expect(again == id && again.hashValue == id.hashValue, "\(text)")
            #expect(again.referenceObject == id.referenceObject && again.entityName == id.entityName, "\(text)")
        }
    }

    @Test func objectsAreUniquedWhicheverWayTheirIDWasMade() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Animal", properties: [.attribute("name", .string)]),
            EntityDescription(name: "Dog", parent: "Animal", properties: [.attribute("breed", .string)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let dog = try context.insertNewObject(forEntityNamed: "Dog")
        try dog.setValue("Rex", forKey: "name")
        let animal = try context.insertNewObject(forEntityNamed: "Animal")
        let temporary = dog.objectID
        #expect(try context.existingObject(with: temporary) === dog)
        let parsedTemporary = try #require(ManagedObjectID(uriRepresentation: temporary.uriRepresentation()))
        #expect(try context.existingObject(with: parsedTemporary) === dog)
        try context.save()
        let id = dog.objectID
        #expect(id.entityName == "Dog" && !id.isTemporaryID)
        let parsed = try #require(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        #expect(parsed == id && parsed.hashValue == id.hashValue)
        #expect(try context.object(with: parsed) === dog)
        #expect(try context.existingObject(with: parsed) === dog)
        let rebuilt = ManagedObjectID(entityName: "Dog", storeIdentifier: try #require(id.storeIdentifier),
                                      referenceObject: id.referenceObject)
        #expect(try context.existingObject(with: rebuilt) === dog)
        // The animal's ID with the same key, if the keys coincide, is another object.
        if animal.objectID.referenceObject == id.referenceObject { #expect(animal.objectID != id) }
        // Fetched through the parent entity in another context: the same IDs.
        let other = ManagedObjectContext(coordinator: coordinator)
        let fetched = try other.fetch(EntityFetchRequest(entityName: "Animal"))
        #expect(Set(fetched.map(\.objectID)) == Set([dog.objectID, animal.objectID]))
        #expect(fetched.first { $0.objectID == id }?.entity.name == "Dog")
        // IDs crossing a task keep their identity.
        let sent = id
        let back = try #require(DispatchQueue.global().sync { () -> ManagedObjectID? in
            ManagedObjectID(uriRepresentation: sent.uriRepresentation())
        })
        #expect(try context.existingObject(with: back) === dog)
        #expect(try other.existingObject(with: back).objectID == id)
    }
}

@Suite struct HostileLeanSaveTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64),
                                                         .attribute("score", .double)]),
            EntityDescription(name: "Tag", properties: [.attribute("label", .string)]),
        ], configurations: ["Notes": ["Note"], "Tags": ["Tag"]])
    }

    static func fetchAll(_ coordinator: PersistentStoreCoordinator, _ entity: String) throws -> [ManagedObject] {
        try ManagedObjectContext(coordinator: coordinator).fetch(EntityFetchRequest(entityName: entity))
    }

    @Test func undoAndRedoAcrossSavesWriteEachTime() throws {
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(InMemoryStore(), configuration: "Notes")
        try coordinator.addStore(InMemoryStore(), configuration: "Tags")
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoHistory()
        let note = try context.insertNewObject(forEntityNamed: "Note")
        try note.setValue(Int64(1), forKey: "rank")
        try context.save()
        context.processPendingChanges()
        try note.setValue(Int64(2), forKey: "rank")
        context.processPendingChanges()
        try context.save()
        #expect(try Self.fetchAll(coordinator, "Note").first?.value(forKey: "rank") as? Int64 == 2)
        try context.undo()
        #expect(try note.value(forKey: "rank") as? Int64 == 1)
        #expect(context.hasChanges)
        try context.save()
        #expect(try Self.fetchAll(coordinator, "Note").first?.value(forKey: "rank") as? Int64 == 1)
        try context.redo()
        #expect(try note.value(forKey: "rank") as? Int64 == 2)
        try context.save()
        #expect(try Self.fetchAll(coordinator, "Note").first?.value(forKey: "rank") as? Int64 == 2)
        // A second context, reading the rows the saves wrote, saves against their versions.
        let other = ManagedObjectContext(coordinator: coordinator)
        let seen = try #require(try other.fetch(EntityFetchRequest(entityName: "Note")).first)
        try seen.setValue(Int64(7), forKey: "rank")
        try other.save()
        try note.setValue("mine", forKey: "title")
        #expect(throws: (any Error).self) { try context.save() }   // stale: a conflict
    }

    @Test func aValueSetBackToItsSavedValueAcrossEventsIsNotWrittenButOthersAre() throws {
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(InMemoryStore(), configuration: "Notes")
        try coordinator.addStore(InMemoryStore(), configuration: "Tags")
        let context = ManagedObjectContext(coordinator: coordinator)
        let a = try context.insertNewObject(forEntityNamed: "Note")
        let b = try context.insertNewObject(forEntityNamed: "Note")
        try a.setValue(Double.nan, forKey: "score")
        try b.setValue(0.0, forKey: "score")
        try context.save()
        let versions = (a.storeVersion, b.storeVersion)
        try a.setValue(1.0, forKey: "score")
        context.processPendingChanges()
        try a.setValue(Double.nan, forKey: "score")   // back to NaN
        try b.setValue(-0.0, forKey: "score")          // equal to 0 for Apple's isEqual
        try b.setValue("x", forKey: "title")
        try b.setValue(nil, forKey: "title")            // back to nil
        try context.save()
        #expect(!context.hasChanges)
        #expect(a.storeVersion == versions.0)
        // Whatever was written, the store's version agrees with the object's.
        let other = ManagedObjectContext(coordinator: coordinator)
        let seenB = try other.existingObject(with: b.objectID)
        try seenB.setValue("theirs", forKey: "title")
        try other.save()
        let seenA = try other.existingObject(with: a.objectID)
        try seenA.setValue("theirs", forKey: "title")
        try other.save()
        // The first context's objects are now stale: saving them is a conflict, not a silent overwrite.
        try a.setValue(2.0, forKey: "score")
        #expect(throws: (any Error).self) { try context.save() }
    }

    @Test func deletingFromTwoStoresInAlternationWithAnUnsavedObjectBetween() throws {
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(InMemoryStore(), configuration: "Notes")
        try coordinator.addStore(InMemoryStore(), configuration: "Tags")
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [ManagedObject] = []
        for index in 0..<8 { objects.append(try context.insertNewObject(forEntityNamed: index % 2 == 0 ? "Note" : "Tag")) }
        try context.save()
        for object in objects.reversed() {
            context.delete(object)
            let unsaved = try context.insertNewObject(forEntityNamed: "Tag")
            context.delete(unsaved)
        }
        try context.save()
        #expect(try Self.fetchAll(coordinator, "Note").isEmpty)
        #expect(try Self.fetchAll(coordinator, "Tag").isEmpty)
        #expect(context.registeredObjects.isEmpty)
    }

    /// Two in-memory stores (Notes and Tags) each holding a saved note and tag; another context
    /// changed the rows of `conflicted` since; the returned context changed both rows and
    /// inserted one new object into each store, unsaved.
    static func conflictedTwoStoreSave(policy: MergePolicy, conflicted: Set<String>) throws
        -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(InMemoryStore(), configuration: "Notes")
        try coordinator.addStore(InMemoryStore(), configuration: "Tags")
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = policy
        let note = try context.insertNewObject(forEntityNamed: "Note")
        let tag = try context.insertNewObject(forEntityNamed: "Tag")
        try context.save()
        let other = ManagedObjectContext(coordinator: coordinator)
        if conflicted.contains("Tag") { try other.existingObject(with: tag.objectID).setValue("theirs", forKey: "label") }
        if conflicted.contains("Note") { try other.existingObject(with: note.objectID).setValue("theirs", forKey: "title") }
        try other.save()
        try tag.setValue("mine", forKey: "label")
        try note.setValue(Int64(5), forKey: "rank")
        _ = try context.insertNewObject(forEntityNamed: "Note")
        _ = try context.insertNewObject(forEntityNamed: "Tag")
        return (coordinator, context)
    }

    @Test func multiStoreSaveWithAConflictInOneStoreIsAllOrNothing() throws {
        // Both stores' rows changed elsewhere. Before the fix: round 1, the first store asked
        // reported its conflict, resolved; round 2, the first store wrote (its new object
        // included), the second reported its conflict, resolved; round 3, the first store was
        // asked to insert its new object again and refused ("already exists"). With a
        // resolving merge policy the save must succeed, each new object saved once.
        let (coordinator, context) = try Self.conflictedTwoStoreSave(policy: .mergeByPropertyObjectTrump,
                                                                     conflicted: ["Note", "Tag"])
        try context.save()
        #expect(try Self.fetchAll(coordinator, "Note").count == 2)
        #expect(try Self.fetchAll(coordinator, "Tag").count == 2)
        #expect(try Self.fetchAll(coordinator, "Tag").contains { try $0.value(forKey: "label") as? String == "mine" })
    }

    /// With the error merge policy, a conflict in one store fails the whole save before any
    /// store writes: the other store keeps neither the new object nor the change, and the
    /// context still holds both as unsaved.
    @Test(arguments: ["Note", "Tag"])
    func aConflictInOneStoreFailsTheSaveBeforeAnyStoreWrites(conflicted: String) throws {
        let (coordinator, context) = try Self.conflictedTwoStoreSave(policy: .error, conflicted: [conflicted])
        #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        #expect(context.insertedObjects.count == 2)
        let notes = try Self.fetchAll(coordinator, "Note")
        let tags = try Self.fetchAll(coordinator, "Tag")
        #expect(notes.count == 1 && tags.count == 1, "a failed save left \(notes.count) notes and \(tags.count) tags")
        #expect(try notes.first?.value(forKey: "rank") as? Int64 != 5)
        #expect(try tags.first?.value(forKey: "label") as? String != "mine")
    }

    @Test func childContextSettingTheParentsValueBackSavesThrough() throws {
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(InMemoryStore(), configuration: "Notes")
        try coordinator.addStore(InMemoryStore(), configuration: "Tags")
        let parent = ManagedObjectContext(coordinator: coordinator)
        let note = try parent.insertNewObject(forEntityNamed: "Note")
        try note.setValue(Int64(1), forKey: "rank")
        try parent.save()
        try note.setValue(Int64(2), forKey: "rank")      // unsaved in the parent
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let seen = try child.existingObject(with: note.objectID)
        #expect(try seen.value(forKey: "rank") as? Int64 == 2)
        try seen.setValue(Int64(1), forKey: "rank")       // the store's value
        try child.save()
        #expect(try note.value(forKey: "rank") as? Int64 == 1)
        try parent.save()
        #expect(!parent.hasChanges)
        #expect(try Self.fetchAll(coordinator, "Note").first?.value(forKey: "rank") as? Int64 == 1)
        try note.setValue(Int64(3), forKey: "rank")
        try parent.save()
        #expect(try Self.fetchAll(coordinator, "Note").first?.value(forKey: "rank") as? Int64 == 3)
    }
}

@Suite struct HostileTeardownTests {
    static func coordinator() throws -> PersistentStoreCoordinator {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<5 { try context.insertNewObject(forEntityNamed: "Note").setValue("n\(index)", forKey: "title") }
        try context.save()
        return coordinator
    }

    @Test func objectsOutlivingAReadOnlyContextStayUsable() throws {
        let coordinator = try Self.coordinator()
        var objects: [ManagedObject] = []
        var titles: [String?] = []
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            objects = try context.fetch(EntityFetchRequest(entityName: "Note"))
            titles = try objects.map { try $0.value(forKey: "title") as? String }
        }
        #expect(objects.allSatisfy { $0.managedObjectContext == nil })
        #expect(!objects.contains { $0.hasChanges || $0.isInserted || $0.isDeleted })
        // Read and observe them without a context: no crash. A change by key is refused
        // (no context would record it; trial13 T9), and observers hear nothing.
        var seen: [String?] = []
        let observation = try objects[0].observe("title", options: [.new]) { _, change in
            seen.append(change.newValue as? String)
        }
        _ = try objects.map { try $0.value(forKey: "title") }
        #expect(throws: ManagedObjectContextError.contextGone(objects[0].objectID)) {
            try objects[0].setValue("changed", forKey: "title")
        }
        #expect(seen.isEmpty)
        #expect(try objects[0].value(forKey: "title") as? String == titles[0])
        _ = observation
        #expect(try objects[1].value(forKey: "title") as? String == titles[1])
        #expect(objects[0].changedValues().isEmpty)
    }

    @Test func aContextReleasedWhileObservedAndAfterReset() throws {
        let coordinator = try Self.coordinator()
        var kept: ManagedObject?
        var observation: AnyObject?
        var seen = 0
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            let objects = try context.fetch(EntityFetchRequest(entityName: "Note"))
            kept = objects[2]
            observation = try objects[2].observe("rank", options: [.new]) { _, _ in seen += 1 } as AnyObject
            context.reset()
            _ = try context.fetch(EntityFetchRequest(entityName: "Note"))
        }
        let object = try #require(kept)
        try object.setValue(Int64(4), forKey: "rank")
        #expect(seen == 1)
        _ = observation
        // Put into another context: it is that context's (or refused with an error, never a crash).
        let other = ManagedObjectContext(coordinator: coordinator)
        if (try? other.insert(object)) != nil {
            #expect(object.managedObjectContext === other)
        }
    }
}

@Suite struct HostileRowCacheTests {
    static func coordinator() throws -> PersistentStoreCoordinator {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Shelf", properties: [
                .attribute("name", .string),
                .relationship(RelationshipDescription(name: "books", destination: "Book", inverse: "shelf", cardinality: .toMany)),
            ]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string),
                .relationship(RelationshipDescription(name: "shelf", destination: "Shelf", inverse: "books")),
            ]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return coordinator
    }

    /// A coordinator holding one saved shelf with `books` books (titled `b0`, `b1`…), and the
    /// shelf's ID.
    static func savedShelf(books: Int) throws -> (PersistentStoreCoordinator, ManagedObjectID) {
        let coordinator = try coordinator()
        let setup = ManagedObjectContext(coordinator: coordinator)
        let shelf = try setup.insertNewObject(forEntityNamed: "Shelf")
        for index in 0..<books {
            let book = try setup.insertNewObject(forEntityNamed: "Book")
            try book.setValue("b\(index)", forKey: "title")
            try book.setValue(shelf, forKey: "shelf")
        }
        try setup.save()
        return (coordinator, shelf.objectID)
    }

    /// An updated object whose to-many relationship was never loaded: its saved row leaves
    /// the relationship out; another context of the coordinator must still see its members.
    @Test func anUpdatedRowWithAnUnloadedToManyKeepsItsMembersForOtherContexts() throws {
        let (coordinator, id) = try Self.savedShelf(books: 3)
        let a = ManagedObjectContext(coordinator: coordinator)
        let seen = try a.existingObject(with: id)
        try seen.setValue("renamed", forKey: "name")        // books never read
        try a.save()
        let b = ManagedObjectContext(coordinator: coordinator)
        let other = try b.existingObject(with: id)
        #expect(try other.value(forKey: "name") as? String == "renamed")
        let books = try other.value(forKey: "books") as? Set<ManagedObject>
        #expect(books?.count == 3)
        // Kept alive: a context that goes away empties its objects' relationships (by design).
        let third = ManagedObjectContext(coordinator: coordinator)
        let fetched = try third.fetch(EntityFetchRequest(entityName: "Shelf")).first
        let fetchedBooks = try fetched?.value(forKey: "books")
        #expect((fetchedBooks as? Set<ManagedObject>)?.count == 3, "fetched books: \(String(describing: fetchedBooks))")
    }

    /// The same without the row cache's help: a fetch in a fresh context right after the save.
    @Test func aFetchAfterSavingAnObjectWithAnUnloadedToManySeesItsMembers() throws {
        let (coordinator, shelfID) = try Self.savedShelf(books: 3)
        let a = ManagedObjectContext(coordinator: coordinator)
        let seen = try #require(try a.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        try seen.setValue("renamed", forKey: "name")        // books never read
        try a.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try fresh.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        #expect(try fetched.value(forKey: "name") as? String == "renamed")
        let books = try fetched.value(forKey: "books")
        #expect((books as? Set<ManagedObject>)?.count == 3, "fetched books: \(String(describing: books))")
        // The store itself still has them.
        let shelfRow = try coordinator.stores.first?.row(for: shelfID)
        #expect(shelfRow?.relationships["books"]?.count == 3, "store row: \(String(describing: shelfRow?.relationships))")
        let answer = try #require(coordinator.stores.first).fetch(StoreFetchRequest(entityNames: ["Shelf"]))
        #expect(answer.rows.first?.relationships["books"]?.count == 3, "fetched row: \(String(describing: answer.rows.first?.relationships))")

    }

    /// A fresh context's fetch fills related objects of its own, never another context's.
    @Test func aFetchedObjectsRelatedObjectsBelongToTheFetchingContext() throws {
        let (coordinator, _) = try Self.savedShelf(books: 2)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try fresh.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        let books = try #require(try fetched.value(forKey: "books") as? Set<ManagedObject>)
        #expect(books.count == 2)
        #expect(books.allSatisfy { $0.managedObjectContext === fresh })
        let fetchedBooks = try fresh.fetch(EntityFetchRequest(entityName: "Book"))
        #expect(fetchedBooks.allSatisfy { (try? $0.value(forKey: "shelf") as? ManagedObject) === fetched })
    }
}
