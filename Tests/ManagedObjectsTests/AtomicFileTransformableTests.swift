import Foundation
import Testing
import ManagedObjects

/// The atomic file store keeps a transformable attribute's value that has no form of its own in
/// the file (an app's struct) as its value transformer's data, as the SQLite store does, and
/// reads it back through the transformer (trial14 F8: it refused the value, so a store holding
/// one could not be moved to the file store).
@Suite(.serialized) struct AtomicFileTransformableTests {
    struct Tint: Codable, Sendable, Equatable { var red: Double; var name: String }

    static let transformerName = "AtomicFileTransformableTests.Tint"

    static func model() throws -> ManagedObjectModel {
        var tint = AttributeDescription(name: "tint", type: .transformable)
        tint.valueTransformerName = transformerName
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .attribute(tint)]),
        ])
    }

    @Test func aTransformableValueIsSavedAsTheTransformersDataAndReadBack() throws {
        AttributeValueTransformers.register(CodableValueTransformer<Tint>(), named: Self.transformerName)
        defer { AttributeValueTransformers.unregister(named: Self.transformerName) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("Transformable-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        let tint = Tint(red: 0.25, name: "dusk")
        do {
            let coordinator = PersistentStoreCoordinator(model: try Self.model())
            try coordinator.addStore(AtomicFileStore(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue("Nocturne", forKey: "title")
            try book.setValue(tint, forKey: "tint")
            try context.save()
        }
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text.contains(#""transformed""#))
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        try coordinator.addStore(AtomicFileStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try #require(try context.fetch(EntityFetchRequest(entityName: "Book")).first)
        #expect(try book.value(forKey: "tint") as? Tint == tint)
        #expect(try book.value(forKey: "title") as? String == "Nocturne")
    }

    @Test func withoutItsTransformerTheFileIsRefusedByName() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("Transformable-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            AttributeValueTransformers.register(CodableValueTransformer<Tint>(), named: Self.transformerName)
            defer { AttributeValueTransformers.unregister(named: Self.transformerName) }
            let coordinator = PersistentStoreCoordinator(model: try Self.model())
            try coordinator.addStore(AtomicFileStore(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.insertNewObject(forEntityNamed: "Book").setValue(Tint(red: 1, name: "red"), forKey: "tint")
            try context.save()
        }
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        #expect { try coordinator.addStore(AtomicFileStore(url: url)) } throws: { error in
            ((error as? any LocalizedError)?.errorDescription ?? "\(error)").contains(Self.transformerName)
        }
    }
}
