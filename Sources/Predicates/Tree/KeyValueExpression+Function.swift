// The built-in functions of function expressions, as a typed enumeration.

extension KeyValueExpression {
    /// A built-in function of a function expression (Apple: the selector names that
    /// `NSExpression(forFunction:arguments:)` accepts).
    ///
    /// The raw value is Apple's selector name (`"sum:"`, `"add:to:"`, `"now"`); a format string
    /// writes the name up to the first colon (`sum(x)`), or an operator for arithmetic
    /// (`a + b`). A translator to another language (SQL) can switch over every case.
    ///
    /// ```swift
    /// let total: KeyValueExpression = .function(.sum, [.keyPath("prices")])
    /// KeyValueExpression.Function(selector: "add:to:")   // .add
    /// KeyValueExpression.Function.add.selector           // "add:to:"
    /// ```
    public enum Function: String, Sendable, Hashable, CaseIterable {
        // Arithmetic (also written as operators).
        /// `add:to:`, `a + b`.
        case add = "add:to:"
        /// `from:subtract:`, `a - b`.
        case subtract = "from:subtract:"
        /// `multiply:by:`, `a * b`.
        case multiply = "multiply:by:"
        /// `divide:by:`, `a / b` (always floating point).
        case divide = "divide:by:"
        /// `modulus:by:`, the remainder of `a / b`.
        case modulus = "modulus:by:"
        /// `raise:toPower:`, `a ** b`.
        case raise = "raise:toPower:"
        /// `negate:`, `-a` on a value that is not a number literal (an ObjectGraph addition;
        /// Apple folds the minus sign into number literals only).
        case negate = "negate:"
        /// `sqrt:`.
        case sqrt = "sqrt:"
        /// `log:`, base 10.
        case log = "log:"
        /// `ln:`, natural logarithm.
        case ln = "ln:"
        /// `exp:`, e to the power of the argument.
        case exp = "exp:"
        /// `floor:`.
        case floor = "floor:"
        /// `ceiling:`.
        case ceiling = "ceiling:"
        /// `trunc:`, toward zero.
        case trunc = "trunc:"
        /// `abs:`.
        case abs = "abs:"
        /// `bitwiseAnd:with:`.
        case bitwiseAnd = "bitwiseAnd:with:"
        /// `bitwiseOr:with:`.
        case bitwiseOr = "bitwiseOr:with:"
        /// `bitwiseXor:with:`.
        case bitwiseXor = "bitwiseXor:with:"
        /// `leftshift:by:`.
        case leftShift = "leftshift:by:"
        /// `rightshift:by:`.
        case rightShift = "rightshift:by:"
        /// `onesComplement:`.
        case onesComplement = "onesComplement:"
        // Aggregates over a collection.
        /// `sum:`.
        case sum = "sum:"
        /// `count:`.
        case count = "count:"
        /// `min:`.
        case min = "min:"
        /// `max:`.
        case max = "max:"
        /// `average:`.
        case average = "average:"
        /// `median:`.
        case median = "median:"
        /// `mode:`: every most frequent value, as an array.
        case mode = "mode:"
        /// `stddev:`: the population standard deviation.
        case standardDeviation = "stddev:"
        // Strings.
        /// `uppercase:`.
        case uppercase = "uppercase:"
        /// `lowercase:`.
        case lowercase = "lowercase:"
        /// `length:`: the number of UTF-16 code units, as `NSString.length`.
        case length = "length:"
        // Others.
        /// `now`: the current date.
        case now = "now"
        /// `random`: a number in `0..<1`.
        case random = "random"
        /// `random:`: a random element of a collection.
        case randomElement = "random:"
        /// `randomn:`: a random integer in `0..<n`.
        case randomInteger = "randomn:"
        /// `noindex:`: its argument (a hint for stores that use indexes).
        case noindex = "noindex:"
        /// `castObject:toType:`, written `CAST(value, "type")`.
        case cast = "castObject:toType:"

        /// Apple's selector name, such as `"add:to:"`.
        public var selector: String { rawValue }

        /// The function with Apple's selector name `selector`, or nil when it is not built in.
        ///
        /// - Parameter selector: A selector name such as `"sum:"`.
        public init?(selector: String) {
            self.init(rawValue: selector)
        }

        /// The name written in format strings: the selector up to its first colon (`sum`).
        public var formatName: String { String(rawValue.prefix { $0 != ":" }) }

        /// The number of arguments.
        public var arity: Int {
            switch self {
            case .now, .random: return 0
            default: return rawValue.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
            }
        }
    }

    /// A function expression by Apple selector name
    /// (Apple: `NSExpression(forFunction:arguments:)`).
    ///
    /// - Parameters:
    ///   - selector: A built-in function's selector name. A name that is not built in is a
    ///     programming error and traps; use ``Function/init(selector:)`` to check one first.
    ///   - arguments: The arguments.
    /// - Returns: The function expression.
    @available(*, deprecated, message: "use .function(KeyValueExpression.Function, _:), e.g. .function(.sum, [x])")
    public static func function(_ selector: String, _ arguments: [KeyValueExpression]) -> KeyValueExpression {
        guard let function = Function(selector: selector) else {
            preconditionFailure("'\(selector)' is not a built-in function; see KeyValueExpression.Function")
        }
        return .function(function, arguments)
    }
}
