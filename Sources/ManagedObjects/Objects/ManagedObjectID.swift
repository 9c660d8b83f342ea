// Object IDs: the Sendable identity of a managed object across contexts and queues.
import Foundation
import Synchronization

/// The identity of a managed object: its entity, its store and its key in the store
/// (Apple: `NSManagedObjectID`).
///
/// An ID is temporary from insert until the object's first save reaches a store, then
/// permanent. IDs are values: `Sendable`, `Hashable`, and the way objects cross queues and
/// contexts (pass the ID, look the object up on the other side).
///
/// ```swift
/// let id = ManagedObjectID(entityName: "Movie", storeIdentifier: storeUUID, primaryKey: 7)
/// id.uriRepresentation()   // x-coredata://<store UUID>/Movie/p7
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct ManagedObjectID: Sendable, Hashable {
    /// The key of an object inside its store (Apple: a store's reference object).
    public enum ReferenceObject: Sendable, Hashable {
        /// An integer primary key (`Z_PK` in Core Data's SQLite layout).
        case integer(Int64)
        /// A string key, as a custom store may use.
        case string(String)
        /// A temporary key, before the object's first save.
        case temporary(UUID)
    }

    /// The name of the object's entity.
    public let entityName: String
    /// The identifier (UUID string) of the store the object lives in; `nil` while temporary.
    public let storeIdentifier: String?
    /// The object's key in its store.
    public let referenceObject: ReferenceObject
    /// The entity name's hash, computed once: IDs are dictionary keys everywhere (registered
    /// objects, store rows), and hashing the name's characters on each look-up cost more than
    /// the rest of the look-up.
    private let entityNameHash: Int

    /// A permanent ID.
    ///
    /// - Parameters:
    ///   - entityName: The entity's name.
    ///   - storeIdentifier: The store's identifier (its metadata UUID).
    ///   - referenceObject: The object's key in the store.
    public init(entityName: String, storeIdentifier: String, referenceObject: ReferenceObject) {
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, reference: referenceObject)
    }

    /// A permanent ID with an integer primary key.
    public init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, referenceObject: .integer(primaryKey))
    }

    /// A new temporary ID, unique in the process (what an insert assigns).
    ///
    /// - Parameter entityName: The entity's name.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: nil, reference: .temporary(TemporaryIDs.next()))
    }

    private init(entityName: String, storeIdentifier: String?, reference: ReferenceObject) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.referenceObject = reference
        self.entityNameHash = entityName.hashValue
    }

    private init(copying template: ManagedObjectID, reference: ReferenceObject) {
        entityName = template.entityName
        storeIdentifier = template.storeIdentifier
        referenceObject = reference
        entityNameHash = template.entityNameHash
    }

    /// The ID of another object of the same entity and store, with the integer key `key`
    /// (a store reading many rows hashes the entity's name once).
    package func withPrimaryKey(_ key: Int64) -> ManagedObjectID {
        ManagedObjectID(copying: self, reference: .integer(key))
    }

    /// Whether both name the same object: same entity, store and reference.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.referenceObject == rhs.referenceObject && lhs.entityNameHash == rhs.entityNameHash
            && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the reference and the entity's name (its hash, computed once); the store
    /// identifier takes part in equality only (the IDs a context or store holds are mostly
    /// of one store).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityNameHash)
        switch referenceObject {
        case .integer(let key): hasher.combine(key)
        case .string(let key): hasher.combine(key)
        case .temporary(let uuid): hasher.combine(uuid)
        }
    }

    /// Whether the ID is temporary: the object has not been saved to a store yet
    /// (Apple: `isTemporaryID`).
    public var isTemporaryID: Bool {
        if case .temporary = referenceObject { return true }
        return false
    }

    /// The ID as a URL that stays valid across launches for permanent IDs
    /// (Apple: `uriRepresentation()`): `x-coredata://<store UUID>/<Entity>/p<key>`, and
    /// `x-coredata:///<Entity>/t<UUID>` for a temporary ID. Entity names and string keys are
    /// percent-encoded.
    public func uriRepresentation() -> URL {
        let entity = Self.encode(entityName)
        let text: String
        switch referenceObject {
        case .integer(let key): text = "x-coredata://\(storeIdentifier ?? "")/\(entity)/p\(key)"
        case .string(let key): text = "x-coredata://\(storeIdentifier ?? "")/\(entity)/s\(Self.encode(key))"
        case .temporary(let uuid): text = "x-coredata:///\(entity)/t\(uuid.uuidString)"
        }
        // Every part is percent-encoded above, so the text is always a valid URL.
        return URL(string: text)!
    }

    /// Reads an ID from its URI representation, or returns `nil` when `uri` is not one.
    ///
    /// The coordinator's lookup (Apple: `managedObjectID(forURIRepresentation:)`) also checks
    /// that the store and entity exist; this only parses.
    ///
    /// - Parameter uri: A URL made by ``uriRepresentation()``.
    public init?(uriRepresentation uri: URL) {
        let text = uri.absoluteString
        let prefix = "x-coredata://"
        guard text.hasPrefix(prefix) else { return nil }
        let parts = text.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let entity = parts[1].removingPercentEncoding, !entity.isEmpty,
              let kind = parts[2].first else { return nil }
        let key = parts[2].dropFirst()
        let store = String(parts[0])
        switch kind {
        case "p":
            guard !store.isEmpty, let value = Int64(key) else { return nil }
            self.init(entityName: entity, storeIdentifier: store, reference: .integer(value))
        case "s":
            guard !store.isEmpty, let value = String(key).removingPercentEncoding else { return nil }
            self.init(entityName: entity, storeIdentifier: store, reference: .string(value))
        case "t":
            guard store.isEmpty, let uuid = UUID(uuidString: String(key)) else { return nil }
            self.init(entityName: entity, storeIdentifier: nil, reference: .temporary(uuid))
        default:
            return nil
        }
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension ManagedObjectID: CustomStringConvertible {
    /// The URI representation's text.
    public var description: String { uriRepresentation().absoluteString }
}

/// Temporary IDs: a random per-process half and a counter, so that making one costs an atomic
/// increment rather than reading the system's random source (as `UUID()` does on Linux).
private enum TemporaryIDs {
    private static let processHalf: UInt64 = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UUID {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let high = processHalf, low = count
        return UUID(uuid: (UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
                           UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
                           UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
                           UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
                           UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
                           UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
                           UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
                           UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)))
    }
}
