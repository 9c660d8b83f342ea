import Foundation
import Synchronization
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// What an awakening node does on the way (set per test; the tests run one at a time on it).
private enum AwakeAction: Int {
    case nothing, fetchSameEntity, readParent, insertOne, fetchIDs, fetchLimited
}

private let awakeAction = Mutex(AwakeAction.nothing)

/// A node that, when woken from a fetch, does something that registers other objects.
private final class AwakeNode: ManagedObject {
    var sawDuringAwake: [ManagedObject] = []
    override func awakeFromFetch() {
        guard let context = managedObjectContext else { return }
        switch awakeAction.withLock({ $0 }) {
        case .nothing: break
        case .fetchSameEntity:
            guard (try? value(forKey: "rank")) as? Int64 == 3 else { return }
            sawDuringAwake = (try? context.fetch(EntityFetchRequest(entityName: "Node", sortDescriptors: [KeyValueSortDescriptor(key: "rank", ascending: false)]))) ?? []
        case .readParent:
            if let parent = (try? value(forKey: "parent")) as? ManagedObject {
                sawDuringAwake = [parent]
                _ = try? parent.value(forKey: "rank")
            }
        case .insertOne:
            guard (try? value(forKey: "rank")) as? Int64 == 1 else { return }
            _ = try? context.insertNewObject(forEntityNamed: "Other")
        case .fetchIDs:
            guard (try? value(forKey: "rank")) as? Int64 == 0 else { return }
            let ids = (try? context.fetchObjectIDs(EntityFetchRequest(entityName: "Node"))) ?? []
            sawDuringAwake = ids.compactMap { try? context.existingObject(with: $0) }
        case .fetchLimited:
            guard (try? value(forKey: "rank")) as? Int64 == 5 else { return }
            var request = EntityFetchRequest(entityName: "Node", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
            request.fetchLimit = 3
            sawDuringAwake = (try? context.fetch(request)) ?? []
        }
    }
}

/// Hostile checks of the fetch that makes objects without a registry look-up while the
/// registry is empty (SQLite answers): one object per ID per context, whatever registers
/// objects on the way.
@Suite(.serialized) struct HostileSession9UniquingTests {
    static func model() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Node", properties: [
                .attribute("rank", .integer64), .attribute("title", .string),
                .toOne("parent", "Node", inverse: "children"), .toMany("children", "Node", inverse: "parent"),
            ]),
            EntityDescription(name: "Other", properties: [.attribute("x", .integer64)]),
        ])
        try model.setManagedObjectClass(AwakeNode.self, forEntityNamed: "Node")
        return model
    }

    /// Nodes of ranks 0…9, key order not rank order; each node's parent is the node of the next rank.
    static func makeStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("H9Unique.sqlite")
        awakeAction.withLock { $0 = .nothing }
        let (_, context) = try openStack(try model(), at: url)
        var nodes: [ManagedObject] = []
        for rank in [4, 7, 1, 9, 0, 3, 8, 2, 6, 5] {
            let node = try context.insertNewObject(forEntityNamed: "Node")
            try node.setValue(Int64(rank), forKey: "rank")
            try node.setValue("n\(rank)", forKey: "title")
            nodes.append(node)
        }
        let byRank = nodes.sorted { ($0.stored("rank") as? Int64 ?? 0) < ($1.stored("rank") as? Int64 ?? 0) }
        for (node, next) in zip(byRank, byRank.dropFirst()) { try node.setValue(next, forKey: "parent") }
        try context.save()
        return url
    }

    /// One object per ID among `objects` and the context's registry, each the registered one.
    static func expectUnique(_ objects: [ManagedObject], in context: ManagedObjectContext, _ label: String) {
        let ids = objects.map(\.objectID)
        #expect(Set(ids).count == ids.count, "\(label): an ID twice in the result")
        for object in objects {
            #expect(context.registeredObject(for: object.objectID) === object, "\(label): not the registered object")
            #expect(object.managedObjectContext === context, "\(label)")
        }
        let registered = context.registeredObjects
        #expect(Set(registered.map(\.objectID)).count == registered.count, "\(label): registry")
    }

    @Test(arguments: [AwakeAction.nothing, .fetchSameEntity, .readParent, .insertOne, .fetchIDs, .fetchLimited].map(\.rawValue))
    func everyAwakeActionKeepsOneObjectPerID(action raw: Int) throws {
        let action = try #require(AwakeAction(rawValue: raw))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.makeStore(directory)
        awakeAction.withLock { $0 = action }
        defer { awakeAction.withLock { $0 = .nothing } }
        let (_, context) = try openStack(try Self.model(), at: url)
        for sorted in [false, true] {
            context.reset()
            let request = EntityFetchRequest(entityName: "Node", sortDescriptors: sorted ? [KeyValueSortDescriptor(key: "rank")] : [])
            let objects = try context.fetch(request)
            #expect(objects.count == 10, "\(action) \(sorted)")
            Self.expectUnique(objects, in: context, "\(action) sorted \(sorted)")
            for object in objects {
                for seen in (object as? AwakeNode)?.sawDuringAwake ?? [] {
                    #expect(context.registeredObject(for: seen.objectID) === seen, "\(action): seen while waking")
                    #expect(objects.contains { $0 === seen } || seen.managedObjectContext == nil)
                }
                if let parent = try object.value(forKey: "parent") as? ManagedObject {
                    #expect(objects.contains { $0 === parent }, "\(action): the parent is the fetched object")
                    #expect(parent.stored("rank") as? Int64 == (object.stored("rank") as? Int64 ?? -9) + 1)
                }
            }
            if sorted { #expect(objects.map { $0.stored("rank") as? Int64 } == (0..<10).map { Int64($0) }) }
            // A second fetch in a row gives the same objects.
            let again = try context.fetch(request)
            #expect(again.count == 10 && zip(objects, again).allSatisfy { $0 === $1 } || !sorted, "\(action): again")
            #expect(Set(again.map(ObjectIdentifier.init)) == Set(objects.map(ObjectIdentifier.init)))
        }
    }

    @Test func resetChildContextsAndPrefetchingKeepUniquing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.makeStore(directory)
        let (_, context) = try openStack(try Self.model(), at: url)
        let request = EntityFetchRequest(entityName: "Node", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        let first = try context.fetch(request)
        context.reset()
        #expect(context.registeredObjects.isEmpty)
        let second = try context.fetch(request)
        Self.expectUnique(second, in: context, "after reset")
        #expect(!zip(first, second).contains { $0 === $1 })

        // A child context: its own objects, unique in it, and the parent's untouched.
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: context)
        let inChild = try child.fetch(request)
        Self.expectUnique(inChild, in: child, "child")
        #expect(!zip(second, inChild).contains { $0 === $1 })
        let inChildAgain = try child.fetch(request)
        #expect(zip(inChild, inChildAgain).allSatisfy { $0 === $1 })
        Self.expectUnique(second, in: context, "parent after the child's fetch")

        // Prefetching the parent relationship into an empty registry.
        context.reset()
        var prefetching = request
        prefetching.relationshipKeyPathsForPrefetching = ["parent", "children"]
        let prefetched = try context.fetch(prefetching)
        Self.expectUnique(prefetched, in: context, "prefetched")
        #expect(context.registeredObjects.count == 10)
        for node in prefetched {
            if let parent = try node.value(forKey: "parent") as? ManagedObject { #expect(prefetched.contains { $0 === parent }) }
            let children = try node.value(forKey: "children") as? Set<ManagedObject> ?? []
            #expect(children.allSatisfy { child in prefetched.contains { $0 === child } })
        }

        // Objects IDs fetched first (faults registered), then the rows.
        context.reset()
        let ids = try context.fetchObjectIDs(request)
        let faults = try ids.map { try context.existingObject(with: $0) }
        context.reset()
        _ = faults
        let faultsAgain = try ids.map { try context.object(with: $0) }
        let objects = try context.fetch(request)
        #expect(zip(faultsAgain, objects).allSatisfy { $0 === $1 })
        Self.expectUnique(objects, in: context, "faults first")
    }
}
