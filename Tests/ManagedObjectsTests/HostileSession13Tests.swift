import Foundation
import Testing
import Predicates
import TestSupport
import KeyValueCoding
@testable import ManagedObjects

/// Trial 13's crashes on user input (T1–T4, T12), each now a thrown error naming the culprit or
/// a defined behaviour. Every test here trapped before the fix.
@Suite struct HostileSession13Tests {
    // MARK: T1: numbers loaded from an atomic file at the top of their range

    /// The fruit-stand file with one edit to its JSON.
    static func editedFruitFile(_ edit: (inout [String: Any]) throws -> Void) throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try AtomicFileStoreTests.open(url))
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        try edit(&root)
        try JSONSerialization.data(withJSONObject: root).write(to: url)
        return url
    }

    /// Expects the save to throw an error whose text contains every one of `words`.
    static func expectSaveFails(_ context: ManagedObjectContext, naming words: [String],
                                sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try context.save()
            Issue.record("the save succeeded", sourceLocation: sourceLocation)
        } catch {
            for word in words { #expect("\(error)".contains(word), "\(error) lacks \(word)", sourceLocation: sourceLocation) }
        }
    }

    @Test func anUpdateOfARowWhoseVersionCannotGrowThrowsAndWritesNothing() throws {
        let url = try Self.editedFruitFile { root in
            var objects = try #require(root["objects"] as? [[String: Any]])
            for index in objects.indices where objects[index]["entity"] as? String == "Stand" { objects[index]["version"] = Int64.max }
            root["objects"] = objects
        }
        let before = try Data(contentsOf: url)
        let context = try AtomicFileStoreTests.open(url)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Renamed", forKey: "name")
        Self.expectSaveFails(context, naming: ["Stand", "cannot grow"])
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anInsertWhenTheKeysAreUsedUpThrowsNamingTheEntity() throws {
        let url = try Self.editedFruitFile { root in
            var keys = root["nextKeys"] as? [String: Any] ?? [:]
            keys["Stand"] = Int64.max
            root["nextKeys"] = keys
        }
        let before = try Data(contentsOf: url)
        let context = try AtomicFileStoreTests.open(url)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Second", forKey: "name")
        Self.expectSaveFails(context, naming: ["Stand", url.path])
        #expect(try Data(contentsOf: url) == before)
        // Other roots still get keys.
        context.delete(stand)
        let crate = try context.insertNewObject(forEntityNamed: "Crate")
        try context.save()
        #expect(crate.objectID.referenceObject == .integer(3))
    }

    // MARK: T2/T3: batch sizes, offsets and limits at the ends of Int

    static func memoryContextWith30Stands() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<30 {
            try context.insertNewObject(forEntityNamed: "Stand").setValue(String(format: "s%02d", index), forKey: "name")
        }
        try context.save()
        return context
    }

    static let byName = [KeyValueSortDescriptor(key: "name")]

    @Test(arguments: [Int.max, Int.max - 1, 31, 30])
    func aBatchSizeLargerThanTheResultsIsOneBatch(size: Int) throws {
        let context = try Self.memoryContextWith30Stands()
        var request = EntityFetchRequest(entityName: "Stand", sortDescriptors: Self.byName)
        request.fetchBatchSize = size
        let batched = try context.fetchBatched(request)
        #expect(batched.count == 30)
        #expect(batched.batchSize == 30)
        #expect(try batched.map { try $0.value(forKey: "name") as? String }.last == "s29")
        #expect(try context.fetch(request).count == 30)
        // No results: one empty batch.
        request.predicate = try KeyValuePredicate(format: "name == 'none'")
        #expect(try context.fetchBatched(request).isEmpty)
    }

    @Test func negativeLimitsOffsetsAndBatchSizesAreStoredAsZero() {
        var request = EntityFetchRequest(entityName: "Stand")
        request.fetchOffset = Int.min
        request.fetchLimit = -5
        request.fetchBatchSize = -1
        #expect(request.fetchOffset == 0 && request.fetchLimit == 0 && request.fetchBatchSize == 0)
        var storeRequest = StoreFetchRequest(entityNames: ["Stand"], fetchOffset: -3, fetchLimit: Int.min)
        #expect(storeRequest.fetchOffset == 0 && storeRequest.fetchLimit == 0)
        storeRequest.fetchOffset = -1
        #expect(storeRequest.fetchOffset == 0)
    }

    @Test(arguments: [Int.min, -5, Int.max])
    func extremeOffsetsGiveTheSameAnswerToEveryResultType(offset: Int) throws {
        let context = try Self.memoryContextWith30Stands()
        var request = EntityFetchRequest(entityName: "Stand", sortDescriptors: Self.byName)
        request.fetchOffset = offset
        let expected = offset == Int.max ? 0 : 30
        #expect(try context.count(for: request) == expected)
        #expect(try context.fetch(request).count == expected)
        #expect(try context.fetchObjectIDs(request).count == expected)
        #expect(try context.fetchBatched(request).count == expected)
        request.fetchLimit = Int.min
        #expect(try context.count(for: request) == expected)
    }

    // MARK: T4: a relationship set by setPrimitiveValue to objects of another entity

    @Test func setPrimitiveValueRefusesObjectsOfAnotherEntity() throws {
        let context = try AtomicFileStoreTests.open(try temporaryDirectory().appendingPathComponent("F.store"))
        try FruitStandModel.stock(context)
        let stands = try context.fetch(EntityFetchRequest(entityName: "Stand"))
        let crate = try #require(try context.fetch(EntityFetchRequest(entityName: "Crate")).first)
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        let stand = stands[0]
        let cratesBefore = stand.primitiveValue(forKey: "crates") as? Set<ManagedObject>
        #expect(throws: KeyValueCodingError.self) { try stand.setPrimitiveValue(Set([stand]), forKey: "crates") }
        #expect(throws: KeyValueCodingError.self) { try crate.setPrimitiveValue(apple, forKey: "stand") }
        #expect(throws: KeyValueCodingError.self) { try crate.setPrimitiveValue("Corner", forKey: "stand") }
        #expect(throws: KeyValueCodingError.self) { try stand.setPrimitiveValue([crate], forKey: "crates") }
        #expect(stand.primitiveValue(forKey: "crates") as? Set<ManagedObject> == cratesBefore)
        // Subentities of the destination are taken; nil empties a to-many.
        try crate.setPrimitiveValue(Set([apple]), forKey: "fruit")
        try apple.setPrimitiveValue(nil, forKey: "crate")
        try crate.setPrimitiveValue(nil, forKey: "fruit")
        #expect((crate.primitiveValue(forKey: "fruit") as? Set<ManagedObject>)?.isEmpty == true)
        do {
            try stand.setPrimitiveValue(Set([stand]), forKey: "crates")
        } catch {
            let text = "\(error)"
            #expect(text.contains("crates") && text.contains("Stand") && text.contains("Crate"), "\(text)")
        }
    }

    @Test func aTypedReadOfAnObjectOfAnotherClassReadsItAsMissing() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(forEntityNamed: "Stand") as! TypedStand
        let other = try context.insertNewObject(forEntityNamed: "Stand") as! TypedStand
        let crate = try context.insertNewObject(forEntityNamed: "Crate") as! TypedCrate
        // Put there past every check (a custom store's rows could): a Stand among the crates.
        stand.storeSlotValue(Set<ManagedObject>([other, crate]), try #require(stand.layout.slotByName["crates"]))
        #expect(stand.crates.map(\.objectID) == [crate.objectID])
        crate.storeSlotValue(crate, try #require(crate.layout.slotByName["stand"]))
        #expect(crate.stand == nil)
        crate.storeSlotValue([other] as [ManagedObject], try #require(crate.layout.slotByName["fruit"]))
        #expect(crate.fruit.isEmpty)
    }

    // MARK: T12: a killed save's temporary copy

    @Test func loadingRemovesTheTemporaryCopiesOfDeadProcessesOnly() throws {
        let folder = try temporaryDirectory()
        let url = folder.appendingPathComponent("a.json")
        try FruitStandModel.stock(try AtomicFileStoreTests.open(url))
        // No process has the ID 2^22 + 1 (above Linux's default pid_max of 4194304).
        let dead = folder.appendingPathComponent(".a.json.saving-4194305-\(UUID().uuidString)")
        let mine = folder.appendingPathComponent(".a.json.saving-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        let unrelated = folder.appendingPathComponent(".b.json.saving-4194305-\(UUID().uuidString)")
        for file in [dead, mine, unrelated] { try Data("{}".utf8).write(to: file) }
        let context = try AtomicFileStoreTests.open(url)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: mine.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
        // A save leaves no temporary file of its own.
        try context.insertNewObject(forEntityNamed: "Stand").setValue("New", forKey: "name")
        try context.save()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["a.json", mine.lastPathComponent, unrelated.lastPathComponent].sorted())
    }
}
