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

    /// `12.1–12.9 ns` when both ends share a unit, else `980 ns–1.02 µs`.
    static func range(_ low: Double, _ high: Double) -> String {
        let a = duration(low), b = duration(high)
        let unitA = a.split(separator: " ").last, unitB = b.split(separator: " ").last
        return unitA == unitB ? String(a.split(separator: " ")[0]) + "–" + b : a + "–" + b
    }

    /// A power of ten as a duration: `1 ns`, `10 ns`, `100 µs`, `1 s`.
    static func decade(_ nanoseconds: Double) -> String {
        for (scale, unit) in [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")] where nanoseconds >= scale * 0.999 {
            return "\(Int((nanoseconds / scale).rounded())) \(unit)"
        }
        return String(format: "%g ns", nanoseconds)
    }

    /// `text` cut into lines of at most `width` characters, at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = "    " + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
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
        // Two significant digits below 0.1 (0.0083×), so that large differences stay visible.
        (value < 0.1 ? String(format: "%.2g", value) : significant(value)) + "×"
    }

    /// Escapes text for SVG and HTML.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
