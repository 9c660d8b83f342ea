// The context's inserted, updated and deleted sets, with membership kept on the objects too.
import Foundation

/// Which of its context's change sets an object is in: kept on the object by
/// ``TrackedObjectSet``, so that a membership test is a bit test instead of a hash look-up.
package struct ChangeSetMembership: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// In the context's inserted objects.
    package static let inserted = ChangeSetMembership(rawValue: 1 << 0)
    /// In the context's updated objects.
    package static let updated = ChangeSetMembership(rawValue: 1 << 1)
    /// In the context's deleted objects.
    package static let deleted = ChangeSetMembership(rawValue: 1 << 2)
    /// In the context's objects with recorded committed values.
    package static let committedValues = ChangeSetMembership(rawValue: 1 << 3)
    /// In the context's objects with values recorded at the start of the current event.
    package static let eventValues = ChangeSetMembership(rawValue: 1 << 4)
}

/// One of a context's change sets (inserted, updated or deleted objects, or the objects with
/// recorded values).
///
/// Every insertion and removal also clears the object's ``ManagedObject/quietSlots``: what a
/// quiet store skips depends on these sets.
///
/// Every object in the set has the set's ``ChangeSetMembership`` bit on
/// (``ManagedObject/changeSetMembership``), and no object outside it has: every insertion and
/// removal goes through this type, and a context clears the bits of its objects when it goes
/// away. An object belongs to one context at a time, so ``contains(_:)`` is a bit test (O(1),
/// no hashing); the hashed set is kept for iteration and for the public `Set` views.
///
/// - Important: Thread safety: as the context (confined to its thread).
package struct TrackedObjectSet: Sequence {
    /// The objects, for iteration and the public views.
    package private(set) var objects: Set<ManagedObject> = []
    /// The bit this set keeps on its objects.
    private let bit: ChangeSetMembership
    /// Whether an object was ever inserted (a context whose sets never held an object has
    /// left no bits or records on its objects to clear when it goes away).
    package private(set) var hasHeldObjects = false

    /// An empty set whose objects carry `bit`.
    package init(_ bit: ChangeSetMembership) { self.bit = bit }

    package var isEmpty: Bool { objects.isEmpty }
    package var count: Int { objects.count }
    package var first: ManagedObject? { objects.first }

    package func makeIterator() -> Set<ManagedObject>.Iterator { objects.makeIterator() }

    /// Whether `object` is in the set (a bit test).
    @inline(__always)
    package func contains(_ object: ManagedObject) -> Bool { object.changeSetMembership.contains(bit) }

    /// Adds `object`; returns whether it was new. O(1); no hashing when already present.
    @discardableResult
    package mutating func insert(_ object: ManagedObject) -> Bool {
        if object.changeSetMembership.contains(bit) { return false }
        object.changeSetMembership.insert(bit)
        object.quietSlots = 0
        hasHeldObjects = true
        objects.insert(object)
        return true
    }

    /// Removes `object`; returns it when it was in the set.
    @discardableResult
    package mutating func remove(_ object: ManagedObject) -> ManagedObject? {
        guard object.changeSetMembership.contains(bit) else { return nil }
        object.changeSetMembership.remove(bit)
        object.quietSlots = 0
        return objects.remove(object)
    }

    /// The largest capacity an emptied set keeps: a context that changes the same objects
    /// save after save refills its sets without growing them (and rehashing their members)
    /// again, and a set that once held very many objects gives its memory back.
    static let keptCapacity = 1 << 16

    /// Empties the set, clearing its bit on every object. O(*n*).
    package mutating func removeAll() {
        for object in objects {
            object.changeSetMembership.remove(bit)
            object.quietSlots = 0
        }
        objects.removeAll(keepingCapacity: objects.capacity <= Self.keptCapacity)
    }

    /// The objects of both sets.
    package func union(_ other: TrackedObjectSet) -> Set<ManagedObject> { objects.union(other.objects) }
}
