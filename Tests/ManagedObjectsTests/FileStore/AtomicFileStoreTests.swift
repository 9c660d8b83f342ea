import Foundation
import Testing
import Predicates
import TestSupport
@testable import ManagedObjects

/// The folder of this test run's store files, removed when the test process exits.
let storeTestRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ManagedObjectsStoreTests-\(UUID().uuidString)")
    atexit { try? FileManager.default.removeItem(at: storeTestRootPath) }
    return root
}()
private let storeTestRootPath = storeTestRoot

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = storeTestRoot.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct AtomicFileStoreTests {
    static func open(_ url: URL, model: ManagedObjectModel? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: try model ?? FruitStandModel.make())
        try coordinator.addStore(with: StoreDescription(type: "Binary", url: url))
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func theGraphSurvivesReopening() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try Self.open(url))
        let context = try Self.open(url)
        let apples = try context.fetch(EntityFetchRequest(entityName: "Apple", sortDescriptors: [KeyValueSortDescriptor(key: "radius")]))
        #expect(try apples.map { try $0.value(forKey: "radius") as? Double } == [2.0, 2.2, 2.4])
        #expect(try apples[0].value(forKeyPath: "crate.stand.name") as? String == "Corner")
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit")) == 5)
        // Keys go on from where they were.
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Market", forKey: "name")
        try context.save()
        #expect(stand.objectID.referenceObject == .integer(2))
    }

    @Test func everyAttributeTypeReadsBackAsWritten() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Item", properties: [
            .attribute("small", .integer16), .attribute("large", .integer64), .attribute("flag", .boolean),
            .attribute("ratio", .double), .attribute("price", .decimal), .attribute("name", .string),
            .attribute("when", .date), .attribute("bytes", .binaryData), .attribute("identity", .uuid), .attribute("link", .uri),
        ])])
        let url = try temporaryDirectory().appendingPathComponent("Items.store")
        let context = try Self.open(url, model: model)
        let item = try context.insertNewObject(forEntityNamed: "Item")
        let when = Date(timeIntervalSinceReferenceDate: 123.25)
        let identity = UUID()
        let values: [(String, Any)] = [("small", Int16(1)), ("large", Int64.max), ("flag", true), ("ratio", 0.1),
                                       ("price", Decimal(string: "12.345")!), ("name", "tab\tquote\"é"), ("when", when),
                                       ("bytes", Data([0, 1, 255])), ("identity", identity), ("link", URL(string: "https://example.com/a?b")!)]
        for (key, value) in values { try item.setValue(value, forKey: key) }
        try context.save()
        let again = try #require(try Self.open(url, model: try ManagedObjectModel(entities: model.entities)).fetch(EntityFetchRequest(entityName: "Item")).first)
        #expect(try again.value(forKey: "small") as? Int16 == 1)
        #expect(try again.value(forKey: "large") as? Int64 == Int64.max)
        #expect(try again.value(forKey: "flag") as? Bool == true)
        #expect(try again.value(forKey: "ratio") as? Double == 0.1)
        #expect(try again.value(forKey: "price") as? Decimal == Decimal(string: "12.345"))
        #expect(try again.value(forKey: "name") as? String == "tab\tquote\"é")
        #expect(try again.value(forKey: "when") as? Date == when)
        #expect(try again.value(forKey: "bytes") as? Data == Data([0, 1, 255]))
        #expect(try again.value(forKey: "identity") as? UUID == identity)
        #expect(try again.value(forKey: "link") as? URL == URL(string: "https://example.com/a?b"))
    }

    @Test(arguments: [KeyValueConstant.integer(0), .integer(1), .bool(false), .double(.infinity), .double(-0.5),
                      .unsignedInteger(UInt64.max), .array([.integer(1), .string("a")]), .set([.integer(2)]),
                      .dictionary([.string("k"): .double(1)]), .null])
    func taggedValuesRoundTrip(value: KeyValueConstant) throws {
        let encoded = try AtomicFileContents.encode(value)
        let data = try JSONSerialization.data(withJSONObject: ["v": encoded])
        let decoded = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["v"])
        let back = try #require(AtomicFileContents.decode(decoded))
        #expect(String(describing: back) == String(describing: value))
    }

    @Test(arguments: ["", "{", "[1, 2]", #"{"format": "Other"}"#,
                      #"{"format": "ObjectGraph.AtomicFileStore", "formatVersion": 9}"#,
                      #"{"format": "ObjectGraph.AtomicFileStore", "formatVersion": 1, "metadata": {}, "objects": []}"#])
    func damagedFilesAreErrorsAndStayUntouched(text: String) throws {
        let url = try temporaryDirectory().appendingPathComponent("Bad.store")
        try Data(text.utf8).write(to: url)
        do {
            _ = try Self.open(url)
            Issue.record("a damaged file opened")
        } catch let error as FileStoreError {
            guard case .damaged = error.code else { Issue.record("\(error)"); return }
            #expect(error.path == url.path)
            #expect(error.localizedDescription.hasPrefix(url.path))
        }
        #expect(try Data(contentsOf: url) == Data(text.utf8))
    }

    @Test func aTruncatedFileIsAnErrorAndTheFileStays() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try Self.open(url))
        let whole = try Data(contentsOf: url)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: url)
        #expect(throws: FileStoreError.self) { _ = try Self.open(url) }
        #expect(try Data(contentsOf: url) == truncated)
    }

    @Test func anotherModelsFileIsRefusedNamingTheEntities() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try Self.open(url))
        let before = try Data(contentsOf: url)
        let other = try ManagedObjectModel(entities: [EntityDescription(name: "Stand", properties: [.attribute("title", .string)])])
        #expect(throws: FileStoreError(.incompatibleModel(["Apple", "Crate", "Fruit", "Orange", "Stand"]), path: url.path)) {
            _ = try Self.open(url, model: other)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func savesReplaceTheFileWholeAndLeaveNoTemporaryFiles() throws {
        let directory = try temporaryDirectory()
        let url = directory.appendingPathComponent("Fruit.store")
        let context = try Self.open(url)
        try FruitStandModel.stock(context)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Market", forKey: "name")
        try context.save()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Fruit.store"])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""format":"ObjectGraph.AtomicFileStore""#) && text.contains("Market"))
    }

    @Test func aValueWithoutAFileFormIsRefusedAndNothingChanges() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        let store = AtomicFileStore(url: url)
        try PersistentStoreCoordinator(model: try FruitStandModel.make()).addStore(store)
        let before = try Data(contentsOf: url)
        struct Opaque: Hashable, Sendable {}
        let id = try #require(try store.newObjectIDs(for: ["Stand"]).first)
        let row = StoreRow(objectID: id, version: 0, attributes: ["name": KeyValueConstant(Opaque())])
        #expect(throws: FileStoreError.self) { _ = try store.save(StoreSaveChanges(inserted: [row])) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try store.row(for: id) == nil)
    }

    @Test func conflictsAreReportedAsOnEveryStore() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        let context = try Self.open(url)
        try FruitStandModel.stock(context)
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let mirror = try #require(try other.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Market", forKey: "name")
        try context.save()
        try mirror.setValue("Bazaar", forKey: "name")
        #expect(throws: (any Error).self) { try other.save() }
        #expect(try String(contentsOf: url, encoding: .utf8).contains("Market"))
    }

    @Test func metadataIsReadWithoutLoadingAndTheStoreCanBeDestroyed() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        let model = try FruitStandModel.make()
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(with: StoreDescription(type: AtomicFileStore.type, url: url))
        let metadata = try #require(try PersistentStoreCoordinator.metadataForStore(at: url, type: "Binary"))
        #expect(metadata[StoreMetadata.storeUUIDKey] as? String == store.identifier)
        #expect(metadata[StoreMetadataKey.modelVersionHashes] as? [String: Data] == model.entityVersionHashesByName)
        #expect(try coordinator.isStoreCompatible(at: url, type: "Binary"))
        coordinator.removeStore(store)
        try PersistentStoreCoordinator.destroyPersistentStore(at: url, type: "Binary")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try PersistentStoreCoordinator.metadataForStore(at: url, type: "Binary") == nil)
        #expect(throws: StoreManagementError.self) { try PersistentStoreCoordinator.destroyPersistentStore(at: url, type: "InMemory") }
        #expect(PersistentStoreCoordinator.registeredStoreTypes.contains("Binary"))
    }
}
