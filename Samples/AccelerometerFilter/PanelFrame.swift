import Foundation

/// The rectangle of one plot panel and the mapping from (time, value) to pixels.
struct PanelFrame {
    let x: Double, y: Double, width: Double, height: Double
    let t0: Double, t1: Double
    let low: Double, high: Double

    init(x: Double, y: Double, width: Double, height: Double, t0: Double, t1: Double, values: [Double]) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.t0 = t0
        self.t1 = t1
        var low = values.min() ?? -1
        var high = values.max() ?? 1
        if high - low < 1e-9 {
            low -= 0.5
            high += 0.5
        }
        let pad = (high - low) * 0.05
        self.low = low - pad
        self.high = high + pad
    }

    /// The horizontal pixel of time `t`.
    func px(_ t: Double) -> Double { x + (t - t0) / (t1 - t0) * width }

    /// The vertical pixel of `value`.
    func py(_ value: Double) -> Double { y + (high - value) / (high - low) * height }

    /// The frame, the grid lines with their labels, and the panel's label.
    func grid(label: String) -> String {
        var out = "<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n"
        var labels = ""
        for value in Self.ticks(from: low, to: high, count: 5) {
            let row = String(format: "%.1f", py(value))
            out += "<line x1=\"\(x)\" y1=\"\(row)\" x2=\"\(x + width)\" y2=\"\(row)\"/>\n"
            labels += "<text x=\"\(x - 6)\" y=\"\(row)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                + "\(AccelerometerPlot.number(value))</text>\n"
        }
        for time in Self.ticks(from: t0, to: t1, count: 10) {
            let column = String(format: "%.1f", px(time))
            out += "<line x1=\"\(column)\" y1=\"\(y)\" x2=\"\(column)\" y2=\"\(y + height)\"/>\n"
            labels += "<text x=\"\(column)\" y=\"\(y + height + 13)\" text-anchor=\"middle\">"
                + "\(AccelerometerPlot.number(time)) s</text>\n"
        }
        out += "</g>\n<g fill=\"#333\">\n" + labels
        out += "<text x=\"\(x + 6)\" y=\"\(y + 14)\" font-weight=\"bold\">\(label)</text>\n</g>\n"
        out += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"none\" stroke=\"#888\"/>\n"
        return out
    }

    /// Round values (1, 2 or 5 times a power of ten apart) between `low` and `high`.
    static func ticks(from low: Double, to high: Double, count: Int) -> [Double] {
        let span = high - low
        guard span > 0, span.isFinite else { return [] }
        let rough = span / Double(count)
        let power = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        var ticks: [Double] = []
        var index = (low / step).rounded(.up)
        while index * step <= high {
            ticks.append(index * step)
            index += 1
        }
        return ticks
    }
}
