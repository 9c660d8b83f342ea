import Foundation

/// The rectangle of one plot panel and the mapping from (time, value) to pixels.
struct PanelFrame {
    let x: Double, y: Double, width: Double, height: Double
    let t0: Double, t1: Double
    let low: Double, high: Double

    init(x: Double, y: Double, width: Double, height: Double, t0: Double, t1: Double,
         range: ClosedRange<Double>) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.t0 = t0
        self.t1 = t1
        self.low = range.lowerBound
        self.high = range.upperBound
    }

    /// The percentiles of the filtered signal that the value range is built on (0.5th and
    /// 99.5th).
    static let robustPercentiles = (low: 0.005, high: 0.995)

    /// How far the value range reaches beyond those percentiles, as a fraction of the span
    /// between them.
    static let robustMargin = 0.25

    /// The value range of a panel: all of `raw` and `filtered` with a 5 % margin, but never
    /// beyond the filtered signal's 0.5th to 99.5th percentile widened by a quarter of that span
    /// on each side, or to the filtered signal's own minimum and maximum where those lie within
    /// one span of the percentiles.
    ///
    /// A few spikes (a sensor at its ±8 g limit) would otherwise set the scale and squash the
    /// filtered signal into a thin band; readings beyond the range are drawn clipped at the
    /// panel's edge and marked. When nothing is that far out, the range is the data's own.
    /// Non-finite values are ignored.
    ///
    /// - Complexity: O(*n* log *n*) for the percentiles.
    static func valueRange(raw: [Double], filtered: [Double]) -> ClosedRange<Double> {
        let all = (raw + filtered).filter(\.isFinite)
        guard var low = all.min(), var high = all.max() else { return -1...1 }
        if high - low < 1e-9 {
            low -= 0.5
            high += 0.5
        }
        let pad = (high - low) * 0.05
        var range = (low: low - pad, high: high + pad)
        let sorted = filtered.filter(\.isFinite).sorted()
        if !sorted.isEmpty {
            let lowQuantile = percentile(sorted, robustPercentiles.low)
            let highQuantile = percentile(sorted, robustPercentiles.high)
            let span = highQuantile - lowQuantile
            let margin = Swift.max(span * robustMargin, 0.05)
            // The filtered signal's own extremes stay in view unless they are spikes: farther
            // out than the whole span between the percentiles.
            let filteredLow = sorted[0] >= lowQuantile - span ? sorted[0] - 0.05 * span : lowQuantile - margin
            let filteredHigh = sorted[sorted.count - 1] <= highQuantile + span
                ? sorted[sorted.count - 1] + 0.05 * span : highQuantile + margin
            range.low = Swift.max(range.low, Swift.min(lowQuantile - margin, filteredLow))
            range.high = Swift.min(range.high, Swift.max(highQuantile + margin, filteredHigh))
        }
        guard range.low < range.high, (range.high - range.low).isFinite else { return -1...1 }
        return range.low...range.high
    }

    /// The `fraction` percentile of ascending `sorted` values (nearest rank, no interpolation).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        let rank = (Double(sorted.count - 1) * fraction).rounded()
        return sorted[Swift.min(Swift.max(Int(rank), 0), sorted.count - 1)]
    }

    /// `value` moved into the value range, and on which edge it was clipped, if it was.
    func clipped(_ value: Double) -> (value: Double, edge: ClipEdge?) {
        if value > high { return (high, .top) }
        if value < low { return (low, .bottom) }
        return (value, nil)
    }

    /// The edge of the value range a reading was clipped at.
    enum ClipEdge {
        case top, bottom
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
