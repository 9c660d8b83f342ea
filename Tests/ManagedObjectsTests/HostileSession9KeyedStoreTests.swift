import Foundation
import Testing
import Predicates
import TestSupport
@testable import ManagedObjects

/// String-keyed IDs (a user's incremental store) under the cheap hashing: one object per ID
/// across fetches, faults and URIs, in sets and dictionaries next to integer-keyed IDs.
@Suite struct HostileSession9KeyedStoreTests {
    @Test func stringKeyedIDsKeepUniquingAndHashing() throws {
        let (store, coordinator, context) = try IncrementalStoreTests.stocked(seed: "h9")
        var all: [ManagedObject] = []
        for entity in ["Stand", "Crate"] {
            let first = try context.fetch(EntityFetchRequest(entityName: entity))
            let second = try context.fetch(EntityFetchRequest(entityName: entity))
            #expect(!first.isEmpty && first.count == second.count)
            #expect(zip(first, second).allSatisfy { $0 === $1 }, "\(entity)")
            all += first
        }
        var byID: [ManagedObjectID: ManagedObject] = [:]
        for object in all {
            guard case .string(let key) = object.objectID.referenceObject else {
                Issue.record("not a string key: \(object.objectID)")
                continue
            }
            #expect(byID.updateValue(object, forKey: object.objectID) == nil, "one object per ID")
            // The same ID made again from its parts, from the store, and from its URI.
            let remade = ManagedObjectID(entityName: object.entity.name, storeIdentifier: store.identifier,
                                         referenceObject: .string(key))
            #expect(remade == object.objectID && remade.hashValue == object.objectID.hashValue)
            #expect(byID[remade] === object)
            let fromStore = store.newObjectID(forEntityNamed: object.entity.name, referenceObject: .string(key))
            #expect(byID[fromStore] === object)
            let uri = object.objectID.uriRepresentation()
            let back = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
            #expect(byID[back] === object)
            #expect(try context.existingObject(with: back) === object)
            #expect(context.registeredObject(for: back) === object)
            // The integer key of the same digits, and another entity's same key: other IDs.
            let digits = Int64(key.filter(\.isNumber)) ?? 0
            #expect(byID[ManagedObjectID(entityName: object.entity.name, storeIdentifier: store.identifier, primaryKey: digits)] == nil)
        }
        #expect(Set(all.map(\.objectID)).count == all.count)
        #expect(Set(all.map { AnyHashable($0.objectID) }).count == all.count)
        // Faults from a fresh context on the same store are that context's own objects, one per ID.
        let other = ManagedObjectContext(coordinator: coordinator)
        let faults = try all.map { try other.object(with: $0.objectID) }
        #expect(Set(faults.map(ObjectIdentifier.init)).count == all.count)
        #expect(!zip(all, faults).contains { $0 === $1 })
        let fetched = try other.fetch(EntityFetchRequest(entityName: "Crate"))
        for object in fetched { #expect(faults.contains { $0 === object }) }
    }
}
