// Regular-expression rules compiled once per pattern and shared.
import Foundation
import ObjectGraphInternals
import Predicates
import Synchronization

/// The `SELF MATCHES pattern` predicates of regular-expression rules, kept by pattern so that
/// validating many objects parses and compiles each pattern once (a predicate keeps its compiled
/// form after its first evaluation).
///
/// Thread safety: the table is behind a lock; predicates are `Sendable`. The table is bounded:
/// it is emptied when it holds ``capacity`` patterns.
enum ValidationPatterns {
    static let capacity = 256
    private static let table = Mutex<[String: KeyValuePredicate]>([:])

    /// The whole-string match predicate for `pattern`.
    ///
    /// - Throws: The parser's error (patterns are arguments, so only evaluation can fail on an
    ///   invalid pattern).
    static func predicate(for pattern: String) throws -> KeyValuePredicate {
        if let cached = table.withTrackedLock(ThreadSanitizer.staticOwner, { $0[pattern] }) { return cached }
        let predicate = try KeyValuePredicate(format: "SELF MATCHES %@", pattern)
        table.withTrackedLock(ThreadSanitizer.staticOwner) { table in
            if table.count >= capacity { table.removeAll() }
            table[pattern] = predicate
        }
        return predicate
    }

    /// Whether `text` as a whole matches `pattern`.
    ///
    /// - Throws: `PredicateEvaluationError` for an invalid pattern.
    static func matches(_ text: String, _ pattern: String) throws -> Bool {
        try predicate(for: pattern).evaluate(with: text)
    }
}
