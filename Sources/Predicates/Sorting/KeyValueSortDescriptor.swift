// Sort descriptors: a key path, a direction and a comparison (Apple: NSSortDescriptor).
import Foundation

/// How a sort descriptor orders two values: the equivalent of Apple's `NSSortDescriptor`.
///
/// ```swift
/// let byName = KeyValueSortDescriptor(key: "lastName", comparison: .localizedStandardCompare)
/// let byAge = KeyValueSortDescriptor(key: "age", ascending: false)
/// let sorted = try people.sorted(using: [byName, byAge])
/// ```
///
/// `nil` (and `NSNull`) sorts before every other value in ascending order, and after them in
/// descending order, as Apple does. Sorting with descriptors is stable.
///
/// Two descriptors are equal when their keys, directions and comparisons are; comparator
/// closures compare by their name when they have one, otherwise by identity (see
/// ``Comparator``).
///
/// - Important: Thread safety: an immutable `Sendable` value; comparator closures are
///   `@Sendable`.
public struct KeyValueSortDescriptor: Sendable, Hashable {
    /// How two values compare: the selectors Apple's sort descriptors name, or a closure.
    public enum Comparison: Sendable, Hashable {
        /// `compare:`: numbers numerically, strings by Unicode order, dates chronologically.
        case compare
        /// `caseInsensitiveCompare:`: strings without regard to case.
        case caseInsensitiveCompare
        /// `localizedCompare:`: strings by the current locale's rules.
        case localizedCompare
        /// `localizedCaseInsensitiveCompare:`: the locale's rules, without regard to case.
        case localizedCaseInsensitiveCompare
        /// `localizedStandardCompare:`: as the Finder sorts names (numbers inside strings
        /// compare numerically, `"file 2"` before `"file 10"`).
        case localizedStandardCompare
        /// A closure comparing two values (Apple: `init(key:ascending:comparator:)`); it is
        /// given the values at the key path (nil for nil).
        case comparator(Comparator)

        /// A comparison closure without a name (see ``Comparator``).
        ///
        /// - Parameter body: Compares two values; it must be safe to call from any thread.
        /// - Returns: `.comparator(Comparator(body))`.
        @available(*, deprecated, message: "use .comparator(KeyValueSortDescriptor.Comparator(name:_:))")
        public static func comparator(_ body: @escaping @Sendable (Any?, Any?) -> ComparisonResult) -> Comparison {
            .comparator(Comparator(body))
        }
    }

    /// A comparison closure with an optional name that identifies it.
    ///
    /// Closures cannot be compared, so two comparators are equal when both have the same
    /// ``name`` (as two descriptors naming the same selector are), or, without names, when they
    /// are copies of one comparator. Give a name to make descriptors built in different places
    /// equal (the name of the method the closure calls, for example).
    ///
    /// ```swift
    /// let byLength = KeyValueSortDescriptor.Comparator(name: "compareLength:") { a, b in
    ///     let (x, y) = ((a as? String)?.count ?? 0, (b as? String)?.count ?? 0)
    ///     return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
    /// }
    /// let descriptor = KeyValueSortDescriptor(key: "name", comparison: .comparator(byLength))
    /// ```
    public struct Comparator: Sendable, Hashable {
        private final class Identity: Sendable {}

        /// The name that identifies the comparison, or nil.
        public let name: String?
        /// The closure.
        public let body: @Sendable (Any?, Any?) -> ComparisonResult
        private let identity = Identity()

        /// Creates a comparator.
        ///
        /// - Parameters:
        ///   - name: A name that identifies the comparison (for equality), or nil.
        ///   - body: Compares two values; it must be safe to call from any thread.
        public init(name: String? = nil, _ body: @escaping @Sendable (Any?, Any?) -> ComparisonResult) {
            self.name = name
            self.body = body
        }

        /// Compares two values with the closure.
        public func callAsFunction(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult { body(lhs, rhs) }

        public static func == (lhs: Comparator, rhs: Comparator) -> Bool {
            if let a = lhs.name, let b = rhs.name { return a == b }
            return lhs.name == nil && rhs.name == nil && lhs.identity === rhs.identity
        }

        public func hash(into hasher: inout Hasher) {
            if let name { hasher.combine(name) } else { hasher.combine(ObjectIdentifier(identity)) }
        }
    }

    /// The key path whose values are compared; nil compares the objects themselves
    /// (Apple: `key`).
    public let key: String?
    /// Whether smaller values come first (Apple: `ascending`).
    public let ascending: Bool
    /// How two values compare (Apple: `selector` or `comparator`).
    public let comparison: Comparison

    /// Creates a sort descriptor (Apple: `NSSortDescriptor(key:ascending:selector:)`).
    ///
    /// - Parameters:
    ///   - key: The key path to compare, or nil for the objects themselves.
    ///   - ascending: `true` (the default) for smaller values first.
    ///   - comparison: How values compare; `.compare` by default.
    public init(key: String?, ascending: Bool = true, comparison: Comparison = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// Creates a sort descriptor that compares with a closure
    /// (Apple: `NSSortDescriptor(key:ascending:comparator:)`).
    ///
    /// - Parameters:
    ///   - key: The key path to compare, or nil for the objects themselves.
    ///   - ascending: `true` (the default) for the closure's order, `false` for the reverse.
    ///   - comparator: Compares two values; it is not called for nil values, which sort first.
    public init(key: String?, ascending: Bool = true,
                comparator: @escaping @Sendable (Any?, Any?) -> ComparisonResult) {
        self.init(key: key, ascending: ascending, comparison: .comparator(Comparator(comparator)))
    }

    /// The same descriptor in the opposite direction (Apple: `reversedSortDescriptor`).
    public var reversed: KeyValueSortDescriptor {
        KeyValueSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// Compares two objects by the values at ``key`` (Apple: `compare(_:to:)`).
    ///
    /// - Parameters:
    ///   - lhs: The first object.
    ///   - rhs: The second object.
    /// - Returns: `.orderedAscending` when `lhs` comes first in this descriptor's order.
    /// - Throws: `KeyValueCodingError` when the key cannot be read;
    ///   ``PredicateEvaluationError/incomparableValues(operation:left:right:)`` for values of kinds that
    ///   have no order between them.
    public func compare(_ lhs: Any?, to rhs: Any?) throws -> ComparisonResult {
        let reader = SortColumn.reader(for: key)
        let a = SortKey(try reader(lhs), comparison)
        let b = SortKey(try reader(rhs), comparison)
        let result = try SortKey.compare(a, b, comparison)
        return ascending ? result : result.inverted
    }
}

extension ComparisonResult {
    /// The opposite order.
    var inverted: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}
