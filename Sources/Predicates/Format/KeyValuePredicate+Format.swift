// predicateFormat: the canonical text of a predicate, which parses back to an equal one.

extension KeyValuePredicate: CustomStringConvertible, CustomDebugStringConvertible {
    /// The predicate as format-string text (Apple: `predicateFormat`).
    ///
    /// The text follows Apple's canonical spelling: `==`, `!=`, `<=`, `>=`, upper-case
    /// keywords, double-quoted strings, `[cd]` modifiers, `ANY`/`ALL` prefixes, and compound
    /// subpredicates in parentheses. Parsing it again with ``init(format:_:)`` gives an equal
    /// predicate, except for constants that have no literal form (arbitrary objects passed as
    /// `%@`, dictionaries) and keys that are not identifiers (passed with `%K`).
    ///
    /// ```swift
    /// try KeyValuePredicate(format: "age>30 and name beginswith[c] 'a'").predicateFormat
    /// // age > 30 AND name BEGINSWITH[c] "a"
    /// ```
    public var predicateFormat: String {
        var output = ""
        PredicateFormatter.write(self, into: &output)
        return output
    }

    /// The same as ``predicateFormat``.
    public var description: String { predicateFormat }

    public var debugDescription: String { "KeyValuePredicate(\(predicateFormat))" }
}

extension KeyValueExpression: CustomStringConvertible {
    /// The expression as format-string text (Apple: `NSExpression.description`).
    public var description: String {
        var output = ""
        PredicateFormatter.write(self, precedence: 0, into: &output)
        return output
    }
}

/// Writes predicates and expressions as text.
enum PredicateFormatter {
    static func write(_ predicate: KeyValuePredicate, into output: inout String) {
        switch predicate.kind {
        case .constant(let value):
            output += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            write(comparison, into: &output)
        case .and(let list):
            writeCompound(list, separator: " AND ", empty: "TRUEPREDICATE", into: &output)
        case .or(let list):
            writeCompound(list, separator: " OR ", empty: "FALSEPREDICATE", into: &output)
        case .not(let inner):
            output += "NOT "
            writeOperand(inner, into: &output)
        case .block(let block):
            output += block.predicateFormat
        }
    }

    private static func writeCompound(_ list: [KeyValuePredicate], separator: String, empty: String,
                                      into output: inout String) {
        guard !list.isEmpty else {
            output += empty
            return
        }
        for (index, predicate) in list.enumerated() {
            if index > 0 { output += separator }
            writeOperand(predicate, into: &output)
        }
    }

    /// Compound subpredicates go in parentheses, as Apple writes them.
    private static func writeOperand(_ predicate: KeyValuePredicate, into output: inout String) {
        switch predicate.kind {
        case .and(let list) where !list.isEmpty, .or(let list) where !list.isEmpty:
            output += "("
            write(predicate, into: &output)
            output += ")"
        default:
            write(predicate, into: &output)
        }
    }

    private static func write(_ comparison: KeyValueComparison, into output: inout String) {
        switch comparison.modifier {
        case .direct: break
        case .any: output += "ANY "
        case .all: output += "ALL "
        }
        write(comparison.leftExpression, precedence: 0, into: &output)
        output += " "
        output += comparison.comparisonOperator.symbol
        output += comparison.options.modifierText
        output += " "
        write(comparison.rightExpression, precedence: 0, into: &output)
    }
}
