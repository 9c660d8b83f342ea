// SQL functions and collations that decide as the in-memory predicate evaluator does.
import CSQLite
import Foundation
import Predicates

/// A string matcher kept by SQLite with a statement's constant pattern argument
/// (`sqlite3_set_auxdata`), so the pattern is folded (and a regular expression compiled) once
/// per statement run rather than once per row.
private final class CachedMatcher {
    let matcher: StringMatcher?
    /// Whether the matcher failed on a row (a regular expression that gave up): later rows of
    /// the run are kept without trying again, so a fetch pays the engine's give-up time once,
    /// not once per row, before the in-memory evaluation throws the error.
    var failed = false
    init(_ matcher: StringMatcher?) { self.matcher = matcher }
}

extension SQLiteConnection {
    /// The name of the collation that orders text as Swift's `String` after case folding: the
    /// order of a `caseInsensitiveCompare` sort descriptor in memory.
    package static let caseInsensitiveCollation = "OG_SWIFT_CI"

    /// `og_compare(operator, options, left, right)`: 1 when the evaluator's comparison holds,
    /// else 0 (never NULL). Registered on every connection.
    package static let compareFunction = "og_compare"

    /// The operators `og_compare` takes, by their position in this list.
    package static let comparedOperators: [ComparisonOperator] = [
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
        .beginsWith, .endsWith, .contains, .like, .matches,
    ]

    /// Registers the collations and `og_compare` on the connection.
    func registerPredicateFunctions(_ handle: OpaquePointer) {
        sqlite3_create_collation_v2(handle, Self.swiftCollation, SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return a < b ? -1 : (a == b ? 0 : 1)
        }, nil)
        sqlite3_create_collation_v2(handle, Self.caseInsensitiveCollation, SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = StringFolding.fold(String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self),
                                       options: .caseInsensitive)
            let b = StringFolding.fold(String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self),
                                       options: .caseInsensitive)
            return a < b ? -1 : (a == b ? 0 : 1)
        }, nil)
        sqlite3_create_function_v2(handle, Self.compareFunction, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            guard let context, let arguments, count == 4 else { return }
            sqlite3_result_int(context, SQLiteConnection.compare(context, arguments) ? 1 : 0)
        }, nil, nil, nil)
    }

    /// A function argument as the evaluator sees the attribute's value.
    private static func swiftValue(_ value: OpaquePointer?) -> Any? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return Int(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return sqlite3_value_double(value)
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return "" }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        default: return nil
        }
    }

    /// The evaluator's answer for one row. An evaluation error keeps the row (1): the context
    /// evaluates such predicates again in memory, where the error is thrown.
    private static func compare(_ context: OpaquePointer, _ arguments: UnsafeMutablePointer<OpaquePointer?>) -> Bool {
        let code = Int(sqlite3_value_int64(arguments[0]))
        guard comparedOperators.indices.contains(code) else { return true }
        let op = comparedOperators[code]
        let options = ComparisonOptions(rawValue: Int(sqlite3_value_int64(arguments[1])))
        let left = swiftValue(arguments[2])
        switch op {
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard let subject = left as? String else { return false }   // nil: false; no other kinds are compiled
            let cache: CachedMatcher
            if let cached = sqlite3_get_auxdata(context, 3) {
                cache = Unmanaged<CachedMatcher>.fromOpaque(cached).takeUnretainedValue()
            } else {
                guard let pattern = swiftValue(arguments[3]) as? String else { return false }
                cache = CachedMatcher(try? StringMatcher(op, pattern: pattern, options: options))
                sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(cache).toOpaque()) { pointer in
                    if let pointer { Unmanaged<CachedMatcher>.fromOpaque(pointer).release() }
                }
            }
            guard let matcher = cache.matcher, !cache.failed else { return true }
            guard let matched = try? matcher.matches(subject) else {
                cache.failed = true
                return true
            }
            return matched
        default:
            return (try? ComparisonEvaluator.test(op, options: options, left, swiftValue(arguments[3]))) ?? true
        }
    }
}
