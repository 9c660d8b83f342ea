// Rewriting the constants of a tree (the hook a later layer uses to turn objects into IDs),
// and whether a tree can be translated into another language.

extension KeyValuePredicate {
    /// A copy of the predicate with every constant replaced by `transform`'s result.
    ///
    /// This is the hook for a layer above the predicates: a managed-object layer replaces
    /// each ``KeyValueConstant/object(_:)`` reference to a managed object by the object's ID
    /// (a `Sendable` value) before it hands the predicate to a store, and a store can swap
    /// IDs for its primary keys. Constants inside arrays, sets and dictionaries are given to
    /// `transform` as a whole; walk them yourself when you need to.
    ///
    /// ```swift
    /// let resolved = try predicate.mappingConstants { constant in
    ///     guard case .object(let reference) = constant, let item = reference.object as? Item
    ///     else { return constant }
    ///     return KeyValueConstant(item.id)
    /// }
    /// ```
    ///
    /// Block predicates are kept as they are (their bound variables included).
    ///
    /// - Parameter transform: Returns the replacement of a constant (the constant itself to
    ///   keep it).
    /// - Returns: The rewritten predicate.
    /// - Throws: What `transform` throws.
    /// - Complexity: O(*n*) in the size of the tree.
    public func mappingConstants(_ transform: (KeyValueConstant) throws -> KeyValueConstant) rethrows -> KeyValuePredicate {
        switch kind {
        case .constant, .block:
            return self
        case .comparison(var comparison):
            comparison.leftExpression = try comparison.leftExpression.mappingConstants(transform)
            comparison.rightExpression = try comparison.rightExpression.mappingConstants(transform)
            return KeyValuePredicate(.comparison(comparison))
        case .and(let list):
            return .and(try list.map { try $0.mappingConstants(transform) })
        case .or(let list):
            return .or(try list.map { try $0.mappingConstants(transform) })
        case .not(let inner):
            return .not(try inner.mappingConstants(transform))
        }
    }

    /// Whether the predicate can be translated into another language, such as SQL: false
    /// when it contains a block predicate anywhere (also inside `SUBQUERY` or `TERNARY`),
    /// which only Swift can evaluate.
    ///
    /// A store that compiles predicates into queries evaluates an untranslatable predicate in
    /// memory instead, or rejects it with ``checkTranslatable()``'s error.
    public var isTranslatable: Bool {
        (try? checkTranslatable()) != nil
    }

    /// Throws when the predicate cannot be translated into another language (see
    /// ``isTranslatable``).
    ///
    /// - Throws: ``PredicateTranslationError/blockPredicate(_:)`` naming the first block
    ///   predicate found.
    public func checkTranslatable() throws(PredicateTranslationError) {
        switch kind {
        case .constant: return
        case .block(let block): throw .blockPredicate(block.predicateFormat)
        case .comparison(let comparison):
            try comparison.leftExpression.checkTranslatable()
            try comparison.rightExpression.checkTranslatable()
        case .and(let list), .or(let list):
            for predicate in list { try predicate.checkTranslatable() }
        case .not(let inner):
            try inner.checkTranslatable()
        }
    }
}

extension KeyValueExpression {
    /// A copy of the expression with every constant replaced by `transform`'s result (see
    /// ``KeyValuePredicate/mappingConstants(_:)``).
    ///
    /// - Parameter transform: Returns the replacement of a constant.
    /// - Returns: The rewritten expression.
    /// - Throws: What `transform` throws.
    /// - Complexity: O(*n*) in the size of the tree.
    public func mappingConstants(_ transform: (KeyValueConstant) throws -> KeyValueConstant) rethrows -> KeyValueExpression {
        switch self {
        case .evaluatedObject, .keyPath, .variable, .indexSymbol:
            return self
        case .constant(let value):
            return .constant(try transform(value))
        case let .keyPathOf(operand, path):
            return .keyPathOf(try operand.mappingConstants(transform), path)
        case .aggregate(let elements):
            return .aggregate(try elements.map { try $0.mappingConstants(transform) })
        case let .function(function, arguments):
            return .function(function, try arguments.map { try $0.mappingConstants(transform) })
        case let .subquery(collection, variable, predicate):
            return .subquery(try collection.mappingConstants(transform), variable: variable,
                             predicate: try predicate.mappingConstants(transform))
        case let .conditional(predicate, whenTrue, whenFalse):
            return .conditional(try predicate.mappingConstants(transform), try whenTrue.mappingConstants(transform),
                                try whenFalse.mappingConstants(transform))
        case let .index(collection, index):
            return .index(try collection.mappingConstants(transform), try index.mappingConstants(transform))
        case let .setOperation(left, operation, right):
            return .setOperation(try left.mappingConstants(transform), operation, try right.mappingConstants(transform))
        }
    }

    func checkTranslatable() throws(PredicateTranslationError) {
        switch self {
        case .evaluatedObject, .constant, .keyPath, .variable, .indexSymbol:
            return
        case .keyPathOf(let operand, _):
            try operand.checkTranslatable()
        case .aggregate(let list), .function(_, let list):
            for element in list { try element.checkTranslatable() }
        case let .subquery(collection, _, predicate):
            try collection.checkTranslatable()
            try predicate.checkTranslatable()
        case let .conditional(predicate, whenTrue, whenFalse):
            try predicate.checkTranslatable()
            try whenTrue.checkTranslatable()
            try whenFalse.checkTranslatable()
        case let .index(a, b), let .setOperation(a, _, b):
            try a.checkTranslatable()
            try b.checkTranslatable()
        }
    }
}
