import Foundation

extension FilterRun {
    /// The summary table the command prints: samples, duration, rate, per-axis mean and
    /// standard deviation before and after filtering, and throughput.
    ///
    /// - Parameters:
    ///   - input: The name of the input to show (usually its path).
    ///   - rate: The recording's sample rate in hertz.
    /// - Returns: The table, lines separated by `\n`, ending in a newline.
    public func summary(input: String, rate: Double) -> String {
        let rawStatistics = AxisStatistics.axes(of: raw)
        let filteredStatistics = AxisStatistics.axes(of: filtered)
        let duration = raw[raw.count - 1].t - raw[0].t
        var lines = [
            "input       \(input)",
            "filter      \(settings.summary)",
            "samples     \(raw.count)",
            "duration    \(Self.number(duration, decimals: 3)) s",
            "rate        \(Self.number(rate, decimals: 3)) Hz",
            "",
            Self.row(["axis", "raw mean", "raw sd", "filtered mean", "filtered sd"]),
        ]
        for (index, name) in ["x", "y", "z"].enumerated() {
            let before = rawStatistics[index]
            let after = filteredStatistics[index]
            let values = [before.mean, before.standardDeviation, after.mean, after.standardDeviation]
            lines.append(Self.row([name] + values.map { Self.number($0, decimals: 5) }))
        }
        lines.append("")
        lines.append("throughput  \(Self.grouped(throughput)) samples/s through key-value observation "
            + "(\(raw.count) samples in \(String(format: "%.2f", elapsed * 1000)) ms)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The CSV export: header `t,x,y,z,fx,fy,fz`, then one row per sample with the raw and the
    /// filtered values, each number in Swift's round-trip `description`.
    ///
    /// - Returns: The file's text, ending in a newline.
    /// - Complexity: O(*n*).
    public func csv() -> String {
        var text = "t,x,y,z,fx,fy,fz\n"
        text.reserveCapacity(raw.count * 96)
        for (a, f) in zip(raw, filtered) {
            text += "\(a.t),\(a.x),\(a.y),\(a.z),\(f.x),\(f.y),\(f.z)\n"
        }
        return text
    }

    /// `value` with `decimals` digits after the point; in `%.5g` form (`1.2346e+12`) when that
    /// would take more than 12 characters or show a non-zero value as zero, so that every
    /// number fits its column.
    static func number(_ value: Double, decimals: Int) -> String {
        let magnitude = abs(value)
        let fixed = value == 0 || (magnitude < 1e7 && magnitude >= 0.5 * pow(10, Double(-decimals)))
        return String(format: fixed ? "%.\(decimals)f" : "%.5g", value)
    }

    /// A table row: the first cell left-aligned in 4 columns, the others right-aligned in 15.
    static func row(_ cells: [String]) -> String {
        var line = cells[0].padding(toLength: 4, withPad: " ", startingAt: 0)
        for cell in cells.dropFirst() {
            line += String(repeating: " ", count: max(15 - cell.count, 1)) + cell
        }
        return line
    }

    /// `1234567.8` → `"1,234,568"`.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.3g", value) }
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
