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

/// Where an object stands in each of its context's change sets (the index of its entry in the
/// set's array; meaningful only while the set's ``ChangeSetMembership`` bit is on).
package struct ChangeSetPlaces: Sendable {
    private var inserted: Int32 = 0, updated: Int32 = 0, deleted: Int32 = 0
    private var committedValues: Int32 = 0, eventValues: Int32 = 0

    package init() {}

    /// The place in the set whose bit is `1 << index`.
    package subscript(index: Int) -> Int32 {
        get {
            switch index {
            case 0: inserted
            case 1: updated
            case 2: deleted
            case 3: committedValues
            default: eventValues
            }
        }
        set {
            switch index {
            case 0: inserted = newValue
            case 1: updated = newValue
            case 2: deleted = newValue
            case 3: committedValues = newValue
            default: eventValues = newValue
            }
        }
    }
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
/// no hashing).
///
/// The objects are kept in an array, each object knowing its place in it
/// (``ManagedObject/changeSetPlaces``, valid while its bit is on): an insertion is an append
/// and a removal moves the last object into the removed one's place, both O(1) without
/// hashing. The order is the order of insertion until a removal; callers needing an order
/// sort (``ManagedObjectContext/inSaveOrder(_:)``). The public `Set` views are made on demand
/// (``objects``).
///
/// - Important: Thread safety: as the context (confined to its thread).
package struct TrackedObjectSet: Sequence {
    /// The objects, each once.
    private var members: [ManagedObject] = []
    /// The bit this set keeps on its objects.
    private let bit: ChangeSetMembership
    /// The index of this set's place in ``ManagedObject/changeSetPlaces``.
    private let placeIndex: Int
    /// Whether an object was ever inserted (a context whose sets never held an object has
    /// left no bits or records on its objects to clear when it goes away).
    package private(set) var hasHeldObjects = false

    /// An empty set whose objects carry `bit`.
    package init(_ bit: ChangeSetMembership) {
        self.bit = bit
        placeIndex = bit.rawValue.trailingZeroBitCount
    }

    package var isEmpty: Bool { members.isEmpty }
    package var count: Int { members.count }
    package var first: ManagedObject? { members.first }

    /// The objects as a set (made on each call: O(*n*); each object is once in the set's
    /// array, so without comparisons: ``DistinctSet``).
    package var objects: Set<ManagedObject> { DistinctSet.of(members) }

    /// Adds `objects` to `set`, read through the array's storage (no reference counting per
    /// object); `update(with:)` inserts as `insert(_:)` does (an object equals itself alone)
    /// without handing back a copy of the member (a retain and a release each).
    package static func add(_ objects: [ManagedObject], to set: inout Set<ManagedObject>) {
        objects.withUnsafeBufferPointer { objects in
            for object in objects { set.update(with: object) }
        }
    }

    /// The objects in the set's order (insertion order, but for removals).
    package var ordered: [ManagedObject] { members }

    package func makeIterator() -> IndexingIterator<[ManagedObject]> { members.makeIterator() }

    /// Whether `object` is in the set (a bit test).
    @inline(__always)
    package func contains(_ object: ManagedObject) -> Bool { object.changeSetMembership.contains(bit) }

    /// Adds `object`; returns whether it was new. O(1); no hashing. Inlined: every insert and
    /// first change adds its object to one or two sets.
    @discardableResult @inline(__always)
    package mutating func insert(_ object: ManagedObject) -> Bool {
        if object.changeSetMembership.contains(bit) { return false }
        object.changeSetMembership.insert(bit)
        object.quietSlots = 0
        hasHeldObjects = true
        object.changeSetPlaces[placeIndex] = Int32(truncatingIfNeeded: members.count)
        members.append(object)
        return true
    }

    /// Removes `object`; returns it when it was in the set. O(1): the last object takes its
    /// place.
    @discardableResult
    package mutating func remove(_ object: ManagedObject) -> ManagedObject? {
        guard object.changeSetMembership.contains(bit) else { return nil }
        object.changeSetMembership.remove(bit)
        object.quietSlots = 0
        let place = Int(object.changeSetPlaces[placeIndex])
        let last = members.removeLast()
        if last !== object {
            members[place] = last
            last.changeSetPlaces[placeIndex] = Int32(truncatingIfNeeded: place)
        }
        return object
    }

    /// The largest capacity an emptied set keeps: a context that changes the same objects
    /// save after save refills its sets without growing them again, and a set that once held
    /// very many objects gives its memory back.
    static let keptCapacity = 1 << 16

    /// Empties the set, clearing its bit on every object. O(*n*).
    package mutating func removeAll() {
        for object in members {
            object.changeSetMembership.remove(bit)
            object.quietSlots = 0
        }
        members.removeAll(keepingCapacity: members.capacity <= Self.keptCapacity)
    }

    /// The objects of both sets.
    package func union(_ other: TrackedObjectSet) -> Set<ManagedObject> {
        var set = Set<ManagedObject>(minimumCapacity: members.count + other.members.count)
        Self.add(members, to: &set)
        Self.add(other.members, to: &set)
        return set
    }
}
