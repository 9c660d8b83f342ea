import Foundation
import KeyValueCoding

/// A description of one change, delivered to an observer.
///
/// For a change of a whole value (``KeyValueChangeKind/setting``) ``oldValue`` and
/// ``newValue`` are the values before and after (present when the observation asked for them
/// with ``KeyValueObservingOptions/old`` and ``KeyValueObservingOptions/new``). `nil` values
/// (an optional property that holds `nil`) are reported as `nil`.
///
/// For a change of some elements of an array property (``KeyValueChangeKind/insertion``,
/// ``KeyValueChangeKind/removal``, ``KeyValueChangeKind/replacement``), ``indexes`` lists the
/// affected positions and the values are arrays (`[Any]`) of the affected elements only: the
/// removed or replaced elements as the old value, the inserted or replacing ones as the new value.
/// Changes of set properties through `willChangeValue(forKey:withSetMutation:using:)` report
/// the added and removed members as `Set<AnyHashable>` and no indexes.
///
/// Corresponds to Apple's change dictionary (`NSKeyValueChangeKey`) and to
/// `NSKeyValueObservedChange`.
public struct KeyValueChange {
    /// What kind of change happened.
    public var kind: KeyValueChangeKind
    // `Optional<…>` spelled out: a `T?` stored property starts as `nil` before the initialiser
    // runs, so the initialiser's store is an assignment that first destroys that `nil` through
    // the runtime's value witnesses (a measurable part of delivering a change).

    /// The value before the change, when asked for with ``KeyValueObservingOptions/old``.
    public var oldValue: Optional<Any>
    /// The value after the change, when asked for with ``KeyValueObservingOptions/new``.
    public var newValue: Optional<Any>
    /// The affected positions, for to-many changes of an array property; otherwise `nil`.
    public var indexes: Optional<IndexSet>
    /// Whether this is the notification sent before the change
    /// (see ``KeyValueObservingOptions/prior``).
    public var isPrior: Bool

    /// Creates a change record.
    ///
    /// - Parameters:
    ///   - kind: The kind of change.
    ///   - oldValue: The value before the change, or `nil`.
    ///   - newValue: The value after the change, or `nil`.
    ///   - indexes: The affected positions of a to-many change, or `nil`.
    ///   - isPrior: Whether the record describes a change that is about to happen.
    @inlinable
    public init(kind: KeyValueChangeKind, oldValue: Any? = nil, newValue: Any? = nil,
                indexes: IndexSet? = nil, isPrior: Bool = false) {
        self.kind = kind
        self.oldValue = oldValue
        self.newValue = newValue
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

// Change records travel from the changing thread to observers and through `AsyncSequence`s.
// The record itself is an immutable snapshot; the values it holds are the property's values,
// which are as thread-safe as the model's own types (the same contract as Apple's
// `NSKeyValueObservedChange`). Hence the unchecked conformance.
extension KeyValueChange: @unchecked Sendable {}

/// A typed change, delivered by the key-path form `observe(\.name, options:changeHandler:)`.
///
/// Corresponds to Apple's `NSKeyValueObservedChange<Value>`.
public struct KeyValueObservedChange<Value> {
    /// What kind of change happened.
    public var kind: KeyValueChangeKind
    /// The value before the change, when asked for with ``KeyValueObservingOptions/old``.
    public var oldValue: Value?
    /// The value after the change, when asked for with ``KeyValueObservingOptions/new``.
    public var newValue: Value?
    /// The affected positions, for to-many changes; otherwise `nil`.
    public var indexes: IndexSet?
    /// Whether this is the notification sent before the change.
    public var isPrior: Bool

    /// Creates a typed change from an untyped one; values of another type become `nil`.
    ///
    /// - Parameter change: The untyped change record.
    public init(_ change: KeyValueChange) {
        kind = change.kind
        oldValue = change.oldValue.flatMap { $0 as? Value }
        newValue = change.newValue.flatMap { $0 as? Value }
        indexes = change.indexes
        isPrior = change.isPrior
    }
}

// Same reasoning as for `KeyValueChange`: an immutable snapshot of the property's values.
extension KeyValueObservedChange: @unchecked Sendable {}
