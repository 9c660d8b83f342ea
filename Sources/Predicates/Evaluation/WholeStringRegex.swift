// MATCHES: whole-string ICU regular-expression matching.
import Foundation

/// A `MATCHES` pattern compiled for a whole-string match, as ICU's `matches()` (which Apple's
/// `NSPredicate` uses) decides it.
///
/// `NSRegularExpression` only finds matches, and the first match at the start need not be the
/// whole string (`a|ab` finds `a` in `"ab"`). So the pattern `P` is compiled as
/// `(?:(?:P)\z()|(?s:.*))`: the first branch matches the whole string through `P` and marks
/// it with an empty group; the second branch matches anything, so a search anchored at the
/// start always finds a match unless the engine gave up (ICU stops a backtracking search that
/// grows too large and reports "no match"). No match at all is therefore thrown as
/// ``PredicateEvaluationError/regularExpressionGaveUp(pattern:)`` rather than answered false.
///
/// `P` is first compiled on its own, so only balanced, valid patterns are wrapped. A pattern
/// that ends inside an `(?x)` comment or a `\Q` quote is wrapped with a newline or `\E`
/// before the closing bracket.
///
/// Thread safety: immutable; `NSRegularExpression` matching is thread-safe.
struct WholeStringRegex: @unchecked Sendable {
    // @unchecked Sendable: NSRegularExpression is immutable and documented thread-safe for
    // matching; it is not marked Sendable on Linux.

    /// The pattern as written in the predicate.
    let pattern: String
    private let regex: NSRegularExpression
    /// The number of the empty group that marks a whole-string match of the pattern.
    private let marker: Int

    /// - Parameters:
    ///   - pattern: The pattern as written (reported in errors).
    ///   - compiled: The pattern to compile (with diacritics folded for `[d]`).
    ///   - caseInsensitive: Whether `[c]` applies.
    /// - Throws: ``PredicateEvaluationError/invalidRegularExpression(pattern:reason:)``.
    init(pattern: String, compiled: String, caseInsensitive: Bool) throws(PredicateEvaluationError) {
        self.pattern = pattern
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        let groups: Int
        do {
            groups = try NSRegularExpression(pattern: compiled, options: options).numberOfCaptureGroups
        } catch {
            throw .invalidRegularExpression(pattern: pattern, reason: Self.diagnosis(of: compiled))
        }
        for tail in ["", "\n", "\\E"] {
            let wrapped = "(?:(?:" + compiled + tail + ")\\z()|(?s:.*))"
            if let regex = try? NSRegularExpression(pattern: wrapped, options: options),
               regex.numberOfCaptureGroups == groups + 1 {
                self.regex = regex
                marker = groups + 1
                return
            }
        }
        throw .invalidRegularExpression(pattern: pattern, reason: "it cannot be matched against a whole string")
    }

    /// Whether `subject` as a whole matches the pattern.
    ///
    /// - Throws: ``PredicateEvaluationError/regularExpressionGaveUp(pattern:)`` when the engine
    ///   stops before deciding (catastrophic backtracking).
    func matches(_ subject: String) throws(PredicateEvaluationError) -> Bool {
        let range = NSRange(subject.startIndex..., in: subject)
        guard let match = regex.firstMatch(in: subject, options: [.anchored], range: range) else {
            throw .regularExpressionGaveUp(pattern: pattern)
        }
        return match.range(at: marker).location != NSNotFound
    }

    /// Why ICU rejected `pattern`, as far as a quick scan tells (Foundation reports only that
    /// the pattern is invalid).
    static func diagnosis(of pattern: String) -> String {
        var depth = 0
        var inClass = false
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass:
                depth -= 1
                if depth < 0 { return "a ')' closes no group" }
            default: break
            }
        }
        if escaped { return "it ends with an unfinished escape '\\'" }
        if inClass { return "a '[' character class is not closed" }
        if depth > 0 { return "a '(' group is not closed" }
        return "it is not valid ICU regular-expression syntax"
    }
}
