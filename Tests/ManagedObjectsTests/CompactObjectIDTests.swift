import Foundation
import Testing
@testable import ManagedObjects

/// IDs share one scope object per entity and store (and compare their references when the
/// scopes differ): whichever way two IDs of one object were made, they are equal, hash alike,
/// and give back the same entity, store, reference and URI.
@Suite struct CompactObjectIDTests {
    static let store = "0C4E2A10-1111-4222-8333-444455556666"
    static let otherStore = "0C4E2A10-1111-4222-8333-777788889999"

    /// Whether `a` and `b` name the same object by every public reading.
    func expectSameObject(_ a: ManagedObjectID, _ b: ManagedObjectID, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a == b, sourceLocation: sourceLocation)
        #expect(a.hashValue == b.hashValue, sourceLocation: sourceLocation)
        #expect(Set([a, b]).count == 1, sourceLocation: sourceLocation)
        #expect(a.entityName == b.entityName && a.storeIdentifier == b.storeIdentifier, sourceLocation: sourceLocation)
        #expect(a.referenceObject == b.referenceObject && a.uriRepresentation() == b.uriRepresentation(),
                sourceLocation: sourceLocation)
    }

    @Test func idsOfOneObjectMadeEveryWayAreEqual() throws {
        let made = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 42)
        let byReference = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, referenceObject: .integer(42))
        let fromTemplate = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 1).withPrimaryKey(42)
        let parsed = try #require(ManagedObjectID(uriRepresentation: made.uriRepresentation()))
        for other in [byReference, fromTemplate, parsed] { expectSameObject(made, other) }
        #expect(made.referenceObject == .integer(42) && !made.isTemporaryID)
        #expect(made.entityName == "Movie" && made.storeIdentifier == Self.store)
    }

    @Test func idsDifferingInOnePartAreNotEqual() {
        let base = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 7)
        let others = [
            ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 8),
            ManagedObjectID(entityName: "Actor", storeIdentifier: Self.store, primaryKey: 7),
            ManagedObjectID(entityName: "Movie", storeIdentifier: Self.otherStore, primaryKey: 7),
            ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, referenceObject: .string("7")),
            base.withPrimaryKey(9),
        ]
        for other in others { #expect(base != other, "\(base) vs \(other)") }
        #expect(Set(others + [base]).count == others.count + 1)
    }

    /// The shared scopes are a bounded cache: an ID made before the cache started again has
    /// another scope object than one made after, and the two are still equal.
    @Test func idsWithDifferentScopeObjectsAreEqual() {
        let before = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 5)
        // More distinct stores than the cache keeps.
        for index in 0..<1_100 {
            _ = ManagedObjectID(entityName: "Filler", storeIdentifier: "store-\(index)", primaryKey: 1)
        }
        let after = ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: 5)
        expectSameObject(before, after)
        expectSameObject(before.withPrimaryKey(6), after.withPrimaryKey(6))
        #expect(before != after.withPrimaryKey(6))
        var registered: [ManagedObjectID: Int] = [before: 1]
        registered[after] = 2
        #expect(registered.count == 1 && registered[before] == 2)
    }

    @Test func stringKeysAndForeignTemporaryIDsKeepTheirReference() throws {
        let named = ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, referenceObject: .string("BUG-1"))
        expectSameObject(named, ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, referenceObject: .string("BUG-1")))
        #expect(named != ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, referenceObject: .string("BUG-2")))
        #expect(named.referenceObject == .string("BUG-1") && !named.isTemporaryID)
        // A temporary ID of another process (any UUID not made here).
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let url = try #require(URL(string: "x-coredata:///Bug/t\(uuid.uuidString)"))
        let foreign = try #require(ManagedObjectID(uriRepresentation: url))
        #expect(foreign.isTemporaryID && foreign.referenceObject == .temporary(uuid) && foreign.storeIdentifier == nil)
        expectSameObject(foreign, try #require(ManagedObjectID(uriRepresentation: url)))
        #expect(foreign.uriRepresentation() == url)
        // An integer ID from a string-keyed template is an ordinary integer ID.
        expectSameObject(named.withPrimaryKey(3), ManagedObjectID(entityName: "Bug", storeIdentifier: Self.store, primaryKey: 3))
    }

    @Test func temporaryIDsMadeHereRoundTripThroughTheirUUID() throws {
        let id = ManagedObjectID.temporary(entityName: "Movie")
        guard case .temporary(let uuid) = id.referenceObject else {
            Issue.record("a temporary ID has a temporary reference")
            return
        }
        let url = try #require(URL(string: "x-coredata:///Movie/t\(uuid.uuidString)"))
        #expect(id.uriRepresentation() == url)
        expectSameObject(id, try #require(ManagedObjectID(uriRepresentation: url)))
        #expect(id.isTemporaryID && id.storeIdentifier == nil)
        #expect(id != ManagedObjectID.temporary(entityName: "Movie"))
        #expect(ManagedObjectID.temporary(entityName: "Movie").referenceObject != id.referenceObject)
    }

    @Test func idsMadeOnManyThreadsAreEqual() async {
        let ids = await withTaskGroup(of: [ManagedObjectID].self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<200).map { key in
                        // Every task makes the same IDs, some interleaved with other stores.
                        if key % 50 == 0 {
                            _ = ManagedObjectID(entityName: "Movie", storeIdentifier: "task-\(task)", primaryKey: 1)
                        }
                        return ManagedObjectID(entityName: "Movie", storeIdentifier: Self.store, primaryKey: Int64(key))
                    }
                }
            }
            var all: [ManagedObjectID] = []
            for await part in group { all += part }
            return all
        }
        #expect(ids.count == 1_600)
        #expect(Set(ids).count == 200)
    }
}
