// Predicates on SQLite: the store's own functions decide strings as the evaluator does.
import Foundation
import ManagedObjects
import Predicates
import SQLCompiling

/// SQLite's predicate rules (``SQLDialect/sqlite``): strings through the functions and
/// collations every connection of the store registers (`og_compare`, `OG_SWIFT`,
/// `OG_SWIFT_CI`, SQLiteConnection+Functions.swift), which call the evaluator's own
/// comparison; NaN is stored as the text `NaN`; Booleans as 0 and 1; UUIDs as 16-byte blobs.
struct SQLitePredicateRules: SQLPredicateRules {
    var trueLiteral: String { "1" }
    var falseLiteral: String { "0" }
    /// SQLite refuses statements with more than 32,766 parameters (999 before 3.32).
    var maximumArguments: Int { 900 }

    func ifNull(_ sql: String, _ fallback: String) -> String { "IFNULL(\(sql), \(fallback))" }
    func isDistinct(_ a: String, _ b: String) -> String { "\(a) IS NOT \(b)" }
    func isNotDistinct(_ a: String, _ b: String) -> String { "\(a) IS \(b)" }
    func text(_ sql: String) -> String { sql }
    var textCollation: String { " COLLATE \(SQLiteConnection.swiftCollation)" }
    func isNaN(_ sql: String) -> SQLFragment { SQLFragment("typeof(\(sql)) = 'text'") }
    func average(of value: String) -> String { "TOTAL(\(value)) / COUNT(*)" }

    func comparable(_ constant: KeyValueConstant, for type: AttributeDescription.AttributeType) -> SQLValue? {
        switch (type, constant) {
        case (.integer16, .integer(let v)), (.integer32, .integer(let v)), (.integer64, .integer(let v)),
             (.boolean, .integer(let v)), (.double, .integer(let v)), (.float, .integer(let v)):
            return .integer(v)
        case (.integer16, .double(let v)), (.integer32, .double(let v)), (.integer64, .double(let v)),
             (.boolean, .double(let v)), (.double, .double(let v)), (.float, .double(let v)):
            return v.isFinite ? .real(v) : nil
        case (.integer16, .bool(let v)), (.integer32, .bool(let v)), (.integer64, .bool(let v)), (.boolean, .bool(let v)):
            return .integer(v ? 1 : 0)
        case (.date, .date(let date)):
            return date.timeIntervalSinceReferenceDate.isNaN ? nil : .real(date.timeIntervalSinceReferenceDate)
        case (.string, .string(let string)):
            return .text(string)
        case (.uuid, .uuid(let uuid)):
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        default:
            return nil
        }
    }

    /// Through `og_compare` (the evaluator's own comparison), never NULL.
    func stringTest(_ column: SQLColumnReference, _ op: ComparisonOperator, _ constant: KeyValueConstant,
                    options: ComparisonOptions, negated: Bool, mayAssume: Bool) -> SQLStringTest? {
        let sql = column.sql
        let call = { (op: ComparisonOperator) -> String? in
            guard let code = SQLiteConnection.comparedOperators.firstIndex(of: op) else { return nil }
            return "og_compare(\(code), \(options.rawValue), \(sql), ?)"
        }
        if op == .in {
            guard let list = SQLPredicateCompiler.constants(op, constant), let equal = call(.equalTo) else { return nil }
            var values: [SQLValue] = []
            for case .string(let string) in list { values.append(.text(string)) }
            guard values.count == list.count else { return nil }
            guard !values.isEmpty else { return SQLStringTest(SQLCondition(sql: falseLiteral, arguments: [], isExact: true)) }
            return SQLStringTest(SQLCondition(sql: "(" + Array(repeating: equal, count: values.count).joined(separator: " OR ") + ")",
                                              arguments: values, isExact: true))
        }
        guard let test = call(op) else { return nil }
        let pattern: SQLValue
        switch constant {
        case .string(let string): pattern = .text(string)
        case .null: pattern = .null
        default: return nil
        }
        // MATCHES can give up (catastrophic patterns): such rows are kept and decided in memory.
        let exact = op != .matches
        if op == .beginsWith, options.isEmpty || options == .normalized, case .string(let prefix) = constant {
            // As the evaluator: nothing begins with "" (nil neither).
            if prefix.isEmpty { return SQLStringTest(SQLCondition(sql: falseLiteral, arguments: [], isExact: true)) }
            if let upper = Self.asciiUpperBound(prefix) {
                // Text beginning with an ASCII prefix has its bytes first: an index range
                // narrows to exactly the text whose bytes begin with the prefix. When the next
                // character is ASCII too (or there is none), a character ends where the prefix
                // ends, so the text begins with it in Swift: below prefix + U+0080 in BINARY
                // order. Only text going on with another scalar (a combining accent may join
                // the prefix's last character) asks `og_compare`. `IS NOT NULL` keeps a nil
                // value false, never NULL, inside a NOT.
                let ascii = prefix + "\u{80}"
                return SQLStringTest(SQLCondition(
                    sql: "(\(sql) >= ? AND \(sql) < ? AND (\(sql) < ? OR \(test)) AND \(sql) IS NOT NULL)",
                    arguments: [.text(prefix), .text(upper), .text(ascii), pattern], isExact: exact))
            }
        }
        return SQLStringTest(SQLCondition(sql: test, arguments: [pattern], isExact: exact))
    }

    /// The smallest ASCII string greater than every string beginning with `prefix`, when
    /// `prefix` is ASCII, not empty, and its last byte can be increased, and every string
    /// that begins with it in Swift (by canonical equivalence) begins with its bytes: not when
    /// it has `K`, `;` or `` ` ``, which the Kelvin sign, the Greek question mark and the Greek
    /// varia are canonically equivalent to (`"\u{212A}iwi".hasPrefix("Ki")`).
    private static func asciiUpperBound(_ prefix: String) -> String? {
        var bytes = Array(prefix.utf8)
        guard let last = bytes.last, bytes.allSatisfy({ $0 < 0x7F && $0 != 0x4B && $0 != 0x3B && $0 != 0x60 }),
              bytes.first != 0x0A, last != 0x0D else { return nil }
        bytes[bytes.count - 1] = last + 1
        return String(decoding: bytes, as: UTF8.self)
    }

    func orderTerms(_ sql: String, _ type: AttributeDescription.AttributeType,
                    _ comparison: KeyValueSortDescriptor.Comparison, ascending: Bool) -> SQLFragment? {
        let direction = ascending ? "" : " DESC"
        switch (type, comparison) {
        case (.integer16, .compare), (.integer32, .compare), (.integer64, .compare), (.boolean, .compare), (.date, .compare):
            return SQLFragment(sql + direction)
        case (.double, .compare), (.float, .compare):
            // NaN (stored as text) sorts before every number and after nil.
            return SQLFragment("(CASE WHEN \(sql) IS NULL THEN 0 WHEN typeof(\(sql)) = 'text' THEN 1 ELSE 2 END)" + direction
                               + ", " + sql + direction)
        case (.string, .compare):
            return SQLFragment(sql + " COLLATE \(SQLiteConnection.swiftCollation)" + direction)
        case (.string, .caseInsensitiveCompare):
            return SQLFragment(sql + " COLLATE \(SQLiteConnection.caseInsensitiveCollation)" + direction)
        default:
            return nil
        }
    }
}

extension SQLDialect {
    /// SQLite as the store writes it: bare upper-case names, `?` placeholders, Core Data's
    /// column types, and ``SQLitePredicateRules``.
    static let sqlite = SQLDialect(
        name: "SQLite", quotesIdentifiers: false,
        placeholder: { _, _ in "?" },
        columnType: { type in SQLiteSchema.declaredType(of: type)?.0 ?? "BLOB" },
        rules: SQLitePredicateRules())
}
