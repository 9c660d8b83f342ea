// Tokens of the predicate format language.

/// One token of a format string, with the UTF-8 offset where it starts.
struct PredicateToken {
    var kind: Kind
    /// Offset of the first byte of the token in the format string's UTF-8 form.
    var offset: Int

    enum Kind: Equatable {
        /// A key-path component or function name; `escaped` when written with `#`.
        case identifier(String, escaped: Bool)
        /// A reserved word, matched without regard to case.
        case keyword(PredicateKeyword)
        case integer(Int)
        /// An integer literal above `Int.max` that fits in `UInt64`.
        case unsignedInteger(UInt64)
        case float(Double)
        case string(String)
        /// `$name`
        case variable(String)
        /// `%@`, `%K`, `%d`, `%ld`, `%f`... (the text after `%`).
        case specifier(String)
        /// Punctuation and operators: `( ) { } [ ] , . : == != < <= ...`
        case symbol(String)
        case end
    }

    /// How the token reads in an error message.
    var text: String {
        switch kind {
        case let .identifier(name, escaped): return escaped ? "#" + name : name
        case let .keyword(keyword): return keyword.rawValue
        case let .integer(value): return String(value)
        case let .unsignedInteger(value): return String(value)
        case let .float(value): return String(value)
        case let .string(value): return "\"" + value + "\""
        case let .variable(name): return "$" + name
        case let .specifier(text): return "%" + text
        case let .symbol(text): return "'" + text + "'"
        case .end: return "end of input"
        }
    }
}

/// The reserved words of the format language (matched case-insensitively).
///
/// Apple's list also reserves `CASEINSENSITIVE`, `CI`, `ANYKEY`, `FETCH`, `UTI-CONFORMS-TO` and
/// `UTI-EQUALS`; the first four are reserved here too (so keys with those names need `#`).
enum PredicateKeyword: String, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case subquery = "SUBQUERY", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI", anyKey = "ANYKEY", fetch = "FETCH"

    private static let table: [String: PredicateKeyword] = {
        var table: [String: PredicateKeyword] = [:]
        for keyword in allCases { table[keyword.rawValue] = keyword }
        return table
    }()

    /// The keyword spelled by `word` in any case, or nil.
    static func named(_ word: String) -> PredicateKeyword? {
        guard word.utf8.count <= 15, word.utf8.count >= 2 else { return nil }
        return table[word.uppercased()]
    }

    /// Whether a key must be written with `#` to be read as a key.
    static func isReserved(_ word: String) -> Bool { named(word) != nil }
}
