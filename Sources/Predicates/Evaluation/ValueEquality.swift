// Equality and ordering of values, as NSComparisonPredicate compares them.
import Foundation
import KeyValueCoding

@usableFromInline
enum ValueEquality {
    /// Unwraps nested optionals and reads `NSNull` as nil.
    @inline(__always)
    static func normalize(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if isNull(value) { return nil }
        guard let flat = flattenOptional(value) else { return nil }
        return isNull(flat) ? nil : flat
    }

    /// A value read by key-value coding (already without nested optionals), with `NSNull`
    /// read as nil. Cheaper than ``normalize(_:)``: one metadata comparison.
    @inline(__always)
    static func droppingNull(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return isNull(value) ? nil : value
    }

    /// Whether `value` is `NSNull`, by its dynamic type (no bridging cast).
    @inline(__always)
    static func isNull(_ value: Any) -> Bool {
        type(of: value) == NSNull.self
    }

    /// A generic value as `Any?`, without nesting an existential inside another when the
    /// generic type is itself `Any` or `Any?`. Key-value coding reads nested values correctly
    /// too (through a cast), so this only saves that cast for `[Any]` and `[Any?]` elements.
    @inlinable @inline(__always)
    static func box<T>(_ value: T) -> Any? {
        if T.self == Any.self { return unsafeBitCast(value, to: Any.self) }
        if T.self == Optional<Any>.self { return unsafeBitCast(value, to: Optional<Any>.self) }
        return value
    }

    /// The deepest nesting of collections inside collections that equality compares (as
    /// key-value coding's `nestedTooDeeply` limit). Deeper values throw
    /// ``PredicateEvaluationError/nestedTooDeeply(limit:)`` rather than exhaust the stack.
    static let maximumNesting = 200

    /// Equality used when comparing predicate trees: option-free value equality. Constants
    /// nested deeper than ``maximumNesting`` compare as unequal.

    /// Whether two normalized values are equal: nil equals only nil, numbers compare
    /// numerically (`Bool` as 0 and 1), strings with `options`, collections element by
    /// element, objects by identity or `Hashable` equality.
    ///
    /// - Throws: ``PredicateEvaluationError/nestedTooDeeply(limit:)`` when collections nest
    ///   deeper than ``maximumNesting`` levels.
    static func equal(_ lhs: Any?, _ rhs: Any?, options: ComparisonOptions,
                      depth: Int = 0) throws(PredicateEvaluationError) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        if let a = lhs as? String {
            guard let b = rhs as? String else { return try rawEqual(lhs, rhs, options: options, depth: depth) }
            return StringFolding.equal(a, b, options: options)
        }
        if let a = lhs as? Int, let b = rhs as? Int { return a == b }
        if let a = KeyValueNumber(lhs) {
            guard let b = KeyValueNumber(rhs) else { return try rawEqual(lhs, rhs, options: options, depth: depth) }
            return NumberOrdering.compare(a, b) == .orderedSame
        }
        if let a = lhs as? Date {
            guard let b = rhs as? Date else { return false }
            return NumberOrdering.ordered(a, b) == .orderedSame
        }
        if ValueCollections.isCollection(lhs) || ValueCollections.isCollection(rhs) {
            return try collectionsEqual(lhs, rhs, options: options, depth: depth + 1)
        }
        if isObject(lhs), isObject(rhs), (lhs as AnyObject) === (rhs as AnyObject) { return true }
        if let a = lhs as? AnyHashable, let b = rhs as? AnyHashable, a == b { return true }
        return try rawEqual(lhs, rhs, options: options, depth: depth)
    }

    /// Equality through raw values: an enumeration case equals its raw value, and two cases
    /// (even of different types) with equal raw values are equal, as key-value coding reads
    /// enumeration properties as their raw values. False when neither side has a raw value.
    private static func rawEqual(_ lhs: Any, _ rhs: Any, options: ComparisonOptions,
                                 depth: Int) throws(PredicateEvaluationError) -> Bool {
        if isObject(lhs) && isObject(rhs) { return false }   // two distinct objects: no raw values to try
        let (a, b) = (rawValue(of: lhs), rawValue(of: rhs))
        if a == nil && b == nil { return false }
        return try equal(a ?? lhs, b ?? rhs, options: options, depth: depth)
    }

    /// The raw value of a `RawRepresentable` value (an enumeration with raw values), or nil.
    static func rawValue(of value: Any) -> Any? {
        guard let raw = value as? any RawRepresentable else { return nil }
        return openRawValue(raw)
    }

    private static func openRawValue<R: RawRepresentable>(_ value: R) -> Any { value.rawValue }

    private static func collectionsEqual(_ lhs: Any, _ rhs: Any, options: ComparisonOptions,
                                         depth: Int) throws(PredicateEvaluationError) -> Bool {
        guard depth <= maximumNesting else { throw .nestedTooDeeply(limit: maximumNesting) }
        guard let a = ValueCollections.elements(of: lhs), let b = ValueCollections.elements(of: rhs),
              a.count == b.count else { return false }
        if ValueCollections.isUnordered(lhs) || ValueCollections.isUnordered(rhs) {
            for x in a {
                var found = false
                for y in b where try equal(x, y, options: options, depth: depth) {
                    found = true
                    break
                }
                if !found { return false }
            }
            return true
        }
        for (x, y) in zip(a, b) where try !equal(x, y, options: options, depth: depth) { return false }
        return true
    }

    private static func isObject(_ value: Any) -> Bool {
        type(of: value) is AnyClass
    }

    /// The order of two normalized values, or nil when either is nil.
    ///
    /// Two strings compare with `options` (folded for `[c]`/`[d]`); every other pair goes
    /// through key-value coding's ``KeyValueCoding/compareValues(_:_:)``, the order that
    /// `@min`/`@max` and sort descriptors use too (numbers across types with NaN first,
    /// dates, raw values, other `Comparable`s).
    ///
    /// - Throws: ``PredicateEvaluationError/incomparableValues(operation:left:right:)`` for values of
    ///   kinds that have no order between them.
    static func order(_ lhs: Any?, _ rhs: Any?, options: ComparisonOptions,
                      operation: String) throws(PredicateEvaluationError) -> ComparisonResult? {
        guard let lhs, let rhs else { return nil }
        if let a = lhs as? String, let b = rhs as? String {
            return StringFolding.compare(a, b, options: options)
        }
        if let order = compareValues(lhs, rhs) { return order }
        throw .incomparableValues(operation: operation, left: ValueCollections.typeDescription(lhs),
                                  right: ValueCollections.typeDescription(rhs))
    }
}
