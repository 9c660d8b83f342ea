// Case and diacritic folding for [c] and [d] string comparisons.
import Foundation

package enum StringFolding {
    /// Whether every byte of `string` is ASCII (then folding is a byte operation).
    @inline(__always)
    static func isASCII(_ string: String) -> Bool {
        var utf8 = string.utf8
        if let result = utf8.withContiguousStorageIfAvailable({ buffer in
            for byte in buffer where byte >= 0x80 { return false }
            return true
        }) { return result }
        utf8 = string.utf8
        return utf8.allSatisfy { $0 < 0x80 }
    }

    /// `string` folded as `options` ask: case (Unicode full case folding, as Foundation's
    /// `folding(options: .caseInsensitive)` and `NSCaseInsensitiveSearch` do it: `ß` and `ẞ`
    /// fold to `ss`, `ς` to `σ`, `İ` to `i̇`, and dotless `ı` stays itself) and diacritics
    /// (canonical decomposition with combining marks removed). `.normalized` alone changes
    /// nothing.
    package static func fold(_ string: String, options: ComparisonOptions) -> String {
        let caseless = options.contains(.caseInsensitive)
        let diacriticless = options.contains(.diacriticInsensitive)
        guard caseless || diacriticless else { return string }
        if isASCII(string) {
            return caseless ? asciiLowercased(string) : string
        }
        var result = string
        if diacriticless { result = removingDiacritics(result) }
        if caseless { result = result.folding(options: [.caseInsensitive], locale: nil) }
        return result
    }

    private static func asciiLowercased(_ string: String) -> String {
        var hasUpper = false
        for byte in string.utf8 where byte >= 0x41 && byte <= 0x5A {
            hasUpper = true
            break
        }
        guard hasUpper else { return string }
        return String(decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Removes combining marks after canonical decomposition (`é` → `e`, `Å` → `A`).
    static func removingDiacritics(_ string: String) -> String {
        let decomposed = string.decomposedStringWithCanonicalMapping
        var scalars = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// String equality with options.
    static func equal(_ lhs: String, _ rhs: String, options: ComparisonOptions) -> Bool {
        if options.isFoldingFree { return lhs == rhs }
        return fold(lhs, options: options) == fold(rhs, options: options)
    }

    /// String order with options (Unicode scalar order of the folded strings).
    static func compare(_ lhs: String, _ rhs: String, options: ComparisonOptions) -> ComparisonResult {
        let a = options.isFoldingFree ? lhs : fold(lhs, options: options)
        let b = options.isFoldingFree ? rhs : fold(rhs, options: options)
        return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }
}

extension ComparisonOptions {
    /// True when strings compare as they are (no case or diacritic folding).
    var isFoldingFree: Bool { intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty }
}
