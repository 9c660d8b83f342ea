// Conflicts a save can meet: optimistic-locking conflicts and uniqueness-constraint conflicts,
// and the error that lists them.
import Foundation
import Predicates

/// An object whose store row changed (or was deleted) since the context read it: an
/// optimistic-locking conflict found by a save (Apple: `NSMergeConflict`).
///
/// A snapshot is the object's row as a ``StoreRow``: its attributes, and its relationships as
/// object IDs (to-many ones included, where Apple's snapshots leave them out).
///
/// - Important: Thread safety: `Sendable`; it names the object by ID.
public struct MergeConflict: Sendable, Hashable {
    /// The object of the conflict (Apple: `sourceObject`; find it with
    /// ``ManagedObjectContext/registeredObject(for:)``).
    public var objectID: ManagedObjectID
    /// The object's current values in the context (Apple: `objectSnapshot`).
    public var objectSnapshot: StoreRow?
    /// The values the context last read or saved: the object's committed values, at
    /// ``oldVersionNumber`` (Apple: `cachedSnapshot`).
    public var cachedSnapshot: StoreRow?
    /// The row in the store now, or `nil` when the store deleted it (Apple: `persistedSnapshot`).
    public var persistedSnapshot: StoreRow?
    /// The store's version of the row; 0 when the row was deleted (Apple: `newVersionNumber`).
    public var newVersionNumber: Int64
    /// The version the context's values came from (Apple: `oldVersionNumber`).
    public var oldVersionNumber: Int64
    /// Whether the object is deleted in the context (the save would delete it).
    public var isDeletedInContext: Bool

    /// Creates a conflict (Apple: `init(source:newVersion:oldVersion:cachedSnapshot:persistedSnapshot:)`).
    ///
    /// - Parameters:
    ///   - objectID: The object.
    ///   - objectSnapshot: Its current values.
    ///   - cachedSnapshot: The values it was read with.
    ///   - persistedSnapshot: The store's row now; `nil` when deleted.
    ///   - newVersionNumber: The store's version; 0 when deleted.
    ///   - oldVersionNumber: The version it was read at.
    ///   - isDeletedInContext: Whether the save would delete it.
    public init(objectID: ManagedObjectID, objectSnapshot: StoreRow?, cachedSnapshot: StoreRow?,
                persistedSnapshot: StoreRow?, newVersionNumber: Int64, oldVersionNumber: Int64,
                isDeletedInContext: Bool = false) {
        self.objectID = objectID
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        self.newVersionNumber = newVersionNumber
        self.oldVersionNumber = oldVersionNumber
        self.isDeletedInContext = isDeletedInContext
    }
}

/// Objects that would break a uniqueness constraint of their entity: several objects of the
/// context with the same constraint values, or an object of the context and a row already in
/// the store (Apple: `NSConstraintConflict`).
///
/// - Important: Thread safety: `Sendable`; it names the objects by ID.
public struct ConstraintConflict: Sendable, Hashable {
    /// The constraint's property names (Apple: `constraint`).
    public var constraint: [String]
    /// The values the conflicting objects share, by property name; a to-one relationship's value
    /// is the related object's ID (Apple: `constraintValues`).
    public var constraintValues: [String: KeyValueConstant]
    /// The object whose store row already has the values; `nil` when the conflict is between
    /// objects of the context only (Apple: `databaseObject`).
    public var databaseObjectID: ManagedObjectID?
    /// That row (Apple: `databaseSnapshot`).
    public var databaseSnapshot: StoreRow?
    /// The objects of the context that have the values, in the order they were registered
    /// (Apple: `conflictingObjects`).
    public var conflictingObjectIDs: [ManagedObjectID]
    /// Their committed values, one per object; `nil` for an object inserted since the last save
    /// (Apple: `conflictingSnapshots`).
    public var conflictingSnapshots: [StoreRow?]

    /// Creates a conflict (Apple: `init(constraint:databaseObject:databaseSnapshot:conflictingObjects:conflictingSnapshots:)`).
    ///
    /// - Parameters:
    ///   - constraint: The constraint's property names.
    ///   - constraintValues: The shared values by property name.
    ///   - databaseObjectID: The stored row's object, or `nil`.
    ///   - databaseSnapshot: The stored row, or `nil`.
    ///   - conflictingObjectIDs: The objects of the context.
    ///   - conflictingSnapshots: Their committed values (`nil` for new objects), one per object.
    public init(constraint: [String], constraintValues: [String: KeyValueConstant], databaseObjectID: ManagedObjectID?,
                databaseSnapshot: StoreRow?, conflictingObjectIDs: [ManagedObjectID], conflictingSnapshots: [StoreRow?]) {
        self.constraint = constraint
        self.constraintValues = constraintValues
        self.databaseObjectID = databaseObjectID
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjectIDs = conflictingObjectIDs
        self.conflictingSnapshots = conflictingSnapshots
    }
}

/// A save that met conflicts its context's merge policy did not resolve: the ``MergePolicy/error``
/// policy's answer (Apple: an `NSError` of `NSCocoaErrorDomain` with code
/// `NSManagedObjectMergeError` (133020) or `NSManagedObjectConstraintMergeError` (133021) and the
/// conflicts under `conflictList`).
///
/// Nothing was saved: the context keeps its changes. Resolve the conflicts (refresh the objects,
/// change them) and save again, or set another ``ManagedObjectContext/mergePolicy``.
///
/// - Important: Thread safety: `Sendable`.
public struct ManagedObjectMergeError: Error, Sendable, Hashable {
    /// Apple's code of an optimistic-locking failure, `NSManagedObjectMergeError`.
    public static let mergeErrorCode = 133020
    /// Apple's code of a uniqueness-constraint failure, `NSManagedObjectConstraintMergeError`.
    public static let constraintMergeErrorCode = 133021

    /// ``mergeErrorCode`` when the save met optimistic-locking conflicts, else
    /// ``constraintMergeErrorCode``.
    public var code: Int
    /// The optimistic-locking conflicts (Apple: the `NSMergeConflict`s of `conflictList`).
    public var mergeConflicts: [MergeConflict]
    /// The constraint conflicts (Apple: the `NSConstraintConflict`s of `conflictList`).
    public var constraintConflicts: [ConstraintConflict]

    /// Creates an error listing conflicts; the code follows from which kinds are present.
    ///
    /// - Parameters:
    ///   - mergeConflicts: The optimistic-locking conflicts.
    ///   - constraintConflicts: The constraint conflicts.
    public init(mergeConflicts: [MergeConflict] = [], constraintConflicts: [ConstraintConflict] = []) {
        self.mergeConflicts = mergeConflicts
        self.constraintConflicts = constraintConflicts
        self.code = mergeConflicts.isEmpty ? Self.constraintMergeErrorCode : Self.mergeErrorCode
    }
}

extension ManagedObjectMergeError: CustomNSError {
    /// `NSCocoaErrorDomain`, as Apple's merge errors.
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// ``code``: `(error as NSError).code` is 133020 or 133021 as on Apple platforms.
    public var errorCode: Int { code }

    /// The description under `NSLocalizedDescriptionKey`, and the conflicts under
    /// `"conflictList"` (Apple's key), as ``MergeConflict`` and ``ConstraintConflict`` values.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: description,
         "conflictList": mergeConflicts.map { $0 as Any } + constraintConflicts.map { $0 as Any }]
    }
}

extension ManagedObjectMergeError: LocalizedError, CustomStringConvertible {
    /// A sentence per conflict: the object, its versions and its snapshots.
    public var description: String {
        var lines = ["the save met \(mergeConflicts.count + constraintConflicts.count) conflict(s) (error \(code)):"]
        for conflict in mergeConflicts {
            let store = conflict.persistedSnapshot.map { "store has version \(conflict.newVersionNumber) \(Self.values($0))" }
                ?? "the store deleted it"
            let object = conflict.isDeletedInContext ? "deleted in the context" : conflict.objectSnapshot.map(Self.values) ?? "-"
            lines.append("- \(conflict.objectID): read at version \(conflict.oldVersionNumber) "
                         + "\(conflict.cachedSnapshot.map(Self.values) ?? "-"), \(store); object: \(object)")
        }
        for conflict in constraintConflicts {
            let values = conflict.constraint.map { "\($0) = \(conflict.constraintValues[$0].map(String.init(describing:)) ?? "nil")" }
            let objects = conflict.conflictingObjectIDs.map(\.description).joined(separator: ", ")
            let database = conflict.databaseObjectID.map { ", and the stored \($0)" } ?? ""
            lines.append("- uniqueness constraint (\(values.joined(separator: ", "))) shared by \(objects)\(database)")
        }
        return lines.joined(separator: "\n")
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    private static func values(_ row: StoreRow) -> String {
        let attributes = row.attributes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let relationships = row.relationships.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.map(\.description))" }
        return "{" + (attributes + relationships).joined(separator: ", ") + "}"
    }
}
