// A recursive-descent parser for the predicate format language, predicate level.
// The expression level is in PredicateParser+Expressions.swift.

/// Reads tokens into a predicate or an expression.
///
/// Recursion is bounded by one count, the nesting level: a comparison of two plain values
/// (`a == 1`) is level 0, and each bracket pair, `NOT`/`!`, unary minus (not one folded into a
/// number literal), function call, aggregate, `SUBQUERY`, `[index]`, `AND`/`OR` grouping,
/// comparison inside another and operator of a chain (`1 + 1 + ...`) around it adds one.
/// Prefix levels (brackets, `NOT`, minus) are counted as they are read, left to right; the
/// levels a node builds below itself (operator chains) are its tree height. Past
/// ``maximumDepth`` levels the parser throws ``PredicateParseError/nestingTooDeep(position:limit:)``
/// at the token that opened the first level too many, so the tree's own recursive walks
/// (formatting, compiling, evaluating) stay shallow too.
struct PredicateParser {
    /// The most nesting levels the parser accepts (see the type's documentation).
    static let maximumDepth = 100

    let lexer: PredicateLexer
    var tokens: [PredicateToken] { lexer.tokens }
    var cursor = 0
    /// The levels open around the cursor: brackets, `NOT`s and minus signs read but not closed.
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

    /// Opens a bracket level; the opening bracket is the token before the cursor.
    mutating func enter() throws(PredicateParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw tooDeep(at: cursor - 1) }
    }

    mutating func leave() { depth -= 1 }

    /// A ``PredicateParseError/nestingTooDeep(position:limit:)`` at the token with index
    /// `tokenIndex` (the current token when nil).
    func tooDeep(at tokenIndex: Int? = nil) -> PredicateParseError {
        let token = tokenIndex.map { tokens[min(max($0, 0), tokens.count - 1)] } ?? current
        return .nestingTooDeep(position: position(of: token), limit: Self.maximumDepth)
    }

    /// Opens `count` prefix levels (`NOT`s, minus signs) whose tokens start at `firstToken`,
    /// or throws at the first of them past the limit.
    mutating func open(_ count: Int, firstToken: Int) throws(PredicateParseError) {
        if depth + count > Self.maximumDepth {
            throw tooDeep(at: firstToken + max(Self.maximumDepth - depth, 0))
        }
        depth += count
    }

    /// `height`, or a ``PredicateParseError/nestingTooDeep(position:limit:)`` at the token with
    /// index `tokenIndex` (the current token when nil) if a node that high, with the levels
    /// still open around it, is past the limit. A predicate's height counts its comparisons and
    /// their operands (a bare comparison is 2 high, level 0); an expression's counts its operands
    /// (a plain value is 1 high, level 0). `insideCall` leaves out the call's own bracket, which
    /// the node's height already counts.
    func checked(_ height: Int, expression: Bool = false, at tokenIndex: Int? = nil,
                 insideCall: Bool = false) throws(PredicateParseError) -> Int {
        let levels = height - (expression ? 1 : 2) + depth - (insideCall ? 1 : 0)
        if levels > Self.maximumDepth { throw tooDeep(at: tokenIndex) }
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

    /// `NOT p`, `! p` (any number, read in a loop), then a comparison. Each `NOT` opens a level
    /// while its operand is read.
    mutating func parseComparison() throws(PredicateParseError) -> Operand {
        var count = 0
        let first = cursor
        while isKeyword(.not) || isSymbol("!") {
            advance()
            count += 1
        }
        guard count > 0 else { return try parseBareComparison() }
        try open(count, firstToken: first)
        let operand = try parseBareComparison()
        depth -= count
        return .predicate(try negated(try requirePredicate(operand), times: count, firstToken: first))
    }

    /// `times` NOTs around `predicate`, innermost first; the NOT tokens start at `firstToken`.
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
