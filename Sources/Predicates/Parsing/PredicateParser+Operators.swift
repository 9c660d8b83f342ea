// Comparison operators and their [cd] modifiers.

extension PredicateParser {
    private static let symbolOperators: [String: ComparisonOperator] = [
        "==": .equalTo, "=": .equalTo, "!=": .notEqualTo, "<>": .notEqualTo,
        "<": .lessThan, "<=": .lessThanOrEqualTo, "=<": .lessThanOrEqualTo,
        ">": .greaterThan, ">=": .greaterThanOrEqualTo, "=>": .greaterThanOrEqualTo,
    ]

    private static let keywordOperators: [PredicateKeyword: ComparisonOperator] = [
        .in: .in, .like: .like, .matches: .matches, .contains: .contains,
        .beginsWith: .beginsWith, .endsWith: .endsWith, .between: .between,
    ]

    /// Reads a comparison operator and its options, or returns nil when the current token is
    /// not an operator.
    mutating func parseOperator() throws(PredicateParseError) -> (ComparisonOperator, ComparisonOptions)? {
        let found: ComparisonOperator?
        switch current.kind {
        case .symbol(let text): found = Self.symbolOperators[text]
        case .keyword(let keyword): found = Self.keywordOperators[keyword]
        default: found = nil
        }
        guard let comparisonOperator = found else { return nil }
        advance()
        return (comparisonOperator, try parseOptions())
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]` in any order and case, directly after an operator.
    private mutating func parseOptions() throws(PredicateParseError) -> ComparisonOptions {
        guard isSymbol("[") else { return [] }
        let start = current
        advance()
        let word: String
        switch current.kind {
        case .identifier(let name, escaped: false): word = name
        case .keyword(let keyword): word = keyword.rawValue
        default: throw unexpected("an operator modifier such as c, d or cd")
        }
        var options: ComparisonOptions = []
        for letter in word.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw PredicateParseError.invalidModifier(position: position(of: start), modifier: word)
            }
        }
        advance()
        try expectSymbol("]", expected: "']' after the operator modifier")
        return options
    }
}
