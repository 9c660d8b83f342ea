// The expression level: arithmetic, unary minus, key paths, indexes and primaries.

extension PredicateParser {
    /// Binary arithmetic operators: function name and binding strength.
    private static let binaryOperators: [String: (name: String, level: Int)] = [
        "+": ("add:to:", 1), "-": ("from:subtract:", 1), "*": ("multiply:by:", 2), "/": ("divide:by:", 2),
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

    /// An expression, or a parenthesized predicate. `+ -` and `* /` are left-associative and
    /// read with an operator stack (no recursion per operator).
    mutating func parseOperand() throws(PredicateParseError) -> Operand {
        let first = try parseFactor()
        guard case .symbol(let text) = current.kind, Self.binaryOperators[text] != nil else { return first }
        var operands = [try requireExpression(first)]
        var operators: [(name: String, level: Int)] = []
        while case .symbol(let text) = current.kind, let op = Self.binaryOperators[text] {
            advance()
            while let top = operators.last, top.level >= op.level {
                operators.removeLast()
                try reduce(top.name, &operands)
            }
            operators.append(op)
            operands.append(try requireExpression(try parseFactor()))
        }
        while let top = operators.popLast() {
            try reduce(top.name, &operands)
        }
        return .expression(operands[0])
    }

    private func reduce(_ name: String, _ operands: inout [ParsedExpression]) throws(PredicateParseError) {
        let right = operands.removeLast()
        let left = operands.removeLast()
        operands.append(try function(name, left, right))
    }

    private func function(_ name: String, _ left: ParsedExpression,
                          _ right: ParsedExpression) throws(PredicateParseError) -> ParsedExpression {
        let height = try checked(max(left.height, right.height) + 1)
        return ParsedExpression(value: .function(name, [left.value, right.value]), height: height)
    }

    /// Unary minus and `**` chains. `**` is right-associative and binds tighter than unary
    /// minus (`-a ** b` is `-(a ** b)`); a minus before a number literal folds into it.
    private mutating func parseFactor() throws(PredicateParseError) -> Operand {
        var minusStart = cursor
        let minus = countMinus()
        let base = try parsePostfix()
        guard minus > 0 || isSymbol("**") else { return base }
        // Each operand with its minus signs (and where they start) and the `**` token after it.
        var items = [(minus: minus, minusStart: minusStart, value: try requireExpression(base), power: 0)]
        while isSymbol("**") {
            items[items.count - 1].power = cursor
            advance()
            minusStart = cursor
            let count = countMinus()
            items.append((count, minusStart, try requireExpression(try parsePostfix()), 0))
        }
        let last = items[items.count - 1]
        var result = try negated(last.value, times: last.minus, firstToken: last.minusStart)
        for index in stride(from: items.count - 2, through: 0, by: -1) {
            let item = items[index]
            let height = try checked(max(item.value.height, result.height) + 1, at: item.power)
            result = ParsedExpression(value: .function("raise:toPower:", [item.value.value, result.value]), height: height)
            result = try negated(result, times: item.minus, firstToken: item.minusStart)
        }
        return .expression(result)
    }

    private mutating func countMinus() -> Int {
        var count = 0
        while isSymbol("-") {
            advance()
            count += 1
        }
        return count
    }

    private func negated(_ expression: ParsedExpression, times: Int,
                         firstToken: Int) throws(PredicateParseError) -> ParsedExpression {
        var result = expression
        for step in 0..<times {
            if case .constant(let value) = result.value {
                if let int = value as? Int, int != Int.min {
                    result = ParsedExpression(value: .constant(-int), height: 1)
                    continue
                }
                if let double = value as? Double {
                    result = ParsedExpression(value: .constant(-double), height: 1)
                    continue
                }
            }
            let height = try checked(result.height + 1, at: firstToken + times - 1 - step)
            result = ParsedExpression(value: .function("negate:", [result.value]), height: height)
        }
        return result
    }

    /// A primary followed by `.key.path` components and `[index]` subscripts.
    mutating func parsePostfix() throws(PredicateParseError) -> Operand {
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
