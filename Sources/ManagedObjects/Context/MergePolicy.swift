// Merge policies: what a save does about conflicts with the store.
import Foundation

/// How a save resolves conflicts with the store (Apple: `NSMergePolicy`).
///
/// A save meets two kinds of conflicts. An optimistic-locking conflict (``MergeConflict``): an
/// object's row changed or was deleted in the store since the context read it. A constraint
/// conflict (``ConstraintConflict``): objects would share the values of a uniqueness constraint
/// of their entity. The context's ``ManagedObjectContext/mergePolicy`` resolves them, then the
/// save is tried again:
///
/// | Policy | Optimistic-locking conflict | Constraint conflict |
/// | --- | --- | --- |
/// | ``error`` | the save throws ``ManagedObjectMergeError`` | the save throws |
/// | ``mergeByPropertyStoreTrump`` | per property: the store's changes win, the object keeps its changes of other properties | the stored row (or the oldest object) wins; the others are dropped (new) or refreshed (changed) |
/// | ``mergeByPropertyObjectTrump`` | per property: the object's changes win, the store's changes of other properties are taken | the object wins: it takes the stored row's identity (new values over the row's) and the duplicates go away |
/// | ``overwrite`` | the object's values are written whole | as object trump, every value of the object written |
/// | ``rollback`` | the object's changes are dropped; it takes the store's values | as store trump |
///
/// Saves through one coordinator take turns while they resolve and write (one lock of the
/// coordinator): with a built-in policy other than ``error``, a save never fails because other
/// contexts of its coordinator keep changing the same rows (another coordinator or process
/// still can, after a few rounds). A policy runs while that lock is held: it must not wait for
/// another context of the coordinator to save.
///
/// A row deleted in the store stays deleted: the object leaves the context under every policy
/// but ``error``. An object deleted in the context whose row changed is deleted by the object
/// trump and overwrite policies, and comes back with the store's values under the store trump
/// and rollback policies.
///
/// Subclass to customise: override ``resolve(optimisticLockingConflicts:in:)`` or
/// ``resolve(constraintConflicts:in:)``, change objects of the context, and call `super`
/// (Apple recommends the same).
///
/// - Important: Thread safety: the built-in policies are immutable; a policy is used on its
///   context's thread.
open class MergePolicy {
    /// The built-in policies (Apple: `NSMergePolicyType`).
    public enum Kind: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// Conflicts make the save throw (Apple: `errorMergePolicyType`).
        case error = 0
        /// Per property, the store's changes win (Apple: `mergeByPropertyStoreTrumpMergePolicyType`).
        case mergeByPropertyStoreTrump = 1
        /// Per property, the object's changes win (Apple: `mergeByPropertyObjectTrumpMergePolicyType`).
        case mergeByPropertyObjectTrump = 2
        /// The object's state is written whole (Apple: `overwriteMergePolicyType`).
        case overwrite = 3
        /// The object's changes are dropped (Apple: `rollbackMergePolicyType`).
        case rollback = 4

        /// The policy's name.
        public var description: String {
            switch self {
            case .error: return "error"
            case .mergeByPropertyStoreTrump: return "mergeByPropertyStoreTrump"
            case .mergeByPropertyObjectTrump: return "mergeByPropertyObjectTrump"
            case .overwrite: return "overwrite"
            case .rollback: return "rollback"
            }
        }
    }

    /// The built-in behaviour this policy follows (Apple: `mergeType`).
    public let kind: Kind

    /// Creates a policy of a kind; a subclass passes the kind closest to what it wants (Apple:
    /// `init(merge:)`).
    ///
    /// - Parameter kind: The built-in behaviour.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// The default: a conflict makes the save throw (Apple: `NSMergePolicy.error`).
    public static var error: MergePolicy { MergePolicy(kind: .error) }
    /// Per property, the store's changes win (Apple: `NSMergePolicy.mergeByPropertyStoreTrump`).
    public static var mergeByPropertyStoreTrump: MergePolicy { MergePolicy(kind: .mergeByPropertyStoreTrump) }
    /// Per property, the object's changes win (Apple: `NSMergePolicy.mergeByPropertyObjectTrump`).
    public static var mergeByPropertyObjectTrump: MergePolicy { MergePolicy(kind: .mergeByPropertyObjectTrump) }
    /// The object is written whole (Apple: `NSMergePolicy.overwrite`).
    public static var overwrite: MergePolicy { MergePolicy(kind: .overwrite) }
    /// The object's changes are dropped (Apple: `NSMergePolicy.rollback`).
    public static var rollback: MergePolicy { MergePolicy(kind: .rollback) }

    /// Resolves the optimistic-locking conflicts of a save, by changing the objects of `context`
    /// (Apple: `resolve(optimisticLockingConflicts:)`). Called before
    /// ``resolve(constraintConflicts:in:)``; the save is tried again afterwards.
    ///
    /// - Parameters:
    ///   - conflicts: The conflicts, each naming a registered object of `context`.
    ///   - context: The saving context.
    /// - Throws: ``ManagedObjectMergeError`` for the ``error`` policy.
    open func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
        guard kind != .error else { throw ManagedObjectMergeError(mergeConflicts: conflicts) }
        for conflict in conflicts { context.resolve(conflict, by: kind) }
    }

    /// Resolves the uniqueness-constraint conflicts of a save, by changing the objects of
    /// `context` (Apple: `resolve(constraintConflicts:)`); the save is tried again afterwards.
    ///
    /// - Parameters:
    ///   - conflicts: The conflicts.
    ///   - context: The saving context.
    /// - Throws: ``ManagedObjectMergeError`` for the ``error`` policy.
    open func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ManagedObjectContext) throws {
        guard kind != .error else { throw ManagedObjectMergeError(constraintConflicts: conflicts) }
        for conflict in conflicts { try context.resolve(conflict, by: kind) }
    }
}

extension MergePolicy: CustomStringConvertible {
    /// The kind's name.
    public var description: String { "MergePolicy(\(kind))" }
}
