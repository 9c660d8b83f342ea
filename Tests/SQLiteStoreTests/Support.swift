import Foundation
import ManagedObjects
@testable import SQLiteStore

/// A fresh temporary directory per test, removed by the caller's `defer`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// A copy of a store of Tests/ManagedObjectsTests/Fixtures/stores (or of this target's
    /// Fixtures/stores).
    func copyOfFixture(_ relativePath: String, inSQLiteStoreTests: Bool = false) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(inSQLiteStoreTests ? "SQLiteStoreTests/Fixtures/stores" : "ManagedObjectsTests/Fixtures/stores")
            .appendingPathComponent(relativePath)
        let target = file(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        // The copy is written to, whatever the checkout's permissions (a read-only fixture
        // would make a read-only copy).
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        return target
    }
}

/// A coordinator with one SQLite store at `url`, and a context on it.
func openStack(_ model: ManagedObjectModel, at url: URL) throws -> (SQLitePersistentStore, ManagedObjectContext) {
    let coordinator = PersistentStoreCoordinator(model: model)
    let store = SQLitePersistentStore(url: url)
    try coordinator.addStore(store)
    return (store, ManagedObjectContext(coordinator: coordinator))
}

/// Rows of a query on a store file, through a separate connection (the test's view of the file).
func query(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
    try SQLiteConnection(path: url.path, mode: .readOnly).rows(sql)
}

enum Models {
    /// Every attribute type, an ordered to-many into an entity with a subentity, and a
    /// many-to-many.
    static func library() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("small", .integer16), .attribute("medium", .integer32), .attribute("large", .integer64),
                .attribute("flag", .boolean), .attribute("ratio", .double), .attribute("weight", .float),
                .attribute("price", .decimal), .attribute("name", .string), .attribute("when", .date),
                .attribute("bytes", .binaryData), .attribute("identity", .uuid), .attribute("link", .uri),
            ]),
            EntityDescription(name: "Shelf", properties: [
                .attribute("label", .string),
                .toMany("books", "Book", inverse: "shelf", ordered: true),
            ]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string),
                .toOne("shelf", "Shelf", inverse: "books"),
                .toMany("tags", "Tag", inverse: "books"),
            ]),
            EntityDescription(name: "Novel", parent: "Book", properties: [.attribute("genre", .string)]),
            EntityDescription(name: "Tag", properties: [
                .attribute("name", .string),
                .toMany("books", "Book", inverse: "tags"),
                .toOne("favourite", "Book", inverse: nil),
            ]),
        ])
    }
}

extension ManagedObject {
    /// The value for `key`, `nil` when reading it fails.
    func stored(_ key: String) -> Any? { try? value(forKey: key) }
}
