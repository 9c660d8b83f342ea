// Errors thrown while reading a format string.
import Foundation

/// Why a format string could not be read into a predicate or an expression.
///
/// ``kind`` says what went wrong; every kind carries `position`: the offset, in characters
/// from the start of the format string, of the token where reading stopped. ``format`` is the
/// format string itself, which ``errorDescription`` quotes with a mark under the position.
/// Apple's `NSPredicate(format:)` raises an `NSInvalidArgumentException` ("Unable to parse the
/// format string") instead.
///
/// ```swift
/// do {
///     _ = try KeyValuePredicate(format: "age >")
/// } catch {
///     error.position   // 5
///     error.kind       // .unexpectedToken(position: 5, found: "end of input", expected: "an expression")
///     error.localizedDescription
///     // Cannot parse the predicate format at position 5: expected an expression, found end of input
///     //     age >
///     //          ^
/// }
/// ```
public struct PredicateParseError: Error, Equatable, Sendable {
    /// What went wrong, and where.
    public enum Kind: Equatable, Sendable {
        /// A token that does not fit the grammar: `expected` says what would have.
        case unexpectedToken(position: Int, found: String, expected: String)
        /// A quoted string without its closing quote.
        case unterminatedString(position: Int)
        /// A malformed number (`0x`, `1e`, an out-of-range hexadecimal literal).
        case invalidNumber(position: Int, text: String)
        /// A character that starts no token (for example `~` or a control character).
        case invalidCharacter(position: Int, character: String)
        /// Brackets, `NOT`s, minus signs, functions, aggregates or operators nested deeper than
        /// `limit` levels; `position` is the token that opens the first level too many.
        case nestingTooDeep(position: Int, limit: Int)
        /// A format specifier (`%@`, `%K`, `%d`...) with no argument left for it; `index`
        /// counts from zero.
        case missingArgument(position: Int, index: Int, specifier: String)
        /// An argument of the wrong type for its specifier (`%K` needs a string, `%d` an
        /// integer).
        case argumentTypeMismatch(position: Int, index: Int, specifier: String, expected: String,
                                  actual: String)
        /// A `%` specifier the language does not know (`%q`, `%%`).
        case unsupportedSpecifier(position: Int, specifier: String)
        /// A function name that is not built in (see ``KeyValueExpression/Function``).
        case unknownFunction(position: Int, name: String)
        /// A built-in function called with the wrong number of arguments.
        case wrongArgumentCount(position: Int, function: String, expected: Int, actual: Int)
        /// An operator modifier other than combinations of `c`, `d` and `n` (such as `[x]`).
        case invalidModifier(position: Int, modifier: String)
        /// A `CAST` to a type other than `"NSDate"`, `"NSNumber"`, `"NSDecimalNumber"` or
        /// `"NSString"`.
        case invalidCast(position: Int, type: String)
        /// A constant `CAST` whose value the type cannot hold (`CAST('abc', 'NSNumber')`);
        /// `reason` says why. `position` is the value's.
        case uncastableValue(position: Int, type: String, reason: String)
        /// A `MATCHES` with a constant pattern that is not a valid ICU regular expression.
        /// `position` is the pattern's.
        case invalidRegularExpression(position: Int, pattern: String, reason: String)

        /// Where reading stopped, in characters from the start of the format string.
        public var position: Int {
            switch self {
            case let .unexpectedToken(position, _, _), let .unterminatedString(position),
                 let .invalidNumber(position, _), let .invalidCharacter(position, _),
                 let .nestingTooDeep(position, _), let .missingArgument(position, _, _),
                 let .argumentTypeMismatch(position, _, _, _, _), let .unsupportedSpecifier(position, _),
                 let .unknownFunction(position, _), let .wrongArgumentCount(position, _, _, _),
                 let .invalidModifier(position, _), let .invalidCast(position, _),
                 let .uncastableValue(position, _, _), let .invalidRegularExpression(position, _, _):
                return position
            }
        }
    }

    /// What went wrong, and where.
    public let kind: Kind
    /// The format string that could not be read.
    public let format: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong, and where.
    ///   - format: The format string.
    public init(_ kind: Kind, format: String) {
        self.kind = kind
        self.format = format
    }

    /// Where reading stopped, in characters from the start of the format string.
    public var position: Int { kind.position }

    /// The same error for `format` (the parser throws errors without it; the entry points add
    /// it).
    func quoting(_ format: String) -> PredicateParseError {
        PredicateParseError(kind, format: format)
    }
}

// The parser throws `.unexpectedToken(...)` and friends; the entry points add the format.
extension PredicateParseError {
    static func unexpectedToken(position: Int, found: String, expected: String) -> Self {
        Self(.unexpectedToken(position: position, found: found, expected: expected), format: "")
    }
    static func unterminatedString(position: Int) -> Self {
        Self(.unterminatedString(position: position), format: "")
    }
    static func invalidNumber(position: Int, text: String) -> Self {
        Self(.invalidNumber(position: position, text: text), format: "")
    }
    static func invalidCharacter(position: Int, character: String) -> Self {
        Self(.invalidCharacter(position: position, character: character), format: "")
    }
    static func nestingTooDeep(position: Int, limit: Int) -> Self {
        Self(.nestingTooDeep(position: position, limit: limit), format: "")
    }
    static func missingArgument(position: Int, index: Int, specifier: String) -> Self {
        Self(.missingArgument(position: position, index: index, specifier: specifier), format: "")
    }
    static func argumentTypeMismatch(position: Int, index: Int, specifier: String, expected: String,
                                     actual: String) -> Self {
        Self(.argumentTypeMismatch(position: position, index: index, specifier: specifier, expected: expected,
                                   actual: actual), format: "")
    }
    static func unsupportedSpecifier(position: Int, specifier: String) -> Self {
        Self(.unsupportedSpecifier(position: position, specifier: specifier), format: "")
    }
    static func unknownFunction(position: Int, name: String) -> Self {
        Self(.unknownFunction(position: position, name: name), format: "")
    }
    static func wrongArgumentCount(position: Int, function: String, expected: Int, actual: Int) -> Self {
        Self(.wrongArgumentCount(position: position, function: function, expected: expected, actual: actual), format: "")
    }
    static func invalidModifier(position: Int, modifier: String) -> Self {
        Self(.invalidModifier(position: position, modifier: modifier), format: "")
    }
    static func invalidCast(position: Int, type: String) -> Self {
        Self(.invalidCast(position: position, type: type), format: "")
    }
    static func uncastableValue(position: Int, type: String, reason: String) -> Self {
        Self(.uncastableValue(position: position, type: type, reason: reason), format: "")
    }
    static func invalidRegularExpression(position: Int, pattern: String, reason: String) -> Self {
        Self(.invalidRegularExpression(position: position, pattern: pattern, reason: reason), format: "")
    }
}

extension PredicateParseError: CustomStringConvertible, LocalizedError {
    /// `at position N of "…": ` and what went wrong, on one line: the format string (the 40
    /// characters either side of the position, for a long one) in quotes, so that a message
    /// printed with `print(error)` or `"\(error)"` shows which predicate failed.
    public var description: String {
        guard !format.isEmpty else { return "at position \(position): " + message }
        return "at position \(position) of \"\(window.text)\": " + message
    }

    /// What went wrong, then the format string (or the part around the position, for a long
    /// one) with a `^` under the position.
    public var errorDescription: String? {
        "Cannot parse the predicate format at position \(position): \(message)\n" + excerpt
    }

    /// Two indented lines: the format around the position, and the mark.
    private var excerpt: String {
        let (text, offset) = window
        return "    " + text + "\n    " + String(repeating: " ", count: offset) + "^"
    }

    /// Up to 40 characters of the format either side of the position, on one line (`…` where
    /// cut, line breaks and tabs as spaces), and the position's offset in that text.
    private var window: (text: String, offset: Int) {
        let characters = Array(format)
        let at = min(max(position, 0), characters.count)
        let start = max(0, at - 40), end = min(characters.count, at + 40)
        var line = start > 0 ? "…" : ""
        for character in characters[start..<end] {
            line.append(character.isNewline || character == "\t" ? " " : character)
        }
        if end < characters.count { line += "…" }
        return (line, at - start + (start > 0 ? 1 : 0))
    }

    private var message: String {
        switch kind {
        case let .unexpectedToken(_, found, expected):
            return "expected \(expected), found \(found)"
        case .unterminatedString:
            return "unterminated string literal"
        case let .invalidNumber(_, text):
            return "invalid number '\(text)'"
        case let .invalidCharacter(_, character):
            return "unexpected character '\(character)'"
        case let .nestingTooDeep(_, limit):
            return "nesting deeper than \(limit) levels (each bracket, NOT, minus sign, call and subquery is a level, "
                + "and so is each operator of a chain of operators such as a + b + ...: split a longer chain, or use "
                + "a collection and @sum)"
        case let .missingArgument(_, index, specifier):
            return "no argument for %\(specifier) (argument \(index))"
        case let .argumentTypeMismatch(_, index, specifier, expected, actual):
            return "argument \(index) for %\(specifier) must be \(expected), not \(actual)"
        case let .unsupportedSpecifier(_, specifier):
            return "unsupported format specifier %\(specifier)"
        case let .unknownFunction(_, name):
            return "unknown function '\(name)'"
        case let .wrongArgumentCount(_, function, expected, actual):
            return "function '\(function)' takes \(expected) arguments, not \(actual)"
        case let .invalidModifier(_, modifier):
            return "invalid operator modifier [\(modifier)]: expected c, d or n"
        case let .invalidCast(_, type):
            return "cannot CAST to \(type): expected \"NSDate\", \"NSNumber\", \"NSDecimalNumber\" or \"NSString\""
        case let .uncastableValue(_, type, reason):
            return "cannot CAST to \(type): \(reason)"
        case let .invalidRegularExpression(_, pattern, reason):
            return "invalid regular expression '\(pattern)': \(reason)"
        }
    }
}

/// Why a predicate or expression could not be evaluated, or variables substituted.
///
/// Key-value coding errors (an undefined key, a bad collection operator) are not wrapped:
/// evaluation rethrows the `KeyValueCodingError` as it is. Apple raises exceptions in these
/// cases.
public enum PredicateEvaluationError: Error, Equatable, Sendable {
    /// A `$variable` with no value bound to it (see
    /// ``KeyValuePredicate/withSubstitutionVariables(_:)``).
    case unboundVariable(String)
    /// `ANY`/`ALL`, `IN`, `SUBQUERY` or a collection function met a value that is not a
    /// collection.
    case notACollection(operation: String, valueType: String)
    /// Two values that cannot be ordered against each other (a number and a string with `<`).
    case incomparableValues(operation: String, left: String, right: String)
    /// A `MATCHES` pattern that is not a valid regular expression.
    case invalidRegularExpression(pattern: String, reason: String)
    /// A built-in function got arguments it cannot use.
    case invalidFunctionArgument(function: String, reason: String)
    /// A function expression whose name is not built in. No longer thrown: functions are a
    /// typed ``KeyValueExpression/Function``, so every function expression names a built-in one.
    case unknownFunction(String)
    /// The right side of `BETWEEN` is not a collection of two bounds.
    case invalidBetweenBounds(String)
    /// Collections nested inside collections deeper than `limit` levels, met while comparing
    /// values (key-value coding's `nestedTooDeeply` counterpart).
    case nestedTooDeeply(limit: Int)
    /// A `MATCHES` whose regular-expression engine stopped before deciding (ICU gives up on
    /// searches that backtrack too much, such as `(a|a)+b` on a long run of `a`s).
    case regularExpressionGaveUp(pattern: String)
}

extension PredicateEvaluationError: CustomStringConvertible, LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .unboundVariable(name):
            return "no value is bound to the variable $\(name) (give it one with withSubstitutionVariables([\"\(name)\": …]))"
        case let .notACollection(operation, type):
            return "\(operation) needs a collection, not a value of type \(type)"
        case let .incomparableValues(operation, left, right):
            return "cannot compare \(left) with \(right) using \(operation)"
        case let .invalidRegularExpression(pattern, reason):
            return "invalid regular expression '\(pattern)': \(reason)"
        case let .invalidFunctionArgument(function, reason):
            return "invalid argument for '\(function)': \(reason)"
        case let .unknownFunction(name):
            return "unknown function '\(name)'"
        case let .invalidBetweenBounds(type):
            return "BETWEEN needs two bounds {low, high}, not \(type)"
        case let .regularExpressionGaveUp(pattern):
            return "the regular expression '\(pattern)' backtracked too much to decide MATCHES; "
                + "rewrite it without nested alternatives or quantifiers that can match the same text"
        case let .nestedTooDeeply(limit):
            return "cannot compare collections nested deeper than \(limit) levels"
        }
    }
}
