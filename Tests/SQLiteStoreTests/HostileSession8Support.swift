import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

// Shared setup of the session-8 hostile tests: a model with every attribute type (transformable
// too), a subentity sharing its root's table, a to-one with an ordered to-many inverse
// (cascade) and a many-to-many; the same stack on the SQLite store or the in-memory store.

/// Which store a hostile test runs on.
enum H8Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, memory
    var testDescription: String { rawValue }
}

enum H8 {
    static let keys = ["small", "medium", "large", "flag", "ratio", "weight", "price", "name", "when",
                       "bytes", "identity", "link", "payload"]

    static func model() throws -> ManagedObjectModel {
        var code = EntityDescription(name: "Code", properties: [.attribute("code", .string), .attribute("rank", .integer64)])
        code.uniquenessConstraints = [["code"]]
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Thing", properties: [
                .attribute("small", .integer16), .attribute("medium", .integer32), .attribute("large", .integer64),
                .attribute("flag", .boolean), .attribute("ratio", .double), .attribute("weight", .float),
                .attribute("price", .decimal), .attribute("name", .string), .attribute("when", .date),
                .attribute("bytes", .binaryData), .attribute("identity", .uuid), .attribute("link", .uri),
                .attribute("payload", .transformable), .attribute("serial", .integer64),
                .toOne("box", "Box", inverse: "things"),
                .toMany("tags", "Tag", inverse: "things"),
            ]),
            EntityDescription(name: "SubThing", parent: "Thing", properties: [.attribute("extra", .string)]),
            EntityDescription(name: "Box", properties: [
                .attribute("label", .string),
                .toMany("things", "Thing", inverse: "box", ordered: true, deleteRule: .cascade),
            ]),
            EntityDescription(name: "Tag", properties: [
                .attribute("name", .string),
                .toMany("things", "Thing", inverse: "tags"),
            ]),
            code,
        ])
    }

    static let firstUUID = UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115")!
    static let secondUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    /// The rows of the model's one join table (Thing.tags ↔ Tag.things).
    static func joinRows(_ url: URL) throws -> Int64 {
        let tables = try query(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
        guard tables.count == 1, case .text(let table) = tables[0][0] else { throw CocoaError(.fileReadUnknown) }
        guard case .integer(let count) = try query(url, "SELECT count(*) FROM \(table)").first?.first else { return -1 }
        return count
    }

    /// Variant 0 and 1 of each attribute's value (2: nil).
    static func value(_ key: String, _ variant: Int) -> Any? {
        guard variant < 2 else { return nil }
        let first = variant == 0
        switch key {
        case "small": return first ? Int16(-7) : Int16.max
        case "medium": return first ? Int32(70_000) : Int32.min
        case "large": return first ? Int64.max : Int64(-1)
        case "flag": return first
        case "ratio": return first ? 0.1 : Double.nan
        case "weight": return first ? Float(2.5) : Float(16_777_216)
        case "price": return first ? Decimal(string: "10.11")! : Decimal(-3)
        case "name": return first ? "Ünïcode ✓" : ""
        case "when": return Date(timeIntervalSinceReferenceDate: first ? 639_503_569.5 : -1e9)
        case "bytes": return first ? Data([0, 1, 2, 255]) : Data([7])
        case "identity": return first ? firstUUID : secondUUID
        case "link": return URL(string: first ? "https://example.com/a?b=1" : "file:///tmp/x%20y")!
        case "payload": return first ? ["a", "b"] : ["ü"]
        default: return nil
        }
    }

    /// Whether `stored` is `value(key, variant)`.
    static func matches(_ key: String, _ stored: Any?, _ variant: Int) -> Bool {
        let expected = value(key, variant)
        guard let expected else { return stored == nil }
        guard let stored else { return false }
        switch key {
        case "small": return stored as? Int16 == expected as? Int16
        case "medium": return stored as? Int32 == expected as? Int32
        case "large": return stored as? Int64 == expected as? Int64
        case "flag": return stored as? Bool == expected as? Bool
        case "ratio":
            guard let a = stored as? Double, let b = expected as? Double else { return false }
            return a == b || (a.isNaN && b.isNaN)
        case "weight": return stored as? Float == expected as? Float
        case "price": return stored as? Decimal == expected as? Decimal
        case "name": return stored as? String == expected as? String
        case "when": return stored as? Date == expected as? Date
        case "bytes": return stored as? Data == expected as? Data
        case "identity": return stored as? UUID == expected as? UUID
        case "link": return stored as? URL == expected as? URL
        case "payload": return (stored as? [Any])?.compactMap { $0 as? String } == expected as? [String]
        default: return false
        }
    }

    /// Sets every attribute of `object` to `variant`, except `except`.
    static func fill(_ object: ManagedObject, _ variant: Int, except: Set<String> = []) throws {
        for key in keys where !except.contains(key) { try object.setValue(value(key, variant), forKey: key) }
    }

    /// Expects every attribute of `object` but `except` to be `variants[key] ?? base`.
    static func expect(_ object: ManagedObject, _ base: Int, _ variants: [String: Int] = [:], _ label: String = "",
                       except: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys where !except.contains(key) {
            let variant = variants[key] ?? base
            let stored = try? object.value(forKey: key)
            #expect(matches(key, stored, variant), "\(label) \(key): \(String(describing: stored)), expected variant \(variant)",
                    sourceLocation: sourceLocation)
        }
    }
}

/// One coordinator on a SQLite file or an in-memory store, and a context; `fresh()` gives a
/// context that reads the store again (SQLite: a new coordinator on the file; in memory: a new
/// context that never takes cached rows).
final class H8Stack {
    let kind: H8Kind
    let directory: TemporaryDirectory?
    let url: URL?
    let coordinator: PersistentStoreCoordinator
    let store: any PersistentStore
    let context: ManagedObjectContext
    /// The contexts `fresh()` made, kept so that the objects they return stay usable.
    private var readers: [ManagedObjectContext] = []

    init(_ kind: H8Kind, model: ManagedObjectModel? = nil) throws {
        self.kind = kind
        let model = try model ?? H8.model()
        coordinator = PersistentStoreCoordinator(model: model)
        switch kind {
        case .sqlite:
            let directory = try TemporaryDirectory()
            self.directory = directory
            let url = directory.file("H8.sqlite")
            self.url = url
            let store = SQLitePersistentStore(url: url)
            try coordinator.addStore(store)
            self.store = store
        case .memory:
            directory = nil
            url = nil
            let store = InMemoryStore()
            try coordinator.addStore(store)
            self.store = store
        }
        context = ManagedObjectContext(coordinator: coordinator)
    }

    deinit { directory?.remove() }

    /// `count` saved things, each with every attribute of `variant` and its index as serial.
    func savedThings(_ count: Int, variant: Int = 0) throws -> [ManagedObject] {
        let things = try (0..<count).map { index in
            let thing = try context.insertNewObject(forEntityNamed: "Thing")
            try H8.fill(thing, variant)
            try thing.setValue(Int64(index), forKey: "serial")
            return thing
        }
        try context.save()
        return things
    }

    /// A context that reads what the store holds now.
    func fresh() throws -> ManagedObjectContext {
        let context: ManagedObjectContext
        if let url {
            let coordinator = PersistentStoreCoordinator(model: self.coordinator.model)
            try coordinator.addStore(SQLitePersistentStore(url: url))
            context = ManagedObjectContext(coordinator: coordinator)
        } else {
            context = ManagedObjectContext(coordinator: coordinator)
            context.stalenessInterval = 0
        }
        readers.append(context)
        return context
    }

    /// A context that conflicts with `context` (SQLite: another coordinator on the file; in
    /// memory: another context of the coordinator).
    func rival() throws -> ManagedObjectContext {
        if kind == .sqlite { return try fresh() }
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The stored row of `id`, read by a fresh context's store.
    func storedRow(_ id: ManagedObjectID) throws -> StoreRow? {
        let context = try fresh()
        let store = try #require(context.coordinator?.stores.first)
        return try store.row(for: id)
    }

    /// The stored version of `id` (nil: no row).
    func version(_ id: ManagedObjectID) throws -> Int64? { try storedRow(id)?.version }

    /// The object `id` in a fresh context.
    func reread(_ id: ManagedObjectID) throws -> ManagedObject { try fresh().existingObject(with: id) }

    /// The number of objects of `entity` (subentities included) the store holds.
    func count(_ entity: String) throws -> Int { try fresh().count(for: EntityFetchRequest(entityName: entity)) }
}
