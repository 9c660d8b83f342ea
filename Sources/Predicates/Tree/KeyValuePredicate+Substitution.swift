// Binding $variables to constants (Apple: withSubstitutionVariables).

extension KeyValuePredicate {
    /// A copy of the predicate with `$variables` replaced by constants
    /// (Apple: `withSubstitutionVariables(_:)`).
    ///
    /// Variables bound by a `SUBQUERY` inside the predicate are left alone within it.
    ///
    /// ```swift
    /// let template = try KeyValuePredicate(format: "age > $minimum")
    /// let p = try template.withSubstitutionVariables(["minimum": 30])   // age > 30
    /// ```
    ///
    /// - Parameter variables: Values by variable name (without `$`); `nil` binds `nil`.
    /// - Returns: The predicate with every free variable replaced.
    /// - Throws: ``PredicateEvaluationError/unboundVariable(_:)`` for a variable without a value, as
    ///   Apple raises an exception then.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws(PredicateEvaluationError) -> KeyValuePredicate {
        try substituting(variables, bound: [])
    }

    func substituting(_ variables: [String: Any?], bound: Set<String>) throws(PredicateEvaluationError) -> KeyValuePredicate {
        switch kind {
        case .constant:
            return self
        case .comparison(var comparison):
            comparison.leftExpression = try comparison.leftExpression.substituting(variables, bound: bound)
            comparison.rightExpression = try comparison.rightExpression.substituting(variables, bound: bound)
            return KeyValuePredicate(.comparison(comparison))
        case .and(let list):
            return .and(try list.map { p throws(PredicateEvaluationError) in try p.substituting(variables, bound: bound) })
        case .or(let list):
            return .or(try list.map { p throws(PredicateEvaluationError) in try p.substituting(variables, bound: bound) })
        case .not(let inner):
            return .not(try inner.substituting(variables, bound: bound))
        case .block(let block):
            // Apple's block predicates keep the bindings and pass them to the block.
            var values: [String: KeyValueConstant] = [:]
            for (name, value) in variables where !bound.contains(name) { values[name] = KeyValueConstant(value) }
            return KeyValuePredicate(.block(KeyValueBlockPredicate(identity: block.identity, boundVariables: values)))
        }
    }
}

extension KeyValueExpression {
    /// A copy of the expression with `$variables` replaced by constants.
    ///
    /// - Parameter variables: Values by variable name (without `$`).
    /// - Returns: The expression with every free variable replaced.
    /// - Throws: ``PredicateEvaluationError/unboundVariable(_:)`` for a variable without a value.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws(PredicateEvaluationError) -> KeyValueExpression {
        try substituting(variables, bound: [])
    }

    func substituting(_ variables: [String: Any?], bound: Set<String>) throws(PredicateEvaluationError) -> KeyValueExpression {
        func map(_ list: [KeyValueExpression]) throws(PredicateEvaluationError) -> [KeyValueExpression] {
            try list.map { e throws(PredicateEvaluationError) in try e.substituting(variables, bound: bound) }
        }
        switch self {
        case .evaluatedObject, .constant, .keyPath, .indexSymbol:
            return self
        case .variable(let name):
            if bound.contains(name) { return self }
            guard let value = variables[name] else { throw .unboundVariable(name) }
            return .constant(KeyValueConstant(value))
        case let .keyPathOf(operand, path):
            return .keyPathOf(try operand.substituting(variables, bound: bound), path)
        case .aggregate(let elements):
            return .aggregate(try map(elements))
        case let .function(name, arguments):
            return .function(name, try map(arguments))
        case let .subquery(collection, variable, predicate):
            var inner = bound
            inner.insert(variable)
            return .subquery(try collection.substituting(variables, bound: bound), variable: variable,
                             predicate: try predicate.substituting(variables, bound: inner))
        case let .conditional(predicate, whenTrue, whenFalse):
            return .conditional(try predicate.substituting(variables, bound: bound),
                                try whenTrue.substituting(variables, bound: bound),
                                try whenFalse.substituting(variables, bound: bound))
        case let .index(collection, index):
            return .index(try collection.substituting(variables, bound: bound),
                          try index.substituting(variables, bound: bound))
        case let .setOperation(left, operation, right):
            return .setOperation(try left.substituting(variables, bound: bound), operation,
                                 try right.substituting(variables, bound: bound))
        }
    }
}
