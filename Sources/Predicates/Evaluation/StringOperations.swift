// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES on strings.
import Foundation

/// A string operation whose right side (the pattern) is folded once and then applied to many
/// left values. Built at compile time when the pattern is a constant, per evaluation otherwise.
package struct StringMatcher {
    let operation: ComparisonOperator
    let options: ComparisonOptions
    /// The folded pattern.
    let pattern: String
    private let patternBytes: [UInt8]
    /// ASCII and not starting with `\n` or ending with `\r` (which could split a `\r\n`
    /// character): matched byte by byte.
    private let patternIsASCII: Bool
    private let likePattern: [Character]?
    private let patternCharacters: [Character]
    private let regex: WholeStringRegex?

    package init(_ operation: ComparisonOperator, pattern raw: String, options: ComparisonOptions) throws(PredicateEvaluationError) {
        self.operation = operation
        self.options = options
        let diacriticOnly = options.subtracting(.caseInsensitive)
        pattern = operation == .matches ? StringFolding.fold(raw, options: diacriticOnly)
            : StringFolding.fold(raw, options: options)
        patternBytes = Array(pattern.utf8)
        patternIsASCII = StringFolding.isASCII(pattern) && patternBytes.first != 0x0A && patternBytes.last != 0x0D
        likePattern = operation == .like ? Array(pattern) : nil
        patternCharacters = operation == .contains ? Array(pattern) : []
        if operation == .matches {
            regex = try WholeStringRegex(pattern: raw, compiled: pattern,
                                         caseInsensitive: options.contains(.caseInsensitive))
        } else {
            regex = nil
        }
    }

    /// Applies the operation with `subject` on the left.
    ///
    /// - Throws: ``PredicateEvaluationError/regularExpressionGaveUp(pattern:)`` for a `MATCHES`
    ///   the regular-expression engine could not decide.
    package func matches(_ subject: String) throws(PredicateEvaluationError) -> Bool {
        if pattern.isEmpty, operation != .matches, operation != .like,
           operation != .equalTo, operation != .notEqualTo {
            return false   // as NSString: nothing begins with, ends with or contains ""
        }
        if operation != .matches, operation != .like, patternIsASCII,
           let result = asciiMatch(subject) {
            return result
        }
        switch operation {
        case .matches:
            let folded = StringFolding.fold(subject, options: options.subtracting(.caseInsensitive))
            return try regex?.matches(folded) ?? false
        case .like:
            return Self.like(Array(StringFolding.fold(subject, options: options)), likePattern ?? [])
        default:
            let folded = StringFolding.fold(subject, options: options)
            switch operation {
            case .beginsWith: return folded.hasPrefix(pattern)
            case .endsWith: return folded.hasSuffix(pattern)
            case .equalTo: return folded == pattern
            case .notEqualTo: return folded != pattern
            default: return Self.contains(folded, patternCharacters)
            }
        }
    }

    /// Byte-level matching when both strings are ASCII; nil when `subject` is not ASCII.
    private func asciiMatch(_ subject: String) -> Bool? {
        let caseless = options.contains(.caseInsensitive)
        var utf8 = subject.utf8
        let direct = utf8.withContiguousStorageIfAvailable { buffer -> Bool? in
            for byte in buffer where byte >= 0x80 { return nil }
            return match(bytes: buffer, caseless: caseless)
        }
        if let direct { return direct }
        utf8 = subject.utf8
        let copy = Array(utf8)
        if copy.contains(where: { $0 >= 0x80 }) { return nil }
        return copy.withUnsafeBufferPointer { match(bytes: $0, caseless: caseless) }
    }

    private func match(bytes: UnsafeBufferPointer<UInt8>, caseless: Bool) -> Bool {
        let count = patternBytes.count
        @inline(__always) func same(_ offset: Int) -> Bool {
            for i in 0..<count {
                var byte = bytes[offset + i]
                if caseless, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                if byte != patternBytes[i] { return false }
            }
            return true
        }
        switch operation {
        case .beginsWith: return bytes.count >= count && same(0)
        case .endsWith: return bytes.count >= count && same(bytes.count - count)
        case .equalTo: return bytes.count == count && same(0)
        case .notEqualTo: return !(bytes.count == count && same(0))
        default:
            guard bytes.count >= count else { return false }
            for start in 0...(bytes.count - count) where same(start) { return true }
            return false
        }
    }

    /// Whether `subject` contains `pattern` as a run of whole characters (grapheme clusters,
    /// compared by canonical equivalence), the rule `hasPrefix` and `hasSuffix` follow: a part
    /// of a character (`e` or the accent of a decomposed `é`, one person of a family emoji)
    /// is never found.
    static func contains(_ subject: String, _ pattern: [Character]) -> Bool {
        guard !pattern.isEmpty else { return false }
        var index = subject.startIndex
        while index < subject.endIndex {
            if subject[index...].starts(with: pattern) { return true }
            subject.formIndex(after: &index)
        }
        return false
    }

    /// `LIKE` matching: `*` any run, `?` one character, `\` escapes the next character.
    static func like(_ subject: [Character], _ pattern: [Character]) -> Bool {
        var s = 0, p = 0
        var starP = -1, starS = 0
        while s < subject.count {
            if p < pattern.count {
                let c = pattern[p]
                if c == "*" {
                    starP = p
                    starS = s
                    p += 1
                    continue
                }
                if c == "?" {
                    s += 1
                    p += 1
                    continue
                }
                let literal = c == "\\" && p + 1 < pattern.count ? pattern[p + 1] : c
                let width = c == "\\" && p + 1 < pattern.count ? 2 : 1
                if literal == subject[s] {
                    s += 1
                    p += width
                    continue
                }
            }
            guard starP >= 0 else { return false }
            starS += 1
            s = starS
            p = starP + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
