// Issue 11: the plot's value range follows the filtered signal, not a few sensor-limit spikes
// (clipped readings are marked and counted on the plot), and a --realtime replay reports its
// progress.

import Foundation
import Testing
@testable import AccelerometerFilter

@Suite("Accelerometer filter: plot range and replay progress")
struct PlotRangeAndProgressTests {
    /// A walking-like signal around -1 g with two ±8 g spikes, as in the 50 Hz recording.
    private static func spiky() -> (raw: [Double], filtered: [Double]) {
        var raw = (0..<2_000).map { -1 + 0.3 * sin(Double($0) / 7) }
        raw[500] = 8
        raw[1_500] = -8
        var filtered: [Double] = []
        var out = 0.0
        for value in raw {
            out = value * 0.1 + out * 0.9
            filtered.append(out)
        }
        return (raw, filtered)
    }

    @Test func spikesDoNotSetTheRange() {
        let (raw, filtered) = Self.spiky()
        let range = PanelFrame.valueRange(raw: raw, filtered: filtered)
        // The filtered signal (apart from its first steps up from 0 and the spikes' echoes)
        // spans about -1.3 ... -0.7: the range is that, not -8 ... 8.
        #expect(range.lowerBound > -2 && range.upperBound < 0.5, "range: \(range)")
        #expect(range.upperBound - range.lowerBound < 2.5)
        let sorted = filtered.sorted()
        #expect(range.contains(PanelFrame.percentile(sorted, 0.005)))
        #expect(range.contains(PanelFrame.percentile(sorted, 0.995)))
        #expect(!range.contains(8) && !range.contains(-8))
    }

    @Test func withoutSpikesTheRangeIsTheDatasOwn() {
        let raw = (0..<1_000).map { 0.5 * sin(Double($0) / 10) }
        let filtered = raw.map { $0 * 0.9 }
        let range = PanelFrame.valueRange(raw: raw, filtered: filtered)
        let low = raw.min()!, high = raw.max()!
        let pad = (high - low) * 0.05
        #expect(abs(range.lowerBound - (low - pad)) < 1e-12)
        #expect(abs(range.upperBound - (high + pad)) < 1e-12)
    }

    @Test func rangeSurvivesConstantEmptyAndNonFiniteInput() {
        #expect(PanelFrame.valueRange(raw: [], filtered: []) == -1...1)
        let constant = PanelFrame.valueRange(raw: [2, 2, 2], filtered: [2, 2, 2])
        #expect(constant.contains(2) && constant.upperBound > constant.lowerBound)
        let odd = PanelFrame.valueRange(raw: [.nan, .infinity, 1, 2], filtered: [.nan, 1, 2])
        #expect(odd.contains(1) && odd.contains(2) && odd.upperBound.isFinite)
    }

    @Test func defaultRecordingPlotShowsTheFilteredSignalAndMarksClippedSpikes() throws {
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(TestData.fileNames[0]))
        #expect(recording.samples.count == 8_100)
        let run = try FilterPipeline.run(recording, settings: FilterSettings(rate: recording.rate))
        let svg = AccelerometerPlot(title: "t").svg(raw: run.raw, filtered: run.filtered)
        #expect(svg.contains(AccelerometerPlot.rangeCaption))
        // The x panel: raw reaches ±8 g, but the range stays within the filtered signal's reach.
        let rawX = run.raw.map(\.x), filteredX = run.filtered.map(\.x)
        #expect(rawX.max()! > 8 && rawX.min()! < -8)
        let range = PanelFrame.valueRange(raw: rawX, filtered: filteredX)
        #expect(range.lowerBound >= filteredX.min()! - 0.2 && range.upperBound <= filteredX.max()! + 0.2)
        #expect(filteredX.allSatisfy(range.contains), "the low-pass signal is not clipped")
        // Each panel says how many readings it clipped; the marks are drawn.
        let notes = svg.components(separatedBy: "class=\"clip-note\"").count - 1
        #expect(notes == 3)
        #expect(svg.contains("class=\"clipped\""))
        let clippedX = rawX.filter { !range.contains($0) }.count
        #expect(svg.contains("clipped: \(clippedX) raw readings (from -8.072 to 8.1 g)"))
        // No point is drawn outside its panel: every polyline's y lies in the panels' rows.
        let panelTop = 48.0, panelHeight = 180.0, gap = 34.0
        for (index, line) in svg.components(separatedBy: "points=\"").dropFirst().enumerated() {
            let panel = Double(index / 2)
            let top = panelTop + panel * (panelHeight + gap)
            let points = try #require(line.components(separatedBy: "\"").first).split(separator: " ")
            for point in points {
                let y = try #require(Double(point.split(separator: ",")[1]))
                #expect(y >= top - 0.05 && y <= top + panelHeight + 0.05)
            }
        }
    }

    @Test func plotWithoutClippingHasNoMarks() {
        let raw = (0..<300).map { AccelerometerSample(t: Double($0) / 50, x: sin(Double($0)), y: 0, z: 1) }
        let svg = AccelerometerPlot(title: "t").svg(raw: raw, filtered: raw)
        #expect(!svg.contains("class=\"clipped\""))
        #expect(!svg.contains("class=\"clip-note\""))
    }

    // MARK: Progress

    @Test func progressReportsStartEveryIntervalAndEnd() {
        var progress = ReplayProgress(duration: 161.98)
        var lines: [(String, Bool)] = []
        for step in 0...8_099 {
            if let line = progress.line(at: Double(step) * 0.02) { lines.append(line) }
        }
        #expect(lines.first?.0 == "replaying 162.0 s at the recording's own speed (--realtime); progress every 5.0 s")
        #expect(lines.count == 1 + 32 + 1)   // start, 5 s ... 160 s, end
        #expect(lines[1].0 == "replayed 5.0 s of 162.0 s (3%)")
        #expect(lines[2].0 == "replayed 10.0 s of 162.0 s (6%)")
        #expect(lines.last?.0 == "replayed 162.0 s of 162.0 s (100%)")
        #expect(lines.last?.1 == true)
        #expect(lines.dropLast().allSatisfy { !$0.1 })
        #expect(progress.line(at: 200) == nil, "nothing after the end")
    }

    @Test func progressSkipsToTheLatestIntervalAfterAGap() {
        var progress = ReplayProgress(duration: 100, interval: 10)
        _ = progress.line(at: 0)
        #expect(progress.line(at: 35)?.text == "replayed 35.0 s of 100.0 s (35%)")
        #expect(progress.line(at: 39) == nil)
        #expect(progress.line(at: 40)?.text == "replayed 40.0 s of 100.0 s (40%)")
    }

    @Test func realtimeCommandReportsProgressAndPlainRunDoesNot() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("short.csv").path
        try "t,x,y,z\n0,0,0,1\n0.05,0,0,1\n0.1,0,0,1\n".write(toFile: input, atomically: true, encoding: .utf8)
        var options = FilterCommandOptions()
        options.input = input
        options.svgPath = directory.appendingPathComponent("plot.svg").path
        options.realtime = true
        var lines: [(String, Bool)] = []
        _ = try FilterCommand.run(options) { lines.append(($0, $1)) }
        #expect(lines.map(\.0) == ["replaying 0.1 s at the recording's own speed (--realtime); progress every 5.0 s",
                                   "replayed 0.1 s of 0.1 s (100%)"])
        #expect(lines.map(\.1) == [false, true])

        options.realtime = false
        lines = []
        _ = try FilterCommand.run(options) { lines.append(($0, $1)) }
        #expect(lines.isEmpty)
    }
}
