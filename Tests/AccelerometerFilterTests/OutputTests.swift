import AccelerometerFilter
import Foundation
import Testing

@Suite("CSV, SVG and summary output")
struct OutputTests {
    static func run(_ kind: FilterKind = .highpassRC) throws -> (AccelerometerRecording, FilterRun) {
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(TestData.fileNames[1]))
        let run = try FilterPipeline.run(recording, settings: FilterSettings(kind: kind, rate: recording.rate))
        return (recording, run)
    }

    @Test func csvHasHeaderAndOneRoundTrippingRowPerSample() throws {
        let (recording, run) = try Self.run()
        let lines = run.csv().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "t,x,y,z,fx,fy,fz")
        #expect(lines.last == "")
        let rows = lines.dropFirst().dropLast()
        try #require(rows.count == recording.samples.count)
        for (index, row) in rows.enumerated() {
            let numbers = row.split(separator: ",").map { Double(String($0)) }
            let a = run.raw[index], f = run.filtered[index]
            if numbers != [a.t, a.x, a.y, a.z, f.x, f.y, f.z] {
                Issue.record("row \(index + 2) does not round-trip: \(row)")
                return
            }
        }
        // Full precision: Swift's shortest round-trip description, not a fixed number of digits.
        #expect(rows.first == "0.0,-0.9589758,-0.1325559,-0.1939527,\(run.filtered[0].x),\(run.filtered[0].y),\(run.filtered[0].z)")
    }

    @Test func svgHasThreePanelsWithRawAndFilteredLines() throws {
        let (_, run) = try Self.run(.lowpass)
        let svg = AccelerometerPlot(title: "raw & <filtered>").svg(raw: run.raw, filtered: run.filtered)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 6)
        #expect(svg.components(separatedBy: "stroke=\"#b8b8b8\"").count - 1 == 3)
        #expect(svg.contains("raw &amp; &lt;filtered&gt;"))
        for label in ["x (g)", "y (g)", "z (g)"] { #expect(svg.contains(">\(label)</text>")) }
        #expect(svg.contains("3511 samples"))
    }

    @Test func svgKeepsPeaksWhenDecimating() throws {
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(TestData.fileNames[0]))
        let run = try FilterPipeline.run(recording, settings: FilterSettings(rate: recording.rate))
        let plot = AccelerometerPlot(title: "t")
        let svg = plot.svg(raw: run.raw, filtered: run.filtered)
        let firstLine = try #require(svg.components(separatedBy: "points=\"").dropFirst().first?
            .components(separatedBy: "\"").first)
        let points = firstLine.split(separator: " ")
        #expect(points.count < run.raw.count)
        #expect(points.count >= 2 * 800)
        // The panel's lowest pixel row (largest y) is drawn: the smallest raw x survives decimation.
        let ys = points.compactMap { Double($0.split(separator: ",")[1]) }
        let bottom = try #require(ys.max())
        let top = try #require(ys.min())
        let span = bottom - top
        #expect(span > 0.85 * Double(plot.panelHeight))
    }

    @Test func summaryListsCountsRateStatisticsAndThroughput() throws {
        let (recording, run) = try Self.run(.lowpass)
        let text = run.summary(input: "walk.csv", rate: recording.rate)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("input       walk.csv"))
        #expect(lines.contains("filter      lowpass (factor 0.1)"))
        #expect(lines.contains("samples     3511"))
        #expect(lines.contains("duration    29.250 s"))
        #expect(lines.contains("rate        120.000 Hz"))
        let header = try #require(lines.first { $0.hasPrefix("axis") })
        #expect(header.split(separator: " ").count == 9)
        let xRow = try #require(lines.first { $0.hasPrefix("x ") })
        let values = xRow.split(separator: " ").dropFirst().compactMap { Double(String($0)) }
        let rawX = AxisStatistics(run.raw.map(\.x))
        let filteredX = AxisStatistics(run.filtered.map(\.x))
        #expect(values == [rawX.mean, rawX.standardDeviation, filteredX.mean, filteredX.standardDeviation]
            .map { Double(String(format: "%.5f", $0))! })
        #expect(lines.contains { $0.hasPrefix("throughput  ") && $0.contains("samples/s through key-value observation") })
        #expect(run.throughput > 0)
    }

    @Test func statisticsUsePopulationStandardDeviation() {
        let statistics = AxisStatistics([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(statistics.mean == 5)
        #expect(statistics.standardDeviation == 2)
    }
}
