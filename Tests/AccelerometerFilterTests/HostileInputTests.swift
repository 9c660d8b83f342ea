import AccelerometerFilter
import Foundation
import Testing
import TestSupport

/// Calls a pacer on a helper thread and waits for it with a time limit, so that a pacer that
/// sleeps far too long fails the test instead of hanging it.
///
/// `@unchecked Sendable`: the pacer closure is called on one helper thread at a time; the test
/// waits for each call to return before making the next (a call that times out fails the test).
private final class PacerCall: @unchecked Sendable {
    private let pacer: (Double) -> Void

    init(_ pacer: @escaping (Double) -> Void) { self.pacer = pacer }

    /// Whether `pacer(offset)` returned within `limit`.
    func returns(_ offset: Double, within limit: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            pacer(offset)
            done.signal()
        }
        thread.start()
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
        return done.wait(timeout: .now() + seconds) == .success
    }
}

/// Writes `bytes` to a new file in a temporary directory and returns its path.
private func file(_ bytes: [UInt8], in directory: URL, name: String = "input.csv") throws -> String {
    let path = directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

@Suite("Recordings whose figures would not be finite")
struct NumericLimitTests {
    @Test func timeSpanOverflowIsRejectedNamingTheLine() throws {
        var csv = "t,x,y,z\n"
        var t = -1.5e308
        for _ in 0..<2_000 {
            csv += "\(t),0,0,1\n"
            t += 1e305
        }
        let error = try #require(throws: RecordingError.self) { try AccelerometerRecording(csv: csv) }
        guard case let .timeSpanOverflow(line) = error else {
            Issue.record("expected timeSpanOverflow, got \(error)")
            return
        }
        #expect(line > 1_790 && line < 1_810, "line \(line)")
        #expect(error.description.contains("too large to compute"))
    }

    @Test func hugeAccelerationIsRejectedNamingColumnAndLine() {
        #expect(throws: RecordingError.valueOutOfRange(1e308, column: "y", line: 3)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n1,1,1e308,3\n")
        }
        #expect(throws: RecordingError.valueOutOfRange(-2e12, column: "x", line: 2)) {
            try AccelerometerRecording(samples: [AccelerometerSample(t: 0, x: -2e12, y: 0, z: 0),
                                                 AccelerometerSample(t: 1, x: 0, y: 0, z: 0)])
        }
    }

    @Test func infiniteRateIsRejected() {
        #expect(throws: RecordingError.rateNotFinite(samples: 2, duration: .leastNonzeroMagnitude, line: 3)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n5e-324,1,2,3\n")
        }
    }

    @Test func plotNeverTrapsOnNonFiniteTimeSpans() {
        let raw = (0..<2_000).map { AccelerometerSample(t: -1.5e308 + Double($0) * 1e305, x: 0, y: 0, z: 1) }
        let svg = AccelerometerPlot(title: "overflow").svg(raw: raw, filtered: raw)
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test(arguments: [FilterKind.highpassRC, .lowpassRC])
    func cutoffGivingNoUsableCoefficientIsRejected(kind: FilterKind) throws {
        var options = FilterCommandOptions()
        options.input = TestData.path(TestData.fileNames[0])
        options.kind = kind
        options.cutoff = try #require(Double("1e-320"))
        options.svgPath = "/nonexistent/never-written.svg"
        let error = try #require(throws: FilterSettingsError.self) { try FilterCommand.run(options) }
        #expect(error.description.contains("--cutoff 1e-320 Hz"))
    }

    @Test func largeValuesKeepTheTableColumns() throws {
        let samples = (0..<100).map {
            AccelerometerSample(t: Double($0) * 1e200, x: Double($0 % 2) * 9e11, y: 1e-9, z: -3e11)
        }
        let recording = try AccelerometerRecording(samples: samples)
        let run = try FilterPipeline.run(recording, settings: FilterSettings(rate: recording.rate))
        let table = run.summary(input: "big.csv", rate: recording.rate)
        let lines = table.split(separator: "\n")
        for line in lines where ["x ", "y ", "z "].contains(where: { line.hasPrefix($0) }) {
            #expect(line.count == 4 + 4 * 15, "row '\(line)'")
        }
        #expect(lines.contains("duration    9.9e+201 s"))
        #expect(lines.contains("rate        1e-200 Hz"))
    }
}

@Suite("Real-time replay limits")
struct RealtimeLimitTests {
    @Test func realtimeRejectsRecordingsLongerThanADay() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = FilterCommandOptions()
        options.input = try file(Array("t,x,y,z\n0,0,0,1\n1e30,0,0,1\n".utf8), in: directory)
        options.realtime = true
        options.svgPath = directory.appendingPathComponent("plot.svg").path
        #expect(throws: PlaybackError.tooLongForRealtime(duration: 1e30, limit: 86_400)) {
            try FilterCommand.run(options)
        }
        options.realtime = false
        #expect(try FilterCommand.run(options).contains("samples     2"))
    }

    /// Offsets that are not finite positive numbers return at once (a pacer that waited for
    /// them would sleep up to a day, or trap on NaN), while a positive offset does wait.
    @Test func pacerIgnoresOffsetsThatAreNotFinitePositiveNumbers() {
        let start = ContinuousClock.now
        let pacer = PacerCall(AccelerometerPlayer.realtimePacer())
        withEvery("offset", in: [0, -0.0, -1e-300, -1e30, .nan, .infinity, -.infinity]) { offset in
            #expect(pacer.returns(offset, within: .seconds(20)), "the pacer waited for \(offset)")
        }
        // The pacer measures from its first call (offset 0, after `start`): 0.05 s waits until
        // at least 0.05 s after `start`.
        #expect(pacer.returns(0.05, within: .seconds(20)))
        #expect(ContinuousClock.now - start >= .milliseconds(50), "a finite positive offset did not wait")
    }
}

@Suite("Files that are not CSV text")
struct UnreadableFileTests {
    private func reason(_ path: String) throws -> String {
        let error = try #require(throws: RecordingError.self) { try AccelerometerRecording(contentsOfFile: path) }
        guard case let .unreadable(errorPath, reason) = error else {
            Issue.record("expected unreadable, got \(error)")
            return ""
        }
        #expect(errorPath == path)
        return reason
    }

    @Test func missingFileDirectoryUTF16BinaryAndInvalidUTF8AreTold() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try reason(directory.appendingPathComponent("none.csv").path) == "no such file")
        #expect(try reason(directory.path) == "it is a directory, not a CSV file")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "t,x,y,z\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try reason(file(utf16, in: directory, name: "utf16.csv")).contains("UTF-16"))
        #expect(try reason(file([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00], in: directory, name: "bin"))
            .contains("NUL byte at offset 6"))
        #expect(try reason(file(Array("t,x,y,z\n0,1,2,3\n".utf8) + [0xFF], in: directory, name: "latin.csv"))
            .contains("invalid byte 0xFF at offset 16"))
    }

    @Test func crOnlyLineEndingsAndUTF8ByteOrderMarkAreAccepted() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file([0xEF, 0xBB, 0xBF] + Array("t,x,y,z\r0,1,2,3\r\r0.5,4,5,6\r".utf8), in: directory)
        let recording = try AccelerometerRecording(contentsOfFile: path)
        #expect(recording.samples == [AccelerometerSample(t: 0, x: 1, y: 2, z: 3),
                                      AccelerometerSample(t: 0.5, x: 4, y: 5, z: 6)])
        #expect(throws: RecordingError.wrongFieldCount(expected: 4, found: 3, line: 4)) {
            try AccelerometerRecording(csv: "t,x,y,z\r0,1,2,3\r\r0.5,4,5\r")
        }
    }
}

@Suite("Byte-level number parsing")
struct NumberParsingTests {
    /// SplitMix64, for reproducible random numbers.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func parsedNumbersAreExactlyThoseOfDoubleFromString() throws {
        var generator = Generator(state: 42)
        var texts: [String] = []
        for index in 0..<3_000 {
            let value = Double.random(in: -20...20, using: &generator)
                * pow(10, Double(Int.random(in: -30...10, using: &generator)))
            switch index % 4 {
            case 0: texts.append("\(value)")
            case 1: texts.append(String(format: "%.6f", value))
            case 2: texts.append(String(format: "%.17g", value))
            default: texts.append(String(format: "%.3e", value))
            }
        }
        texts += ["0x1p-2", " 1.5 ", "+2", ".5", "5.", "1E+3", "-0", "0.0000000000000000000000001",
                  "0.12345678901234567890123", "9007199254740993e-5", "1e-22", "1e-23", "1e11", "4.9e-324", "\u{A0}7"]
        var csv = "t,x,y,z\n"
        for (index, text) in texts.enumerated() { csv += "\(index),\(text),0,0\n" }
        let recording = try AccelerometerRecording(csv: csv)
        for (sample, text) in zip(recording.samples, texts) {
            let expected = try #require(Double(text.trimmingCharacters(in: .whitespaces)))
            #expect(sample.x.bitPattern == expected.bitPattern, "'\(text)'")
        }
    }
}
