// Public entry points of the format parser.

extension KeyValuePredicate {
    /// Reads a predicate from a format string (Apple: `NSPredicate(format:_:)`).
    ///
    /// Arguments replace the format specifiers in order: `%@` any value (a constant),
    /// `%K` a key path (a `String`), `%d %i %u %ld %lld %hd %x %o...` an integer,
    /// `%f %lf %e %g...` a number, `%s` a string. See Docs/Predicates.md for the grammar.
    ///
    /// ```swift
    /// let p = try KeyValuePredicate(format: "%K > %d AND name IN %@", "age", 30, ["Ada", "Grace"])
    /// ```
    ///
    /// - Parameters:
    ///   - format: The format string.
    ///   - arguments: The values for the format specifiers, in order. Extra arguments are
    ///     ignored, as Apple does.
    /// - Throws: ``PredicateParseError`` naming the position and what was expected, for a
    ///   malformed string, a missing or wrongly typed argument, or an unknown function.
    /// - Complexity: O(*n*) in the length of the format string.
    public init(format: String, _ arguments: Any?...) throws(PredicateParseError) {
        self = try PredicateParser.predicate(format: format, arguments: arguments)
    }

    /// Reads a predicate from a format string with its arguments in an array
    /// (Apple: `NSPredicate(format:argumentArray:)`).
    ///
    /// - Parameters:
    ///   - format: The format string.
    ///   - argumentArray: The values for the format specifiers, in order.
    /// - Throws: ``PredicateParseError``, as ``init(format:_:)``.
    public init(format: String, argumentArray: [Any?]) throws(PredicateParseError) {
        self = try PredicateParser.predicate(format: format, arguments: argumentArray)
    }
}

extension KeyValueExpression {
    /// Reads an expression from a format string (Apple: `NSExpression(format:_:)`).
    ///
    /// ```swift
    /// let e = try KeyValueExpression(format: "salary * %f", 1.1)
    /// ```
    ///
    /// - Parameters:
    ///   - format: The format string, an expression such as `"4 + 5 - 2**3"`.
    ///   - arguments: The values for the format specifiers, in order.
    /// - Throws: ``PredicateParseError`` naming the position and what was expected.
    public init(format: String, _ arguments: Any?...) throws(PredicateParseError) {
        self = try PredicateParser.expression(format: format, arguments: arguments)
    }

    /// Reads an expression from a format string with its arguments in an array
    /// (Apple: `NSExpression(format:argumentArray:)`).
    ///
    /// - Parameters:
    ///   - format: The format string.
    ///   - argumentArray: The values for the format specifiers, in order.
    /// - Throws: ``PredicateParseError`` naming the position and what was expected.
    public init(format: String, argumentArray: [Any?]) throws(PredicateParseError) {
        self = try PredicateParser.expression(format: format, arguments: argumentArray)
    }
}
