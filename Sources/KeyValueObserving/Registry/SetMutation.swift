import KeyValueCoding

/// A change of an unordered to-many property, announced with
/// `willChangeValue(forKey:withSetMutation:using:)`.
struct SetMutation {
    var kind: KeyValueSetMutationKind
    var objects: Set<AnyHashable>

    /// The kind reported to observers (as Apple maps `NSKeyValueSetMutationKind`).
    var changeKind: KeyValueChangeKind {
        switch kind {
        case .union: return .insertion
        case .minus, .intersect: return .removal
        case .set: return .replacement
        }
    }

    /// The members that will be removed, from the set before the change (for prior and old).
    func predictedRemoval(from value: Any?) -> Set<AnyHashable> {
        let current = Self.members(of: value)
        switch kind {
        case .union: return []
        case .minus: return current.intersection(objects)
        case .intersect, .set: return current.subtracting(objects)
        }
    }

    /// The members added and removed between two values of the property.
    func difference(old: Any?, new: Any?) -> (added: Set<AnyHashable>, removed: Set<AnyHashable>) {
        let before = Self.members(of: old)
        let after = Self.members(of: new)
        return (after.subtracting(before), before.subtracting(after))
    }

    static func members(of value: Any?) -> Set<AnyHashable> {
        if let set = value as? Set<AnyHashable> { return set }
        if let array = value as? [AnyHashable] { return Set(array) }
        return []
    }
}
