// The expression tree: constants, key paths, variables, aggregates, functions, subqueries.

/// A value inside a predicate: the ObjectGraph counterpart of Apple's `NSExpression`.
///
/// ```swift
/// let age: KeyValueExpression = .keyPath("age")          // age
/// let next = age + 1                                      // age + 1
/// let names: KeyValueExpression = .aggregate(["x", "y"])  // {"x", "y"}
/// ```
///
/// Function expressions name a built-in ``Function`` (Apple's selector names, `"sum:"`,
/// `"add:to:"`, `"now"`); arithmetic (`+ - * / **`) is a function expression too, as in
/// Apple's implementation.
///
/// - Important: Thread safety: an expression is an immutable `Sendable` value.
public indirect enum KeyValueExpression: Sendable {
    /// The object being evaluated, `SELF` (Apple: `expressionForEvaluatedObject()`).
    case evaluatedObject
    /// A constant value; ``KeyValueConstant/null`` for `nil`/`NULL`
    /// (Apple: `expressionForConstantValue(_:)`).
    case constant(KeyValueConstant)
    /// A key path read from the evaluated object, such as `department.name` or
    /// `children.@count` (Apple: `expressionForKeyPath(_:)`).
    case keyPath(String)
    /// A key path read from the value of another expression, such as `$x.name` or
    /// `SUBQUERY(...).@count`.
    case keyPathOf(KeyValueExpression, String)
    /// A substitution variable, `$name` (Apple: `expressionForVariable(_:)`).
    case variable(String)
    /// A collection of expressions, `{1, 2, 3}` (Apple: `expressionForAggregate(_:)`).
    case aggregate([KeyValueExpression])
    /// A built-in function with its arguments (Apple: `expressionForFunction(_:arguments:)`).
    case function(Function, [KeyValueExpression])
    /// The elements of a collection for which a predicate holds, with each element bound to
    /// `variable` in turn: `SUBQUERY(collection, $x, predicate)`
    /// (Apple: `expressionForSubquery(_:usingIteratorVariable:predicate:)`).
    case subquery(KeyValueExpression, variable: String, predicate: KeyValuePredicate)
    /// `TERNARY(predicate, a, b)`: `a` when the predicate holds, otherwise `b`
    /// (Apple: `expressionForConditional(_:trueExpression:falseExpression:)`).
    case conditional(KeyValuePredicate, KeyValueExpression, KeyValueExpression)
    /// An element of a collection: `array[2]`, `array[FIRST]`, `dictionary["key"]`
    /// (Apple: the `objectFrom:withIndex:` function).
    case index(KeyValueExpression, KeyValueExpression)
    /// A symbolic index inside an ``index(_:_:)`` expression: `FIRST`, `LAST` or `SIZE`.
    case indexSymbol(IndexSymbol)
    /// `left UNION right`, `left INTERSECT right`, `left MINUS right`: a set built from two
    /// collections (Apple: `expressionForUnionSet(_:with:)`, `expressionForIntersectSet(_:with:)`,
    /// `expressionForMinusSet(_:with:)`).
    case setOperation(KeyValueExpression, SetOperation, KeyValueExpression)

    /// How a ``setOperation(_:_:_:)`` combines its two collections.
    public enum SetOperation: String, Sendable, Hashable, CaseIterable {
        /// The elements of either collection.
        case union = "UNION"
        /// The elements of the left collection that the right one holds too.
        case intersect = "INTERSECT"
        /// The elements of the left collection that the right one does not hold.
        case minus = "MINUS"
    }

    /// A symbolic array index (`array[FIRST]`, `array[LAST]`, `array[SIZE]`).
    public enum IndexSymbol: String, Sendable, Hashable {
        /// The first element.
        case first = "FIRST"
        /// The last element.
        case last = "LAST"
        /// The number of elements.
        case size = "SIZE"
    }

    /// The function names the format parser and the evaluator know, as Apple's selectors.
    public static var functionNames: [String] { Function.allCases.map(\.selector) }
}

// MARK: - Building expressions in code

extension KeyValueExpression: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    /// An integer constant.
    public init(integerLiteral value: Int64) { self = .constant(.integer(value)) }
    /// A floating-point constant.
    public init(floatLiteral value: Double) { self = .constant(.double(value)) }
    /// A Boolean constant.
    public init(booleanLiteral value: Bool) { self = .constant(.bool(value)) }
    /// The `nil` constant.
    public init(nilLiteral: ()) { self = .constant(.null) }
}

extension KeyValueExpression: ExpressibleByArrayLiteral {
    /// An aggregate of expressions, `{a, b, c}`.
    public init(arrayLiteral elements: KeyValueExpression...) { self = .aggregate(elements) }
}

extension KeyValueExpression {
    /// `lhs + rhs` (Apple: `add:to:`).
    public static func + (lhs: KeyValueExpression, rhs: KeyValueExpression) -> KeyValueExpression {
        .function(.add, [lhs, rhs])
    }
    /// `lhs - rhs` (Apple: `from:subtract:`).
    public static func - (lhs: KeyValueExpression, rhs: KeyValueExpression) -> KeyValueExpression {
        .function(.subtract, [lhs, rhs])
    }
    /// `lhs * rhs` (Apple: `multiply:by:`).
    public static func * (lhs: KeyValueExpression, rhs: KeyValueExpression) -> KeyValueExpression {
        .function(.multiply, [lhs, rhs])
    }
    /// `lhs / rhs` (Apple: `divide:by:`).
    public static func / (lhs: KeyValueExpression, rhs: KeyValueExpression) -> KeyValueExpression {
        .function(.divide, [lhs, rhs])
    }
    /// `-operand`, the function `negate:` (an ObjectGraph addition: Apple folds the minus
    /// sign into number literals only).
    public static prefix func - (operand: KeyValueExpression) -> KeyValueExpression {
        .function(.negate, [operand])
    }

    /// `lhs UNION rhs` (Apple: `expressionForUnionSet(_:with:)`).
    public static func union(_ lhs: KeyValueExpression, _ rhs: KeyValueExpression) -> KeyValueExpression {
        .setOperation(lhs, .union, rhs)
    }
    /// `lhs INTERSECT rhs` (Apple: `expressionForIntersectSet(_:with:)`).
    public static func intersect(_ lhs: KeyValueExpression, _ rhs: KeyValueExpression) -> KeyValueExpression {
        .setOperation(lhs, .intersect, rhs)
    }
    /// `lhs MINUS rhs` (Apple: `expressionForMinusSet(_:with:)`).
    public static func minus(_ lhs: KeyValueExpression, _ rhs: KeyValueExpression) -> KeyValueExpression {
        .setOperation(lhs, .minus, rhs)
    }

    /// A constant from any value, sorted by kind at run time (see
    /// ``KeyValueConstant/init(_:)-(Any?)``).
    ///
    /// - Parameter value: The value.
    /// - Returns: The constant expression.
    public static func constant(value: Any?) -> KeyValueExpression {
        .constant(KeyValueConstant(value))
    }

    /// The predicate `self operator other`, for building predicates in code.
    ///
    /// - Parameters:
    ///   - comparisonOperator: The operator.
    ///   - other: The right expression.
    ///   - options: String comparison options.
    /// - Returns: A comparison predicate.
    public func compared(_ comparisonOperator: ComparisonOperator, to other: KeyValueExpression,
                         options: ComparisonOptions = []) -> KeyValuePredicate {
        KeyValuePredicate(self, comparisonOperator, other, options: options)
    }
}
