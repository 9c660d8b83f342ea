// The report as an SVG chart: one group of horizontal bars per workload, one colour per
// program (legend on top), nanoseconds per operation on a logarithmic axis, the median as the
// bar, the smallest and largest round as a whisker, the value written at the bar's end.

import Foundation

public enum PeerChart {
    static let width = 1100.0
    static let plotLeft = 330.0
    static let plotRight = 1010.0
    static let barHeight = 12.0
    static let barGap = 2.0
    static let groupGap = 14.0

    /// The SVG document; `subtitle` lines go under the title (machine, conditions).
    public static func svg(_ results: PeerResults, title: String, subtitle: [String]) -> String {
        let programs = results.programs
        let workloads = PeerWorkload.all.filter { workload in
            programs.contains { results.summary($0.id, workload.name) != nil }
        }
        let values = workloads.flatMap { workload in
            programs.compactMap { results.summary($0.id, workload.name) }.flatMap { [$0.minimum, $0.maximum] }
        }.filter { $0 > 0 }
        let low = pow(10, (log10(values.min() ?? 1)).rounded(.down))
        var high = pow(10, (log10(values.max() ?? 10)).rounded(.up))
        if high <= low { high = low * 10 }
        func x(_ value: Double) -> Double {
            let clamped = min(max(value, low), high)
            return plotLeft + (log10(clamped) - log10(low)) / (log10(high) - log10(low)) * (plotRight - plotLeft)
        }

        var body: [String] = []
        var y = 30.0
        body.append(text(20, y, title, size: 18, weight: "bold"))
        for line in subtitle {
            y += 18
            body.append(text(20, y, line, size: 12, fill: "#333"))
        }
        // Legend: three programs per row.
        y += 14
        for (index, program) in programs.enumerated() {
            let column = Double(index % 3), row = Double(index / 3)
            let left = 20 + column * 355, top = y + row * 20
            body.append("<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"14\" height=\"14\" fill=\"\(program.colour)\"/>")
            body.append(text(left + 20, top + 11.5, program.label, size: 12))
        }
        y += Double((programs.count + 2) / 3) * 20 + 24
        let plotTop = y
        // Groups.
        var groups: [String] = []
        for (index, workload) in workloads.enumerated() {
            let present = programs.filter { results.summary($0.id, workload.name) != nil }
            let height = Double(present.count) * (barHeight + barGap) - barGap
            if index % 2 == 0 {
                groups.append("<rect x=\"10\" y=\"\(n(y - groupGap / 2))\" width=\"\(n(width - 20))\" "
                              + "height=\"\(n(height + groupGap))\" fill=\"#f3f3f3\"/>")
            }
            let middle = y + height / 2
            groups.append(text(plotLeft - 10, middle - 1, workload.name, size: 12, weight: "bold", anchor: "end"))
            groups.append(text(plotLeft - 10, middle + 12, workload.operation, size: 10, fill: "#555", anchor: "end"))
            for program in present {
                guard let s = results.summary(program.id, workload.name) else { continue }
                let end = x(s.median)
                groups.append("<rect x=\"\(n(plotLeft))\" y=\"\(n(y))\" width=\"\(n(max(end - plotLeft, 1)))\" "
                              + "height=\"\(n(barHeight))\" fill=\"\(program.colour)\">"
                              + "<title>\(PeerFormatting.escaped(program.label)): \(PeerFormatting.duration(s.median))</title></rect>")
                if s.maximum > s.minimum {
                    let centre = y + barHeight / 2
                    groups.append("<path d=\"M\(n(x(s.minimum))) \(n(centre))H\(n(x(s.maximum)))"
                                  + "M\(n(x(s.minimum))) \(n(centre - 3))v6M\(n(x(s.maximum))) \(n(centre - 3))v6\" "
                                  + "stroke=\"#000\" stroke-width=\"1\" fill=\"none\"/>")
                }
                let marker = results.notes[program.id]?[workload.name] == nil ? "" : " *"
                groups.append(text(max(end, x(s.maximum)) + 5, y + barHeight - 2,
                                   PeerFormatting.duration(s.median) + marker, size: 10))
                y += barHeight + barGap
            }
            y += groupGap - barGap
        }
        let plotBottom = y - groupGap / 2
        // Decade grid lines with labels above and below.
        var grid: [String] = []
        var decade = low
        while decade <= high * 1.0001 {
            let position = x(decade)
            grid.append("<line x1=\"\(n(position))\" y1=\"\(n(plotTop - 8))\" x2=\"\(n(position))\" "
                        + "y2=\"\(n(plotBottom))\" stroke=\"#bbb\" stroke-width=\"1\"/>")
            let label = PeerFormatting.decade(decade)
            grid.append(text(position, plotTop - 12, label, size: 10, fill: "#333", anchor: "middle"))
            grid.append(text(position, plotBottom + 14, label, size: 10, fill: "#333", anchor: "middle"))
            decade *= 10
        }
        y = plotBottom + 36
        var footer = [text(20, y, "Time per operation, logarithmic scale: shorter is faster. Bar: median over the rounds; "
                           + "whisker: smallest to largest round. * : see the notes below.", size: 11, fill: "#333")]
        for program in programs {
            for workload in workloads {
                guard results.summary(program.id, workload.name) != nil,
                      let note = results.notes[program.id]?[workload.name] else { continue }
                for line in PeerFormatting.wrapped("* \(program.label), \(workload.name): \(note)", width: 190) {
                    y += 14
                    footer.append(text(20, y, line, size: 10, fill: "#555"))
                }
            }
        }
        for failure in results.failures {
            for line in PeerFormatting.wrapped("Missing: \(failure.program.label): \(failure.reason)", width: 190) {
                y += 14
                footer.append(text(20, y, line, size: 10, fill: "#a00"))
            }
        }
        let height = y + 20
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="#fff"/>
            \((body + groups + grid + footer).joined(separator: "\n"))
            </svg>

            """
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, size: Double, weight: String? = nil,
                             fill: String = "#000", anchor: String = "start") -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
            + (weight.map { " font-weight=\"\($0)\"" } ?? "")
            + (anchor == "start" ? "" : " text-anchor=\"\(anchor)\"") + ">\(PeerFormatting.escaped(content))</text>"
    }

    /// A coordinate with at most one decimal.
    private static func n(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
