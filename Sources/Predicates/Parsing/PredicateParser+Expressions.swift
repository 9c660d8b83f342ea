// The expression level: arithmetic, unary minus, key paths, indexes and primaries.

extension PredicateParser {
    private static let binaryLevels: [[String: String]] = [
        ["+": "add:to:", "-": "from:subtract:"],
        ["*": "multiply:by:", "/": "divide:by:"],
    ]

    mutating func parseExpression() throws(PredicateParseError) -> ParsedExpression {
        try requireExpression(try parseOperand())
    }

    func requireExpression(_ operand: Operand) throws(PredicateParseError) -> ParsedExpression {
        switch operand {
        case .expression(let expression): return expression
        case .predicate: throw unexpected("an expression, not a predicate, before this token")
        }
    }

    /// An expression, or a parenthesized predicate.
    mutating func parseOperand() throws(PredicateParseError) -> Operand {
        try parseBinary(level: 0)
    }

    /// `+ -` then `* /`, left-associative, by precedence climbing in a loop.
    private mutating func parseBinary(level: Int) throws(PredicateParseError) -> Operand {
        if level == Self.binaryLevels.count { return try parseUnary() }
        var lhs = try parseBinary(level: level + 1)
        while case .symbol(let text) = current.kind, let name = Self.binaryLevels[level][text] {
            let left = try requireExpression(lhs)
            advance()
            let right = try requireExpression(try parseBinary(level: level + 1))
            let height = try checked(max(left.height, right.height) + 1)
            lhs = .expression(ParsedExpression(value: .function(name, [left.value, right.value]), height: height))
        }
        return lhs
    }

    /// `-x`, any number of times; a minus before a number literal folds into the constant.
    private mutating func parseUnary() throws(PredicateParseError) -> Operand {
        var count = 0
        while isSymbol("-") {
            advance()
            count += 1
        }
        let operand = try parsePower()
        guard count > 0 else { return operand }
        var expression = try requireExpression(operand)
        for _ in 0..<count {
            expression = try negated(expression)
        }
        return .expression(expression)
    }

    private func negated(_ expression: ParsedExpression) throws(PredicateParseError) -> ParsedExpression {
        if case .constant(let value) = expression.value {
            if let int = value as? Int, int != Int.min { return ParsedExpression(value: .constant(-int), height: 1) }
            if let double = value as? Double { return ParsedExpression(value: .constant(-double), height: 1) }
        }
        let height = try checked(expression.height + 1)
        return ParsedExpression(value: .function("negate:", [expression.value]), height: height)
    }

    /// `a ** b`, right-associative; binds tighter than unary minus and `* /`.
    private mutating func parsePower() throws(PredicateParseError) -> Operand {
        let base = try parsePostfix()
        guard isSymbol("**") else { return base }
        let left = try requireExpression(base)
        advance()
        try enter()
        defer { leave() }
        let right = try requireExpression(try parseUnary())
        let height = try checked(max(left.height, right.height) + 1)
        return .expression(ParsedExpression(value: .function("raise:toPower:", [left.value, right.value]),
                                            height: height))
    }

    /// A primary followed by `.key.path` components and `[index]` subscripts.
    private mutating func parsePostfix() throws(PredicateParseError) -> Operand {
        var operand = try parsePrimary()
        while true {
            if isSymbol(".") {
                var expression = try requireExpression(operand)
                var components: [String] = []
                while isSymbol(".") {
                    advance()
                    components.append(try readKeyComponent())
                }
                expression.value = Self.extend(expression.value, with: components.joined(separator: "."))
                expression.height = try checked(expression.height + 1)
                operand = .expression(expression)
            } else if isSymbol("[") {
                let collection = try requireExpression(operand)
                advance()
                try enter()
                let index = try parseIndex()
                try expectSymbol("]", expected: "']' after the index")
                leave()
                let height = try checked(max(collection.height, index.height) + 1)
                operand = .expression(ParsedExpression(value: .index(collection.value, index.value), height: height))
            } else {
                return operand
            }
        }
    }

    private mutating func parseIndex() throws(PredicateParseError) -> ParsedExpression {
        let symbols: [PredicateKeyword: KeyValueExpression.IndexSymbol] = [.first: .first, .last: .last, .size: .size]
        if case .keyword(let keyword) = current.kind, let symbol = symbols[keyword] {
            advance()
            return ParsedExpression(value: .indexSymbol(symbol), height: 1)
        }
        return try parseExpression()
    }

    static func extend(_ expression: KeyValueExpression, with path: String) -> KeyValueExpression {
        switch expression {
        case .evaluatedObject: return .keyPath(path)
        case .keyPath(let base): return .keyPath(base + "." + path)
        case .keyPathOf(let operand, let base): return .keyPathOf(operand, base + "." + path)
        default: return .keyPathOf(expression, path)
        }
    }

    /// One key after a dot: a name, a `#`-escaped name, `@operator`, or a reserved word used
    /// as a key (accepted after a dot, where it cannot be anything else).
    mutating func readKeyComponent() throws(PredicateParseError) -> String {
        switch current.kind {
        case .identifier(let name, _):
            advance()
            return name
        case .keyword:
            let word = sourceWord(at: current)
            advance()
            return word
        default:
            throw unexpected("a key after '.'")
        }
    }

    /// The word as written in the source at `token` (keywords lose their case otherwise).
    func sourceWord(at token: PredicateToken) -> String {
        var end = token.offset
        let bytes = lexer.bytes
        while end < bytes.count, PredicateLexer.isIdentifierByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[token.offset..<end], as: UTF8.self)
    }
}
