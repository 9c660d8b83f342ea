// Evaluating predicates and expressions, filtering collections.

extension KeyValuePredicate {
    /// Whether `object` satisfies the predicate (Apple: `evaluate(with:)`).
    ///
    /// `object` may be a ``KeyValueCoding/KeyValueCodable`` object, a `[String: Any]`
    /// dictionary, an array, a set, or a plain value (reached with `SELF`). Key paths are read
    /// through `KeyValuePath` (checked once when the predicate is compiled). The first call
    /// compiles the predicate; later calls reuse the compiled closures without a lock.
    ///
    /// ```swift
    /// let p = try KeyValuePredicate(format: "name BEGINSWITH[c] 'a' AND age > 30")
    /// try p.evaluate(with: ["name": "Ada", "age": 36])   // true
    /// ```
    ///
    /// - Parameter object: The value to test.
    /// - Returns: `true` when the predicate holds.
    /// - Throws: ``PredicateEvaluationError`` for an unbound variable, a value of the wrong kind (a
    ///   number compared with `<` to a string, `ANY` over a non-collection), an invalid
    ///   regular expression or a function error; `KeyValueCodingError` when a key is undefined.
    public func evaluate(with object: Any?) throws -> Bool {
        try compiled().test(object, nil)
    }

    /// Whether `object` satisfies the predicate, with `$variables` bound to `variables`
    /// (Apple: `evaluate(with:substitutionVariables:)`).
    ///
    /// - Parameters:
    ///   - object: The value to test.
    ///   - variables: Values by variable name (without `$`); `nil` binds `nil`.
    /// - Returns: `true` when the predicate holds.
    /// - Throws: As ``evaluate(with:)``.
    public func evaluate(with object: Any?, substitutionVariables variables: [String: Any?]) throws -> Bool {
        try compiled().test(object, VariableScope(variables))
    }
}

extension KeyValueExpression {
    /// The value of the expression for `object` (Apple: `expressionValue(with:context:)`).
    ///
    /// ```swift
    /// try KeyValueExpression(format: "2 ** 10").expressionValue(with: nil)   // 1024.0
    /// ```
    ///
    /// - Parameters:
    ///   - object: The object `SELF` and key paths refer to.
    ///   - variables: Values for `$variables`, by name.
    /// - Returns: The value; `nil` for nil.
    /// - Throws: As ``KeyValuePredicate/evaluate(with:)``.
    public func expressionValue(with object: Any?, variables: [String: Any?] = [:]) throws -> Any? {
        let reader = try ExpressionCompiler.compile(self)
        return try reader(object, variables.isEmpty ? nil : VariableScope(variables))
    }
}

extension Sequence {
    /// The elements that satisfy `predicate`, in order (Apple: `NSArray.filtered(using:)`).
    ///
    /// The predicate is compiled once for the whole sequence.
    ///
    /// - Parameter predicate: The test.
    /// - Returns: The matching elements.
    /// - Throws: The first error the predicate throws for an element.
    /// - Complexity: O(*n*) evaluations.
    @inlinable
    public func filtered(using predicate: KeyValuePredicate) throws -> [Element] {
        // Inlined so that the loop is specialised for the element type (no generic copies).
        let test = try predicate.compiledTest()
        var result: [Element] = []
        for element in self where try test(ValueEquality.box(element), nil) {
            result.append(element)
        }
        return result
    }
}

extension Array {
    /// Removes the elements that do not satisfy `predicate` (Apple:
    /// `NSMutableArray.filter(using:)`).
    ///
    /// - Parameter predicate: The test.
    /// - Throws: The first error the predicate throws; the array is unchanged then.
    /// - Complexity: O(*n*) evaluations.
    public mutating func filter(using predicate: KeyValuePredicate) throws {
        self = try filtered(using: predicate)
    }
}
