import Foundation

/// Draws raw and filtered readings as an SVG image: one panel per axis, against time.
///
/// Each panel shows the raw signal as a thin light line and the filtered signal as a bold line,
/// with labelled value and time grid lines. When there are more readings than pixel columns,
/// each column keeps the smallest and the largest value in it (in time order), so peaks survive.
///
/// ```swift
/// let svg = AccelerometerPlot(title: "lowpass (factor 0.1)").svg(raw: run.raw, filtered: run.filtered)
/// try svg.write(toFile: "accelerometer.svg", atomically: true, encoding: .utf8)
/// ```
///
/// Plays the part of the `GraphView` of Apple's AccelerometerGraph sample.
public struct AccelerometerPlot: Sendable {
    /// The heading drawn above the panels.
    public var title: String
    /// The image width in pixels.
    public var width = 960
    /// The height of one panel in pixels.
    public var panelHeight = 180

    private let left = 56.0, right = 16.0, top = 48.0, gap = 34.0
    private static let colors = ["#d62728", "#2ca02c", "#1f77b4"]

    /// Creates a plot description.
    ///
    /// - Parameter title: The heading, for example the filter's summary.
    public init(title: String) {
        self.title = title
    }

    /// The SVG document for `raw` and `filtered`.
    ///
    /// - Parameters:
    ///   - raw: The raw readings, in time order (at least two).
    ///   - filtered: The filtered readings, one per raw reading.
    /// - Returns: A standalone SVG 1.1 document.
    /// - Complexity: O(*n*).
    public func svg(raw: [AccelerometerSample], filtered: [AccelerometerSample]) -> String {
        let t0 = raw.first?.t ?? 0
        let t1 = Swift.max(raw.last?.t ?? 1, t0 + 1e-9)
        let plotWidth = Double(width) - left - right
        let height = Int(top + Double(3 * panelHeight) + 3 * gap)
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
        viewBox="0 0 \(width) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(left)" y="22" font-size="15" font-weight="bold">\(Self.escaped(title))</text>
        <text x="\(left)" y="38" fill="#555">light: raw · bold: filtered · \(raw.count) samples, \
        \(Self.number(t1 - t0)) s · \(Self.rangeCaption)</text>

        """
        let times = raw.map(\.t)
        let filteredTimes = filtered.map(\.t)
        let axes: [(String, [Double], [Double])] = [
            ("x", raw.map(\.x), filtered.map(\.x)),
            ("y", raw.map(\.y), filtered.map(\.y)),
            ("z", raw.map(\.z), filtered.map(\.z)),
        ]
        for (index, axis) in axes.enumerated() {
            let frame = PanelFrame(x: left, y: top + Double(index) * (Double(panelHeight) + gap),
                                   width: plotWidth, height: Double(panelHeight), t0: t0, t1: t1,
                                   range: PanelFrame.valueRange(raw: axis.1, filtered: axis.2))
            out += frame.grid(label: "\(axis.0) (g)")
            let rawLine = polyline(times, axis.1, frame, color: "#b8b8b8", width: 0.8)
            let filteredLine = polyline(filteredTimes, axis.2, frame, color: Self.colors[index], width: 1.6)
            out += rawLine.svg + filteredLine.svg
            out += Self.clipMarks(rawLine.clips + filteredLine.clips, frame)
            out += Self.clipNote(raw: axis.1, filtered: axis.2, frame)
        }
        out += "</svg>\n"
        return out
    }

    /// The caption that says how each panel's value range is chosen.
    /// (Details: ``PanelFrame/valueRange(raw:filtered:)``.)
    static let rangeCaption = "y-range fits the filtered signal, not its spikes; "
        + "readings beyond it are clipped at the edge (▲ ▼)"

    /// A polyline of `values` against `times`, with the values clipped to the frame's range,
    /// and the pixel positions where values were clipped.
    private func polyline(_ times: [Double], _ values: [Double], _ frame: PanelFrame, color: String,
                          width: Double) -> (svg: String, clips: [(x: Double, edge: PanelFrame.ClipEdge)]) {
        var points = ""
        var clips: [(x: Double, edge: PanelFrame.ClipEdge)] = []
        for index in Self.decimated(times, values, frame) {
            let (value, edge) = frame.clipped(values[index])
            let x = frame.px(times[index])
            if let edge { clips.append((x, edge)) }
            points += String(format: "%.1f,%.1f ", x, frame.py(value))
        }
        let svg = "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\" "
            + "stroke-linejoin=\"round\" points=\"\(points.dropLast())\"/>\n"
        return (svg, clips)
    }

    /// A small triangle at the panel's edge for each pixel column where readings were clipped,
    /// pointing the way the clipped readings go.
    static func clipMarks(_ clips: [(x: Double, edge: PanelFrame.ClipEdge)], _ frame: PanelFrame) -> String {
        guard !clips.isEmpty else { return "" }
        var seen = Set<String>()
        var path = ""
        for clip in clips where clip.x.isFinite {
            let column = pixelColumn(clip.x)
            let key = "\(column)\(clip.edge == .top ? "t" : "b")"
            guard seen.insert(key).inserted else { continue }
            let tip = clip.edge == .top ? frame.y : frame.y + frame.height
            let base = clip.edge == .top ? tip + 6 : tip - 6
            path += String(format: "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fZ", clip.x, tip, clip.x - 3.5, base,
                           clip.x + 3.5, base)
        }
        return "<path class=\"clipped\" fill=\"#a00\" d=\"\(path)\"/>\n"
    }

    /// The line at a panel's top right that counts the readings drawn clipped and gives their
    /// extremes, or nothing when none are.
    static func clipNote(raw: [Double], filtered: [Double], _ frame: PanelFrame) -> String {
        let outside = { (value: Double) in frame.clipped(value).edge != nil }
        let rawOut = raw.filter(outside)
        let filteredOut = filtered.filter(outside)
        guard let lowest = (rawOut + filteredOut).min(), let highest = (rawOut + filteredOut).max() else {
            return ""
        }
        var counts = ["\(rawOut.count) raw"]
        if !filteredOut.isEmpty { counts.append("\(filteredOut.count) filtered") }
        let noun = rawOut.count + filteredOut.count == 1 ? "reading" : "readings"
        let extremes = lowest == highest ? "at \(number(lowest)) g"
            : "from \(number(lowest)) to \(number(highest)) g"
        return "<text class=\"clip-note\" x=\"\(frame.x + frame.width - 6)\" y=\"\(frame.y + 14)\" "
            + "text-anchor=\"end\" fill=\"#a00\">clipped: \(counts.joined(separator: " and ")) "
            + "\(noun) (\(extremes))</text>\n"
    }

    /// The indexes of the points to draw: all of them, or per pixel column the minimum and the
    /// maximum, in time order.
    static func decimated(_ times: [Double], _ values: [Double], _ frame: PanelFrame) -> [Int] {
        guard times.count > 2 * Int(frame.width) else { return Array(times.indices) }
        var result: [Int] = []
        var start = 0
        while start < times.count {
            let column = pixelColumn(frame.px(times[start]))
            var end = start
            var low = start, high = start
            while end < times.count, pixelColumn(frame.px(times[end])) == column {
                if values[end] < values[low] { low = end }
                if values[end] > values[high] { high = end }
                end += 1
            }
            result += low == high ? [low] : [Swift.min(low, high), Swift.max(low, high)]
            start = end
        }
        return result
    }

    /// The whole pixel column of `x`, clamped to ±1e9 (`Int.min` for NaN), never trapping.
    static func pixelColumn(_ x: Double) -> Int {
        guard !x.isNaN else { return Int.min }
        return Int(Swift.min(Swift.max(x, -1e9), 1e9).rounded(.towardZero))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func number(_ value: Double) -> String {
        let text = String(format: "%.4g", value)
        return text == "-0" ? "0" : text
    }
}
