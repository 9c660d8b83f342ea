// The expression level: arithmetic, unary minus, key paths, indexes and primaries.

extension PredicateParser {
    /// A binary operator between operands: arithmetic (a function) or a set operation.
    enum BinaryOperator {
        case function(KeyValueExpression.Function)
        case set(KeyValueExpression.SetOperation)

        /// Binding strength: set operations weakest, then `+ -`, then `* /`.
        var level: Int {
            switch self {
            case .set: return 0
            case .function(.add), .function(.subtract): return 1
            case .function: return 2
            }
        }
    }

    /// Binary arithmetic operators by symbol.
    private static let arithmeticOperators: [String: KeyValueExpression.Function] = [
        "+": .add, "-": .subtract, "*": .multiply, "/": .divide,
    ]

    /// The binary operator at the cursor, if any. `UNION`, `INTERSECT` and `MINUS` are
    /// recognized (in any case) only here, between two operands, so they stay usable as keys.
    private var binaryOperator: BinaryOperator? {
        switch current.kind {
        case .symbol(let text):
            return Self.arithmeticOperators[text].map { .function($0) }
        case .identifier(let name, escaped: false):
            return KeyValueExpression.SetOperation(rawValue: name.uppercased()).map { .set($0) }
        default:
            return nil
        }
    }

    mutating func parseExpression() throws(PredicateParseError) -> ParsedExpression {
        try requireExpression(try parseOperand())
    }

    func requireExpression(_ operand: Operand) throws(PredicateParseError) -> ParsedExpression {
        switch operand {
        case .expression(let expression): return expression
        case .predicate: throw unexpected("an expression, not a predicate, before this token")
        }
    }

    /// An expression, or a parenthesized predicate. Set operations, `+ -` and `* /` are
    /// left-associative and read with an operator stack (no recursion per operator).
    mutating func parseOperand() throws(PredicateParseError) -> Operand {
        let first = try parseFactor()
        guard binaryOperator != nil else { return first }
        var operands = [try requireExpression(first)]
        var operators: [(op: BinaryOperator, token: Int)] = []
        while let op = binaryOperator {
            let token = cursor
            advance()
            while let top = operators.last, top.op.level >= op.level {
                operators.removeLast()
                try reduce(top.op, at: top.token, &operands)
            }
            operators.append((op, token))
            operands.append(try requireExpression(try parseFactor()))
        }
        while let top = operators.popLast() {
            try reduce(top.op, at: top.token, &operands)
        }
        return .expression(operands[0])
    }

    /// Combines the last two operands with `op`, whose token has index `token` (where a chain
    /// too long is reported).
    private func reduce(_ op: BinaryOperator, at token: Int,
                        _ operands: inout [ParsedExpression]) throws(PredicateParseError) {
        let right = operands.removeLast()
        let left = operands.removeLast()
        let height = try checked(max(left.height, right.height) + 1, expression: true, at: token)
        let value: KeyValueExpression
        switch op {
        case .function(let function): value = .function(function, [left.value, right.value])
        case .set(let operation): value = .setOperation(left.value, operation, right.value)
        }
        operands.append(ParsedExpression(value: value, height: height))
    }

    /// Unary minus and `**` chains. `**` is right-associative and binds tighter than unary
    /// minus (`-a ** b` is `-(a ** b)`); a minus before a number literal folds into it. Each
    /// minus sign and each `**` opens a level for everything to its right until the chain ends,
    /// so a chain too deep is reported at the sign or `**` past the limit, reading left to right.
    private mutating func parseFactor() throws(PredicateParseError) -> Operand {
        var minusStart = cursor
        let minus = countMinus()
        var literal = isNumberLiteral
        var opened = literal ? 0 : minus
        try open(opened, firstToken: minusStart)
        let base = try parsePostfix()
        guard minus > 0 || isSymbol("**") else {
            depth -= opened
            return base
        }
        // Each operand with its minus signs (and where they start) and the `**` token after it.
        var items = [(minus: minus, minusStart: minusStart, value: try requireExpression(base), power: 0, literal: literal)]
        while isSymbol("**") {
            items[items.count - 1].power = cursor
            try open(1, firstToken: cursor)
            opened += 1
            advance()
            minusStart = cursor
            let count = countMinus()
            literal = isNumberLiteral
            if !literal {
                try open(count, firstToken: minusStart)
                opened += count
            }
            items.append((count, minusStart, try requireExpression(try parsePostfix()), 0, literal))
        }
        depth -= opened
        let last = items[items.count - 1]
        var result = try negated(last.value, times: last.minus, firstToken: last.minusStart, literal: last.literal)
        for index in stride(from: items.count - 2, through: 0, by: -1) {
            let item = items[index]
            let height = try checked(max(item.value.height, result.height) + 1, expression: true, at: item.power)
            result = ParsedExpression(value: .function(.raise, [item.value.value, result.value]), height: height)
            result = try negated(result, times: item.minus, firstToken: item.minusStart, literal: false)
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

    /// Whether the current token is a number literal (a minus sign before it folds into it).
    private var isNumberLiteral: Bool {
        switch current.kind {
        case .integer, .unsignedInteger, .float: return true
        default: return false
        }
    }

    /// `times` minus signs before `expression`. They fold into the constant when the operand
    /// is a number literal written as such (`-5`), not a parenthesized one (`-(5)`, which stays
    /// `negate:` so that the formatter can write `negate:` of a number constant).
    private func negated(_ expression: ParsedExpression, times: Int, firstToken: Int,
                         literal: Bool) throws(PredicateParseError) -> ParsedExpression {
        var result = expression
        for step in 0..<times {
            if literal, case .constant(let value) = result.value {
                if case .integer(let int) = value, int != Int64.min {
                    result = ParsedExpression(value: .constant(.integer(-int)), height: 1)
                    continue
                }
                if case .unsignedInteger(let magnitude) = value, magnitude == UInt64(Int64.max) + 1 {
                    result = ParsedExpression(value: .constant(.integer(.min)), height: 1)   // -9223372036854775808
                    continue
                }
                if case .double(let double) = value {
                    result = ParsedExpression(value: .constant(.double(-double)), height: 1)
                    continue
                }
            }
            let height = try checked(result.height + 1, expression: true, at: firstToken + times - 1 - step)
            result = ParsedExpression(value: .function(.negate, [result.value]), height: height)
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
                if case .keyPathOf = expression.value {   // a plain key path `a.b` stays one value
                    expression.height = try checked(expression.height + 1, expression: true)
                }
                operand = .expression(expression)
            } else if isSymbol("[") {
                let collection = try requireExpression(operand)
                advance()
                try enter()
                let index = try parseIndex()
                try expectSymbol("]", expected: "']' after the index")
                leave()
                let height = try checked(max(collection.height, index.height) + 1, expression: true)
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
