// A comparison predicate: left expression, operator, right expression, modifier, options.

/// Two expressions compared by an operator (Apple: `NSComparisonPredicate`).
///
/// ```swift
/// let comparison = KeyValueComparison(.keyPath("age"), .greaterThan, 30)
/// let predicate = KeyValuePredicate(.comparison(comparison))
/// ```
public struct KeyValueComparison: Sendable, Hashable {
    /// The left expression (Apple: `leftExpression`).
    public var leftExpression: KeyValueExpression
    /// The right expression (Apple: `rightExpression`).
    public var rightExpression: KeyValueExpression
    /// How the two sides compare (Apple: `predicateOperatorType`).
    public var comparisonOperator: ComparisonOperator
    /// Whether the left side is compared directly or element by element
    /// (Apple: `comparisonPredicateModifier`).
    public var modifier: ComparisonModifier
    /// String comparison options (Apple: `options`).
    public var options: ComparisonOptions

    /// Creates a comparison.
    ///
    /// - Parameters:
    ///   - left: The left expression.
    ///   - comparisonOperator: The operator.
    ///   - right: The right expression.
    ///   - modifier: `.direct` (the default), `.any` or `.all`.
    ///   - options: String comparison options; none by default.
    public init(_ left: KeyValueExpression, _ comparisonOperator: ComparisonOperator,
                _ right: KeyValueExpression, modifier: ComparisonModifier = .direct,
                options: ComparisonOptions = []) {
        self.leftExpression = left
        self.rightExpression = right
        self.comparisonOperator = comparisonOperator
        self.modifier = modifier
        self.options = options
    }
}

/// The operator of a comparison (Apple: `NSComparisonPredicate.Operator`).
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `<`
    case lessThan = "<"
    /// `<=` (also written `=<`)
    case lessThanOrEqualTo = "<="
    /// `>`
    case greaterThan = ">"
    /// `>=` (also written `=>`)
    case greaterThanOrEqualTo = ">="
    /// `==` (also written `=`)
    case equalTo = "=="
    /// `!=` (also written `<>`)
    case notEqualTo = "!="
    /// `MATCHES`: the left string matches the right regular expression as a whole.
    case matches = "MATCHES"
    /// `LIKE`: the left string matches the right pattern, where `*` matches any run of
    /// characters and `?` one character.
    case like = "LIKE"
    /// `BEGINSWITH`: the left string starts with the right string.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the left string ends with the right string.
    case endsWith = "ENDSWITH"
    /// `IN`: the left value is an element of the right collection, or a substring of the
    /// right string.
    case `in` = "IN"
    /// `CONTAINS`: the left collection holds the right value, or the left string contains
    /// the right string.
    case contains = "CONTAINS"
    /// `BETWEEN`: the left value lies within the right pair `{low, high}`, bounds included.
    case between = "BETWEEN"

    /// The operator's text in a format string, as `predicateFormat` writes it.
    public var symbol: String { rawValue }
}

/// How the left side of a comparison is used (Apple: `NSComparisonPredicate.Modifier`).
public enum ComparisonModifier: Sendable, Hashable {
    /// The left value is compared as a whole.
    case direct
    /// True when some element of the left collection satisfies the comparison
    /// (`ANY` or `SOME`; `NONE` is written as `NOT ANY`).
    case any
    /// True when every element of the left collection satisfies the comparison (`ALL`).
    case all
}

/// String comparison options (Apple: `NSComparisonPredicate.Options`).
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: compare without regard to case, using Unicode case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: compare without regard to diacritics (`é` equals `e`).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: the strings are known to be normalized; compare them as they are. It cannot be
    /// combined with the other options (Apple ignores them then too).
    public static let normalized = ComparisonOptions(rawValue: 4)

    /// The modifier as written after an operator (`[c]`, `[cd]`, `[n]`), or an empty string.
    public var modifierText: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[" + letters + "]"
    }
}
