// A recursive-descent parser for the predicate format language, predicate level.
// The expression level is in PredicateParser+Expressions.swift.

/// Reads tokens into a predicate or an expression.
///
/// Recursion is bounded: parentheses, function calls, aggregates and subqueries may nest
/// ``maximumDepth`` levels, and the resulting tree may be ``maximumDepth`` levels high (a long
/// chain such as `1 + 1 + 1 ...` grows the tree without nesting parentheses). Past either
/// bound the parser throws ``PredicateParseError/nestingTooDeep(position:limit:)``, so the
/// tree's own recursive walks (formatting, compiling, evaluating) stay shallow too.
struct PredicateParser {
    /// The deepest nesting and the highest tree the parser accepts.
    static let maximumDepth = 100

    let lexer: PredicateLexer
    var tokens: [PredicateToken] { lexer.tokens }
    var cursor = 0
    var depth = 0
    let arguments: [Any?]
    var argumentIndex = 0

    struct Parsed<Value> {
        var value: Value
        var height: Int
    }

    typealias ParsedExpression = Parsed<KeyValueExpression>
    typealias ParsedPredicate = Parsed<KeyValuePredicate>

    /// A parenthesized operand can be a predicate or an expression until what follows says.
    enum Operand {
        case expression(ParsedExpression)
        case predicate(ParsedPredicate)
    }

    init(format: String, arguments: [Any?]) throws(PredicateParseError) {
        lexer = try PredicateLexer.tokenize(format)
        self.arguments = arguments
    }

    // MARK: Entry points

    static func predicate(format: String, arguments: [Any?]) throws(PredicateParseError) -> KeyValuePredicate {
        do {
            let parser = try PredicateParser(format: format, arguments: arguments)
            return try parser.run { parser throws(PredicateParseError) in
                let result = try parser.parsePredicate()
                try parser.expectEnd(expected: "AND, OR or end of input")
                return result.value
            }
        } catch {
            throw error.quoting(format)
        }
    }

    static func expression(format: String, arguments: [Any?]) throws(PredicateParseError) -> KeyValueExpression {
        do {
            let parser = try PredicateParser(format: format, arguments: arguments)
            return try parser.run { parser throws(PredicateParseError) in
                let result = try parser.parseExpression()
                try parser.expectEnd(expected: "an operator or end of input")
                return result.value
            }
        } catch {
            throw error.quoting(format)
        }
    }

    /// Bracket nesting above which parsing moves to a thread with a large stack.
    static let inlineDepth = 12

    /// Runs `body`, on a large-stack thread when the brackets nest deeply.
    private func run<Value>(_ body: @escaping (inout PredicateParser) throws(PredicateParseError) -> Value)
        throws(PredicateParseError) -> Value {
        var parser = self
        if lexer.bracketDepth <= Self.inlineDepth {
            return try body(&parser)
        }
        let result: Result<Value, PredicateParseError> = LargeStack.run {
            do throws(PredicateParseError) {
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Tokens

    var current: PredicateToken { tokens[cursor] }

    mutating func advance() { if cursor < tokens.count - 1 { cursor += 1 } }

    func isSymbol(_ text: String) -> Bool {
        if case .symbol(text) = current.kind { return true }
        return false
    }

    func isKeyword(_ keyword: PredicateKeyword) -> Bool {
        if case .keyword(keyword) = current.kind { return true }
        return false
    }

    mutating func expectSymbol(_ text: String, expected: String? = nil) throws(PredicateParseError) {
        guard isSymbol(text) else { throw unexpected(expected ?? "'\(text)'") }
        advance()
    }

    func expectEnd(expected: String) throws(PredicateParseError) {
        if case .end = current.kind { return }
        throw unexpected(expected)
    }

    func position(of token: PredicateToken) -> Int { lexer.position(ofByte: token.offset) }

    func unexpected(_ expected: String) -> PredicateParseError {
        .unexpectedToken(position: position(of: current), found: current.text, expected: expected)
    }

    mutating func enter() throws(PredicateParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw tooDeep() }
    }

    mutating func leave() { depth -= 1 }

    func tooDeep() -> PredicateParseError {
        .nestingTooDeep(position: position(of: current), limit: Self.maximumDepth)
    }

    func checked(_ height: Int) throws(PredicateParseError) -> Int {
        if height > Self.maximumDepth { throw tooDeep() }
        return height
    }

    /// `height`, or a ``PredicateParseError/nestingTooDeep(position:limit:)`` at the token with
    /// index `tokenIndex` (where a chain read in a loop crossed the limit).
    func checked(_ height: Int, at tokenIndex: Int) throws(PredicateParseError) -> Int {
        if height > Self.maximumDepth {
            let token = tokens[min(max(tokenIndex, 0), tokens.count - 1)]
            throw .nestingTooDeep(position: position(of: token), limit: Self.maximumDepth)
        }
        return height
    }

    // MARK: Predicates

    mutating func parsePredicate() throws(PredicateParseError) -> ParsedPredicate {
        switch try parseOr() {
        case .predicate(let predicate): return predicate
        case .expression: throw unexpected("a comparison operator")
        }
    }

    /// `a AND b OR c AND d`: flat AND lists inside a flat OR list, read in one loop (AND binds
    /// tighter than OR). A lone operand passes through unchanged, so that a parenthesized
    /// expression can still be compared.
    mutating func parseOr() throws(PredicateParseError) -> Operand {
        let first = try parseComparison()
        guard isAnd || isOr else { return first }
        var ors: [ParsedPredicate] = []
        var ands = [try requirePredicate(first)]
        while isAnd || isOr {
            let or = isOr
            advance()
            if or {
                ors.append(try combine(ands, or: false))
                ands = []
            }
            ands.append(try requirePredicate(try parseComparison()))
        }
        let last = try combine(ands, or: false)
        if ors.isEmpty { return .predicate(last) }
        ors.append(last)
        return .predicate(try combine(ors, or: true))
    }

    private var isOr: Bool { isKeyword(.or) || isSymbol("||") }
    private var isAnd: Bool { isKeyword(.and) || isSymbol("&&") }

    private func combine(_ list: [ParsedPredicate], or: Bool) throws(PredicateParseError) -> ParsedPredicate {
        if list.count == 1 { return list[0] }
        let height = try checked((list.map(\.height).max() ?? 0) + 1)
        let values = list.map(\.value)
        return ParsedPredicate(value: or ? .or(values) : .and(values), height: height)
    }

    /// `NOT p`, `! p` (any number, read in a loop), then a comparison.
    mutating func parseComparison() throws(PredicateParseError) -> Operand {
        var count = 0
        let first = cursor
        while isKeyword(.not) || isSymbol("!") {
            advance()
            count += 1
        }
        let operand = try parseBareComparison()
        guard count > 0 else { return operand }
        return .predicate(try negated(try requirePredicate(operand), times: count, firstToken: first))
    }

    /// `times` NOTs around `predicate`, innermost first; the NOT tokens start at `firstToken`
    /// (a limit crossed is reported at the NOT that crossed it).
    private func negated(_ predicate: ParsedPredicate, times: Int,
                         firstToken: Int) throws(PredicateParseError) -> ParsedPredicate {
        var result = predicate
        for index in 0..<times {
            let height = try checked(result.height + 1, at: firstToken + times - 1 - index)
            result = ParsedPredicate(value: .not(result.value), height: height)
        }
        return result
    }

    func requirePredicate(_ operand: Operand) throws(PredicateParseError) -> ParsedPredicate {
        switch operand {
        case .predicate(let predicate): return predicate
        case .expression: throw unexpected("a comparison operator")
        }
    }

    /// A comparison, `TRUEPREDICATE`/`FALSEPREDICATE`, or an operand that may be a
    /// parenthesized predicate.
    private mutating func parseBareComparison() throws(PredicateParseError) -> Operand {
        if isKeyword(.truePredicate) || isKeyword(.falsePredicate) {
            let value = isKeyword(.truePredicate)
            advance()
            return .predicate(ParsedPredicate(value: KeyValuePredicate(value: value), height: 1))
        }
        var modifier = ComparisonModifier.direct
        var negate = false
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .any; negate = true
        default: break
        }
        if modifier != .direct { advance() }
        let left = try parseOperand()
        guard case .expression(let leftExpression) = left else {
            if modifier != .direct { throw unexpected("an expression after ANY, SOME, ALL or NONE") }
            return left
        }
        guard let (comparisonOperator, options) = try parseOperator() else {
            if modifier != .direct { throw unexpected("a comparison operator") }
            return left
        }
        let rightToken = current
        let right = try parseExpression()
        if comparisonOperator == .matches, case .constant(.string(let pattern)) = right.value {
            do {
                _ = try StringMatcher(.matches, pattern: pattern, options: options)
            } catch {
                if case let .invalidRegularExpression(_, reason) = error {
                    throw .invalidRegularExpression(position: position(of: rightToken), pattern: pattern, reason: reason)
                }
            }
        }
        let comparison = KeyValueComparison(leftExpression.value, comparisonOperator, right.value,
                                            modifier: modifier, options: options)
        var result = ParsedPredicate(value: KeyValuePredicate(.comparison(comparison)),
                                     height: try checked(max(leftExpression.height, right.height) + 1))
        if negate { result = try negated(result, times: 1, firstToken: cursor) }
        return .predicate(result)
    }
}
