// Object IDs: the Sendable identity of a managed object across contexts and queues.
import Foundation
import Synchronization
import ObjectGraphInternals

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

    /// The entity, the store and the kind of key, shared by many IDs (see
    /// ``ManagedObjectIDScope``); for a string key or another process's temporary ID, the
    /// whole reference.
    private let scope: ManagedObjectIDScope
    /// The integer key (``ReferenceObject/integer(_:)``), the counter of a temporary ID made by
    /// this process, else 0.
    private let key: Int64

    /// The name of the object's entity.
    public var entityName: String { scope.entityName }
    /// The identifier (UUID string) of the store the object lives in; `nil` while temporary.
    public var storeIdentifier: String? { scope.storeIdentifier }
    /// The object's key in its store.
    public var referenceObject: ReferenceObject {
        switch scope.form {
        case .integer: return .integer(key)
        case .localTemporary: return .temporary(TemporaryIDs.uuid(key))
        case .other(let reference): return reference
        }
    }

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
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, reference: .integer(primaryKey))
    }

    /// A new temporary ID, unique in the process (what an insert assigns).
    ///
    /// - Parameter entityName: The entity's name.
    public static func temporary(entityName: String) -> ManagedObjectID {
        ManagedObjectID(scope: .shared(entityName: entityName, storeIdentifier: nil, form: .localTemporary),
                        key: TemporaryIDs.next())
    }

    /// Each reference has one form: an integer key, and a temporary UUID this process made,
    /// in a shared scope; any other reference in a scope of its own.
    private init(entityName: String, storeIdentifier: String?, reference: ReferenceObject) {
        switch reference {
        case .integer(let key):
            self.init(scope: .shared(entityName: entityName, storeIdentifier: storeIdentifier, form: .integer), key: key)
        case .temporary(let uuid):
            if let count = TemporaryIDs.count(of: uuid) {
                self.init(scope: .shared(entityName: entityName, storeIdentifier: storeIdentifier, form: .localTemporary),
                          key: count)
            } else {
                self.init(scope: .single(entityName: entityName, storeIdentifier: storeIdentifier, reference: reference), key: 0)
            }
        case .string:
            self.init(scope: .single(entityName: entityName, storeIdentifier: storeIdentifier, reference: reference), key: 0)
        }
    }

    private init(scope: ManagedObjectIDScope, key: Int64) {
        self.scope = scope
        self.key = key
    }

    /// The ID of another object of the same entity and store, with the integer key `key`
    /// (a store reading many rows makes every ID from one template: they share its scope).
    package func withPrimaryKey(_ key: Int64) -> ManagedObjectID {
        if case .integer = scope.form { return ManagedObjectID(scope: scope, key: key) }
        return ManagedObjectID(scope: .shared(entityName: entityName, storeIdentifier: storeIdentifier, form: .integer), key: key)
    }

    /// The integer key (``ReferenceObject/integer(_:)``), or `nil` for any other reference:
    /// told by the scope's flags (an integer scope neither holds a reference nor is
    /// temporary), no reference made.
    package var integerKey: Int64? { scope.holdsReference || scope.isTemporary ? nil : key }

    /// Whether both IDs have one scope object, and so the same entity, store and form (an
    /// identity test: IDs of one entity and store made apart may have equal scopes that are
    /// not one object).
    package func sharesScope(with other: ManagedObjectID) -> Bool { scope === other.scope }

    /// Whether both name the same object: same entity, store and reference.
    ///
    /// - Complexity: O(1) for IDs sharing a scope (those a store makes for one entity); else
    ///   the entity names and store identifiers are compared.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && (lhs.scope === rhs.scope || lhs.scope.sameObjects(as: rhs.scope))
    }

    /// Hashes the key and the entity's name (its hash, computed once); the store identifier
    /// takes part in equality only (the IDs a context or store holds are mostly of one store).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(scope.entityNameHash)
        hasher.combine(key)
        if case .other(let reference) = scope.form { hasher.combine(reference) }
    }

    /// The hash a `Set` or `Dictionary` uses: for an integer or this process's temporary key,
    /// the key and the entity name's hash mixed with the collection's seed
    /// (``IdentityHashing``), not a `Hasher` round trip (a save of new objects hashes each
    /// ID into the registry, the store, the row cache and the saved IDs); any other reference
    /// is hashed by ``hash(into:)`` first. Equal IDs have the same key and entity name, so the
    /// same hash.
    public func _rawHashValue(seed: Int) -> Int {
        if scope.holdsReference {
            var hasher = Hasher()
            hash(into: &hasher)
            return IdentityHashing.mix(UInt64(UInt(bitPattern: hasher.finalize())), seed: seed)
        }
        return IdentityHashing.mix(UInt64(UInt(bitPattern: scope.entityNameHash)), UInt64(bitPattern: key), seed: seed)
    }

    /// Whether the ID is temporary: the object has not been saved to a store yet
    /// (Apple: `isTemporaryID`).
    public var isTemporaryID: Bool { scope.isTemporary }

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
