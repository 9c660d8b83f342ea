// Numbers for people: durations with units, ratios.

import Foundation

enum PeerFormatting {
    /// `12.3 ns`, `4.56 µs`, `78.9 ms`: three significant digits.
    static func duration(_ nanoseconds: Double) -> String {
        let (value, unit): (Double, String) = switch nanoseconds {
        case ..<1_000: (nanoseconds, "ns")
        case ..<1_000_000: (nanoseconds / 1_000, "µs")
        case ..<1_000_000_000: (nanoseconds / 1_000_000, "ms")
        default: (nanoseconds / 1_000_000_000, "s")
        }
        return significant(value) + " " + unit
    }

    /// Three significant digits (no more decimals than needed).
    static func significant(_ value: Double) -> String {
        switch abs(value) {
        case 100...: String(format: "%.0f", value)
        case 10...: String(format: "%.1f", value)
        default: String(format: "%.2f", value)
        }
    }

    /// `0.21×`, `3.4×`, `120×`.
    static func ratio(_ value: Double) -> String {
        significant(value) + "×"
    }

    /// Escapes text for SVG and HTML.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
