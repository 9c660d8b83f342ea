import Foundation

/// One change notification of one key of an object: what the hooks
/// (``KeyValueCodable/keyValueWillChange(_:)``, ``KeyValueCodable/keyValueDidChange(_:)``) and a
/// change sink receive.
///
/// Every way of changing a key sends a will-change event before the change and a did-change
/// event after it: stores through key-value coding, manual ``KeyValueCodable/willChangeValue(forKey:)``
/// / ``KeyValueCodable/didChangeValue(forKey:)`` pairs, edits through the mutable collection
/// proxies and (while someone listens) stores into `@Observed` properties.
///
/// The old and new values travel only where the store had them in hand without an extra read
/// (``suppliesValues``: an `@Observed` store tells a change sink both): read the object in the
/// will-change phase when you need the old value otherwise.
public struct KeyValueChangeEvent {
    /// Before or after the change.
    public enum Phase: Sendable, Hashable {
        /// The change is about to happen: the object still holds the old value.
        case willChange
        /// The change has happened.
        case didChange
    }

    /// Before or after the change.
    public var phase: Phase
    /// In the did-change phase: the announced change did not happen (a setter or a to-many
    /// mutator refused the value). Observers are not told; hooks and change sinks are, so that
    /// they can pair it with the will-change event.
    public var isCancelled = false
    /// How it changes: `.setting` for a whole value (and for set mutations, see
    /// ``setMutation``), `.insertion`, `.removal` or `.replacement` for elements of an array.
    public var kind: KeyValueChangeKind
    /// The key that changes.
    public var key: String
    /// What only some changes carry (indexes, set mutations, supplied values), kept out of line
    /// so that a plain change notification is three words to make and drop.
    @usableFromInline var details: Details?

    /// The rarer parts of an event.
    @usableFromInline
    final class Details {
        var indexes: IndexSet?
        var setMutation: (kind: KeyValueSetMutationKind, objects: Set<AnyHashable>)?
        var suppliesValues = false
        var oldValue: Any?
        var newValue: Any?

        @usableFromInline
        init(indexes: IndexSet?, setMutation: (kind: KeyValueSetMutationKind, objects: Set<AnyHashable>)?) {
            self.indexes = indexes
            self.setMutation = setMutation
        }

        func copy() -> Details {
            let details = Details(indexes: indexes, setMutation: setMutation)
            details.suppliesValues = suppliesValues
            details.oldValue = oldValue
            details.newValue = newValue
            return details
        }
    }

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - phase: Before or after the change.
    ///   - key: The key that changes.
    ///   - kind: The kind of change; `.setting` by default.
    ///   - indexes: The positions of the array elements that change, if any.
    ///   - setMutation: The mutation of an unordered to-many property, if any.
    @inlinable
    public init(_ phase: Phase, key: String, kind: KeyValueChangeKind = .setting, indexes: IndexSet? = nil,
                setMutation: (kind: KeyValueSetMutationKind, objects: Set<AnyHashable>)? = nil) {
        self.phase = phase
        self.key = key
        self.kind = kind
        details = indexes == nil && setMutation == nil
            ? nil : Details(indexes: indexes, setMutation: setMutation)
    }

    /// Creates a plain event (no indexes, no set mutation).
    @inlinable
    init(_ phase: Phase, key: String) {
        self.phase = phase
        self.key = key
        kind = .setting
        details = nil
    }

    /// The did-change event that closes this will-change event without the change happening.
    package var cancelled: KeyValueChangeEvent {
        var event = self
        event.phase = .didChange
        event.isCancelled = true
        return event
    }

    /// Creates a whole-value event that carries the values before and after the change.
    ///
    /// - Parameters:
    ///   - phase: Before or after the change.
    ///   - key: The key that changes.
    ///   - oldValue: The value before the change.
    ///   - newValue: The value after the change.
    public init(_ phase: Phase, key: String, oldValue: Any?, newValue: Any?) {
        self.init(phase, key: key)
        let details = Details(indexes: nil, setMutation: nil)
        details.suppliesValues = true
        details.oldValue = oldValue
        details.newValue = newValue
        self.details = details
    }

    private mutating func uniqueDetails() -> Details {
        if var details = self.details {
            self.details = nil  // so that the local reference is the only one when it is
            if !isKnownUniquelyReferenced(&details) { details = details.copy() }
            self.details = details
            return details
        }
        let made = Details(indexes: nil, setMutation: nil)
        details = made
        return made
    }

    /// The positions of the elements of an array that change; `nil` for a whole value.
    public var indexes: IndexSet? {
        get { details?.indexes }
        set { uniqueDetails().indexes = newValue }
    }

    /// For a change of an unordered to-many property: the mutation and its objects.
    public var setMutation: (kind: KeyValueSetMutationKind, objects: Set<AnyHashable>)? {
        get { details?.setMutation }
        set { uniqueDetails().setMutation = newValue }
    }

    /// Whether ``oldValue`` and ``newValue`` hold the values (an `@Observed` store supplies them).
    public var suppliesValues: Bool {
        get { details?.suppliesValues ?? false }
        set { uniqueDetails().suppliesValues = newValue }
    }

    /// The value before the change, when ``suppliesValues``; `nil` stands for `nil` then.
    public var oldValue: Any? {
        get { details?.oldValue }
        set { uniqueDetails().oldValue = newValue }
    }

    /// The value after the change, when ``suppliesValues`` (in both phases).
    public var newValue: Any? {
        get { details?.newValue }
        set { uniqueDetails().newValue = newValue }
    }

    /// The same event in the did-change phase.
    public var completed: KeyValueChangeEvent {
        var event = self
        event.phase = .didChange
        return event
    }
}

// MARK: Sending notifications

extension KeyValueCodable {
    /// Tells the object's hooks, change sink and observers that the value for `key` is about to
    /// change.
    ///
    /// Call it before changing a key whose automatic notifications are off, then call
    /// ``didChangeValue(forKey:)`` after the change. Pairs may be nested (also for the same key);
    /// each pair notifies once, innermost first, as on Apple platforms. For a type that is not
    /// observable only the hooks run.
    ///
    /// This is not a customisation point: implement ``keyValueWillChange(_:)`` to be told of
    /// changes (a method of this name in your class would only hide this one).
    ///
    /// - Parameter key: The key that will change.
    ///
    /// Corresponds to `-[NSObject willChangeValueForKey:]`.
    @inlinable @inline(__always)
    public func willChangeValue(forKey key: String) {
        deliverKeyValueChange(KeyValueChangeEvent(.willChange, key: key))
    }

    /// Tells the object's change sink, observers and hooks that the value for `key` has
    /// changed. See ``willChangeValue(forKey:)``.
    ///
    /// - Parameter key: The key that changed.
    ///
    /// Corresponds to `-[NSObject didChangeValueForKey:]`.
    @inlinable @inline(__always)
    public func didChangeValue(forKey key: String) {
        deliverKeyValueChange(KeyValueChangeEvent(.didChange, key: key))
    }

    /// Announces that elements of the array property `key` are about to change.
    ///
    /// - Parameters:
    ///   - change: `.insertion`, `.removal` or `.replacement`.
    ///   - indexes: The positions affected: for an insertion, the positions the new elements
    ///     will have; otherwise the positions of the elements removed or replaced.
    ///   - key: The array property.
    ///
    /// Corresponds to `-[NSObject willChange:valuesAtIndexes:forKey:]`.
    @inlinable @inline(__always)
    public func willChange(_ change: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String) {
        deliverKeyValueChange(KeyValueChangeEvent(.willChange, key: key, kind: change, indexes: indexes))
    }

    /// Announces that elements of the array property `key` changed.
    /// See ``willChange(_:valuesAt:forKey:)``.
    ///
    /// Corresponds to `-[NSObject didChange:valuesAtIndexes:forKey:]`.
    @inlinable @inline(__always)
    public func didChange(_ change: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String) {
        deliverKeyValueChange(KeyValueChangeEvent(.didChange, key: key, kind: change, indexes: indexes))
    }

    /// Announces that the set property `key` is about to change by `mutation` with `objects`.
    ///
    /// Observers receive `.insertion` (union), `.removal` (minus, intersect) or `.replacement`
    /// (set), with the members actually added as new value and removed as old value.
    ///
    /// Corresponds to `-[NSObject willChangeValueForKey:withSetMutation:usingObjects:]`.
    @inlinable @inline(__always)
    public func willChangeValue(forKey key: String, withSetMutation mutation: KeyValueSetMutationKind,
                                using objects: Set<AnyHashable>) {
        deliverKeyValueChange(KeyValueChangeEvent(.willChange, key: key, setMutation: (mutation, objects)))
    }

    /// Announces that the set property `key` changed by `mutation` with `objects`.
    /// See ``willChangeValue(forKey:withSetMutation:using:)``.
    ///
    /// Corresponds to `-[NSObject didChangeValueForKey:withSetMutation:usingObjects:]`.
    @inlinable @inline(__always)
    public func didChangeValue(forKey key: String, withSetMutation mutation: KeyValueSetMutationKind,
                               using objects: Set<AnyHashable>) {
        deliverKeyValueChange(KeyValueChangeEvent(.didChange, key: key, setMutation: (mutation, objects)))
    }
}

// MARK: Changes that may be refused

extension KeyValueCodable {
    /// Runs `change` between the will-change and did-change notifications of a whole-value
    /// change of `key`; when it throws, the announced change is cancelled instead (observers
    /// hear nothing; hooks and the change sink get a cancelled did-change event).
    package func changingValue<Result>(forKey key: String, _ change: () throws -> Result) throws -> Result {
        try changing(KeyValueChangeEvent(.willChange, key: key), change)
    }

    /// ``changingValue(forKey:_:)`` for elements of an array property.
    package func changingElements<Result>(_ kind: KeyValueChangeKind, at indexes: IndexSet, forKey key: String,
                                          _ change: () throws -> Result) throws -> Result {
        try changing(KeyValueChangeEvent(.willChange, key: key, kind: kind, indexes: indexes), change)
    }

    /// ``changingValue(forKey:_:)`` for a mutation of a set property.
    package func changingMembers<Result>(_ mutation: KeyValueSetMutationKind, _ objects: Set<AnyHashable>,
                                         forKey key: String, _ change: () throws -> Result) throws -> Result {
        try changing(KeyValueChangeEvent(.willChange, key: key, setMutation: (mutation, objects)), change)
    }

    private func changing<Result>(_ event: KeyValueChangeEvent, _ change: () throws -> Result) throws -> Result {
        deliverKeyValueChange(event)
        do {
            let result = try change()
            deliverKeyValueChange(event.completed)
            return result
        } catch {
            deliverKeyValueChange(event.cancelled)
            throw error
        }
    }
}
