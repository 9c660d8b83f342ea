// Predicates on PostgreSQL through built-in functions only, where they decide as Swift does.
import Foundation
import ManagedObjects
import Predicates

/// PostgreSQL's predicate rules (``SQLDialect/postgreSQL``). The server runs no Swift, so
/// only what its built-ins decide exactly as the in-memory evaluation is compiled:
///
/// - Strings compared without options (`==`, `<`, `IN`, `BETWEEN`, sort order) as Swift's
///   `String` compares them: the NFC forms in code-point order
///   (`normalize(x, NFC) COLLATE "C"` against an NFC constant). This needs a UTF-8 database
///   (Unicode normalization uses the server's tables, PostgreSQL 15: Unicode 14; characters
///   assigned since then may normalize differently from Swift).
/// - `[c]`, `[d]`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` with a pattern of
///   printable ASCII (after folding): byte operations (`LIKE`, `lower(… COLLATE "C")`) that
///   equal Swift's folding and character matching for ASCII values without a carriage return.
///   That is an assumption about the data, checked before each fetch (one query finding any
///   other value in the column); when it fails these parts are left to memory.
/// - `MATCHES`, `[c]` and `[d]` beyond ASCII, and case-insensitive sort orders are left to
///   memory (`lower()` and the server's regular expressions differ from Swift's folding and
///   ICU).
/// - NaN: the server orders it above every number and finds it equal to itself; the
///   evaluator finds it neither equal to nor ordered with anything, and sorts it before every
///   number: NaN rows get the evaluator's answer explicitly.
/// - NULL sorts first ascending and last descending, as nil does in memory.
package struct PostgreSQLPredicateRules: SQLPredicateRules {
    package init() {}

    package var trueLiteral: String { "TRUE" }
    package var falseLiteral: String { "FALSE" }
    /// The protocol allows 65,535 parameters.
    package var maximumArguments: Int { 30_000 }

    package func ifNull(_ sql: String, _ fallback: String) -> String { "COALESCE(\(sql), \(fallback))" }
    package func isDistinct(_ a: String, _ b: String) -> String { "\(a) IS DISTINCT FROM \(b)" }
    package func isNotDistinct(_ a: String, _ b: String) -> String { "\(a) IS NOT DISTINCT FROM \(b)" }
    /// The collation goes on the operand: `BETWEEN`'s bounds take no `COLLATE`.
    package func text(_ sql: String) -> String { "(normalize(\(sql), NFC) COLLATE \"C\")" }
    package var textCollation: String { "" }
    package func isNaN(_ sql: String) -> SQLFragment { SQLFragment("\(sql) = ?", [.real(.nan)]) }
    package func average(of value: String) -> String { "CAST(SUM(\(value)) AS double precision) / COUNT(*)" }

    package func comparable(_ constant: KeyValueConstant, for type: AttributeDescription.AttributeType) -> SQLValue? {
        let integers: Set<AttributeDescription.AttributeType> = [.integer16, .integer32, .integer64]
        switch (type, constant) {
        case (_, .integer(let v)) where integers.contains(type):
            return .integer(v)
        case (_, .double(let v)) where integers.contains(type):
            // The server would cast the column to double (inexact beyond 2^53): only integral values.
            return Int64(exactly: v).map(SQLValue.integer)
        case (_, .bool(let v)) where integers.contains(type):
            return .integer(v ? 1 : 0)
        case (.boolean, .bool(let v)):
            return .boolean(v)
        case (.boolean, .integer(let v)) where v == 0 || v == 1:
            return .boolean(v == 1)
        case (.boolean, .double(let v)) where v == 0 || v == 1:
            return .boolean(v == 1)
        case (.double, .double(let v)), (.float, .double(let v)):
            return v.isFinite ? .real(v) : nil
        case (.double, .integer(let v)), (.float, .integer(let v)):
            // Exactly representable integers only: the server compares as doubles.
            return Double(exactly: v).map(SQLValue.real)
        case (.date, .date(let date)):
            return date.timeIntervalSinceReferenceDate.isFinite ? .real(date.timeIntervalSinceReferenceDate) : nil
        case (.string, .string(let string)):
            return .text(string.precomposedStringWithCanonicalMapping)
        case (.uuid, .uuid(let uuid)):
            return .uuid(uuid)
        default:
            return nil
        }
    }

    /// Values other than ASCII 1–127 without a carriage return: a query finding them in a
    /// column (multi-byte characters make the byte length exceed the character length).
    private func unusualText(_ column: SQLColumnReference) -> SQLFragment {
        SQLFragment("SELECT 1 FROM \(column.table) WHERE octet_length(\(column.column)) <> char_length(\(column.column)) OR strpos(\(column.column), ?) > 0",
                    [.text("\r")])
    }

    /// Printable ASCII, tab and line feed: the characters whose Swift folding and matching
    /// are byte operations.
    private static func isUsual(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D && $0 != 0 }
    }

    /// `pattern` as a `LIKE` pattern matching it literally (`\` escapes `%`, `_` and itself).
    private static func escaped(_ pattern: String) -> String {
        var result = ""
        for character in pattern {
            if character == "%" || character == "_" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// NSPredicate's `LIKE` pattern (`*`, `?`, `\` escaping the next character) as SQL's.
    private static func likePattern(_ pattern: String) -> String {
        var result = ""
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*": result.append("%")
            case "?": result.append("_")
            case "\\":
                let literal = characters.popFirst() ?? "\\"
                result += escaped(String(literal))
            default: result += escaped(String(character))
            }
        }
        return result
    }

    package func stringTest(_ column: SQLColumnReference, _ op: ComparisonOperator, _ constant: KeyValueConstant,
                            options: ComparisonOptions, negated: Bool, mayAssume: Bool) -> SQLStringTest? {
        guard mayAssume, op != .matches else { return nil }
        let caseless = options.contains(.caseInsensitive)
        // Folding an ASCII value: case to lower case; diacritics: nothing to remove.
        func folded(_ string: String) -> String? {
            let result = StringFolding.fold(string, options: options).precomposedStringWithCanonicalMapping
            return Self.isUsual(result) ? result : nil
        }
        let subject = caseless ? "lower(\(column.sql) COLLATE \"C\")" : "(\(column.sql) COLLATE \"C\")"
        let wrap = { (test: String) in negated ? "COALESCE(\(test), FALSE)" : "(\(test))" }
        var patterns: [String] = []
        switch constant {
        case .string(let string):
            guard let pattern = folded(string) else { return nil }
            patterns = [pattern]
        case .array(let list) where op == .in:
            for case .string(let string) in list {
                guard let pattern = folded(string) else { return nil }
                patterns.append(pattern)
            }
            guard patterns.count == list.count else { return nil }
        default:
            return nil
        }
        let assumption = unusualText(column)
        let test: SQLCondition
        switch op {
        case .in:
            guard !patterns.isEmpty else { return SQLStringTest(SQLCondition(sql: falseLiteral, arguments: [], isExact: true)) }
            let marks = Array(repeating: "?", count: patterns.count).joined(separator: ", ")
            test = SQLCondition(sql: wrap("\(subject) IN (\(marks))"), arguments: patterns.map(SQLValue.text), isExact: true)
        case .equalTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            let symbol = op == .equalTo ? "=" : op.rawValue
            test = SQLCondition(sql: wrap("\(subject) \(symbol) ?"), arguments: [.text(patterns[0])], isExact: true)
        case .notEqualTo:
            test = SQLCondition(sql: "(\(isDistinct(subject, "?")))", arguments: [.text(patterns[0])], isExact: true)
        case .beginsWith, .endsWith, .contains, .like:
            let pattern = patterns[0]
            // As NSString: nothing begins with, ends with or contains "".
            guard op == .like || !pattern.isEmpty else {
                return SQLStringTest(SQLCondition(sql: falseLiteral, arguments: [], isExact: true))
            }
            let like: String
            switch op {
            case .beginsWith: like = Self.escaped(pattern) + "%"
            case .endsWith: like = "%" + Self.escaped(pattern)
            case .contains: like = "%" + Self.escaped(pattern) + "%"
            default: like = Self.likePattern(pattern)
            }
            test = SQLCondition(sql: wrap("\(subject) LIKE ?"), arguments: [.text(like)], isExact: true)
        default:
            return nil
        }
        return SQLStringTest(test, assuming: assumption)
    }

    package func orderTerms(_ sql: String, _ type: AttributeDescription.AttributeType,
                            _ comparison: KeyValueSortDescriptor.Comparison, ascending: Bool) -> SQLFragment? {
        let direction = ascending ? " NULLS FIRST" : " DESC NULLS LAST"
        switch (type, comparison) {
        case (.integer16, .compare), (.integer32, .compare), (.integer64, .compare), (.boolean, .compare), (.date, .compare):
            return SQLFragment(sql + direction)
        case (.double, .compare), (.float, .compare):
            // nil, then NaN, then the numbers (the server would put NaN above every number).
            let rank = "(CASE WHEN \(sql) IS NULL THEN 0 WHEN \(sql) = ? THEN 1 ELSE 2 END)" + (ascending ? "" : " DESC")
            return SQLFragment(rank + ", " + sql + direction, [.real(.nan)])
        case (.string, .compare):
            return SQLFragment(text(sql) + textCollation + direction)
        default:
            return nil
        }
    }
}
