// Sets of elements known to be distinct (a change set's objects, their IDs), made without
// comparing each new element with those already in its bucket run.

/// Makes `Set`s of elements the caller knows to be distinct.
///
/// `Set.insert(_:)` walks the run of occupied buckets from the element's hash, comparing the
/// element with each member met (about one comparison per insertion at the load a set of
/// known size has; for an ID a retain, a release and the comparison), and hands back the
/// member after the insertion (another retain and release). The standard library's
/// `_SetBuilder` puts each element in the first free bucket of its run without comparing:
/// the set is the same, provided no two elements are equal. Debug builds check that they are
/// not; callers pass only collections that cannot repeat an element.
package enum DistinctSet {
    /// The set of `objects`, which are distinct (each object once), read through the array's
    /// storage (no reference counting per object beyond the set's own).
    package static func of(_ objects: [ManagedObject]) -> Set<ManagedObject> {
        objects.withUnsafeBufferPointer { objects in
            var builder = _SetBuilder<ManagedObject>(count: objects.count)
            for object in objects { builder.add(member: object) }
            return checked(builder.take(), count: objects.count)
        }
    }

    /// The set of the IDs of `objects`, distinct objects registered in one context (its
    /// registry gives each ID one object).
    package static func objectIDs(of objects: [ManagedObject]) -> Set<ManagedObjectID> {
        objects.withUnsafeBufferPointer { objects in
            var builder = _SetBuilder<ManagedObjectID>(count: objects.count)
            for object in objects { builder.add(member: object.objectID) }
            return checked(builder.take(), count: objects.count)
        }
    }

    /// `set`, after checking in debug builds that its elements are distinct (a set made by
    /// `insert(_:)` from its elements has `count` members).
    private static func checked<Element: Hashable>(_ set: Set<Element>, count: Int) -> Set<Element> {
        assert(Set(Array(set)).count == count, "DistinctSet: two equal elements were given")
        return set
    }
}
