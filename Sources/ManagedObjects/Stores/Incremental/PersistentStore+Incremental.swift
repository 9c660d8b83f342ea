// What a store author gets for free: related IDs read from rows, and reference objects ↔ IDs.
import Foundation

extension PersistentStore {
    /// The relationship's IDs from the object's row (the default): a store that always puts
    /// every relationship in its rows never gets this call.
    ///
    /// - Parameters:
    ///   - relationship: The relationship's name.
    ///   - id: A permanent ID of this store.
    /// - Returns: The related IDs, or none when the store has no such object.
    /// - Throws: The errors of ``row(for:)``.
    public func objectIDs(forRelationship relationship: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        try row(for: id)?.relationships[relationship] ?? []
    }

    /// ``objectIDs(forRelationship:of:)`` for each object (the default).
    ///
    /// - Parameters:
    ///   - relationship: The relationship's name.
    ///   - ids: Permanent IDs of this store.
    /// - Returns: The related IDs by object.
    /// - Throws: The errors of ``objectIDs(forRelationship:of:)``.
    public func objectIDs(forRelationship relationship: String, ofObjects ids: [ManagedObjectID]) throws -> [ManagedObjectID: [ManagedObjectID]] {
        var result: [ManagedObjectID: [ManagedObjectID]] = [:]
        result.reserveCapacity(ids.count)
        for id in ids { result[id] = try objectIDs(forRelationship: relationship, of: id) }
        return result
    }

    /// The ID of an object of this store with a key of the backing data (Apple:
    /// `newObjectID(for:referenceObject:)`): the same entity and key always give an equal ID,
    /// whose URI stays valid across launches as long as the store's ``identifier`` does.
    ///
    /// ```swift
    /// let id = store.newObjectID(forEntityNamed: "Bug", referenceObject: .integer(42))
    /// store.referenceObject(for: id)   // .integer(42)
    /// ```
    ///
    /// - Parameters:
    ///   - entityName: The object's entity.
    ///   - referenceObject: The object's key in the backing data (an integer or a string).
    /// - Returns: A permanent ID of this store.
    public func newObjectID(forEntityNamed entityName: String, referenceObject: ManagedObjectID.ReferenceObject) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: identifier, referenceObject: referenceObject)
    }

    /// The key in the backing data of an object of this store (Apple: `referenceObject(for:)`),
    /// or `nil` for a temporary ID or an ID of another store.
    ///
    /// - Parameter id: An object ID.
    /// - Returns: The reference object given to ``newObjectID(forEntityNamed:referenceObject:)``.
    public func referenceObject(for id: ManagedObjectID) -> ManagedObjectID.ReferenceObject? {
        guard !id.isTemporaryID, id.storeIdentifier == identifier else { return nil }
        return id.referenceObject
    }
}

extension ManagedObjectID.ReferenceObject {
    /// The integer key, or `nil` for a string or temporary key.
    public var integerValue: Int64? {
        if case .integer(let key) = self { return key }
        return nil
    }

    /// The string key, or `nil` for an integer or temporary key.
    public var stringValue: String? {
        if case .string(let key) = self { return key }
        return nil
    }
}

extension PersistentStore {
    /// `nil`: the store cannot read its metadata before loading (the default).
    public func savedMetadata() throws -> [String: any Sendable]? { nil }

    /// Throws ``StoreManagementError/unsupported(_:)``: the store has no backing data it knows
    /// how to remove (the default).
    public func destroy() throws { throw StoreManagementError.unsupported("the \(storeType) store cannot be destroyed") }
}
