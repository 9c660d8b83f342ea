import AccelerometerFilter
import Foundation
import Testing

/// One filter configuration of the issue.
struct FilterCase: Sendable, CustomTestStringConvertible {
    var kind: FilterKind
    var adaptive: Bool
    var factor = 0.1
    var cutoff = 5.0

    var testDescription: String { "\(kind.rawValue)\(adaptive ? " adaptive" : "") k=\(factor) fc=\(cutoff)" }

    static let all: [FilterCase] = [
        FilterCase(kind: .lowpass, adaptive: false),
        FilterCase(kind: .lowpass, adaptive: true),
        FilterCase(kind: .lowpass, adaptive: false, factor: 0.35),
        FilterCase(kind: .lowpassRC, adaptive: false),
        FilterCase(kind: .lowpassRC, adaptive: true),
        FilterCase(kind: .lowpassRC, adaptive: false, cutoff: 1.5),
        FilterCase(kind: .highpassRC, adaptive: false),
        FilterCase(kind: .highpassRC, adaptive: true),
        FilterCase(kind: .highpassRC, adaptive: true, cutoff: 12),
    ]
}

@Suite("Filters through observation equal an independent computation")
struct FilterEquivalenceTests {
    @Test(arguments: TestData.fileNames, FilterCase.all)
    func observedOutputEqualsReference(file: String, filter: FilterCase) throws {
        let rows = try TestData.rows(file)
        let expected = referenceFilter(rows, filter: filter.kind.rawValue, factor: filter.factor,
                                       cutoff: filter.cutoff, adaptive: filter.adaptive)
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(file))
        let settings = FilterSettings(kind: filter.kind, factor: filter.factor, cutoff: filter.cutoff,
                                      adaptive: filter.adaptive, rate: recording.rate)
        let run = try FilterPipeline.run(recording, settings: settings)

        try #require(run.filtered.count == rows.count)
        try #require(run.raw.count == rows.count)
        var mismatches = 0
        for index in rows.indices {
            let raw = run.raw[index]
            let out = run.filtered[index]
            if [raw.t, raw.x, raw.y, raw.z] != rows[index] { mismatches += 1 }
            if [out.x, out.y, out.z] != expected[index] || out.t != rows[index][0] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // The pure arithmetic (no observation) agrees too.
        #expect(settings.apply(to: recording.samples) == run.filtered)
    }

    @Test(arguments: TestData.fileNames)
    func rateComesFromTimestamps(file: String) throws {
        let rows = try TestData.rows(file)
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(file))
        #expect(recording.samples.count == rows.count)
        #expect(recording.rate == Double(rows.count - 1) / (rows[rows.count - 1][0] - rows[0][0]))
        let nominal = file.contains("50hz") ? 50.0 : 120.0
        #expect(abs(recording.rate - nominal) < 0.01)
    }

    @Test func filtersDifferFromEachOther() throws {
        let recording = try AccelerometerRecording(contentsOfFile: TestData.path(TestData.fileNames[0]))
        let outputs = try FilterCase.all.map { filter in
            let settings = FilterSettings(kind: filter.kind, factor: filter.factor, cutoff: filter.cutoff,
                                          adaptive: filter.adaptive, rate: recording.rate)
            return try FilterPipeline.run(recording, settings: settings).filtered
        }
        #expect(Set(outputs.map { $0.map(\.x) }).count == outputs.count)
    }

    @Test func coefficientsFollowTheFormulas() {
        let lowpass = FilterSettings(kind: .lowpassRC, cutoff: 5, rate: 50)
        #expect(lowpass.coefficient == (1.0 / 50) / (1.0 / 50 + 1.0 / 5))
        let highpass = FilterSettings(kind: .highpassRC, cutoff: 5, rate: 50)
        #expect(highpass.coefficient == (1.0 / 5) / (1.0 / 50 + 1.0 / 5))
        #expect(FilterSettings(kind: .lowpass, factor: 0.25, rate: 50).coefficient == 0.25)
    }

    @Test func adaptiveAlphaUsesPreviousOutputAndCurrentInput() {
        let settings = FilterSettings(kind: .lowpass, factor: 0.3, adaptive: true, rate: 50)
        let zero = AccelerometerSample(t: 0, x: 0, y: 0, z: 0)
        // |‖out‖ − ‖a‖| = 0.01 < 0.02: d = 0, alpha = c/3.
        let small = AccelerometerSample(t: 0, x: 0, y: 0.01, z: 0)
        #expect(settings.alpha(previousOutput: zero, input: small) == 0.3 / 3)
        // |‖out‖ − ‖a‖| = 5 ≥ 0.04: d = 1, alpha = c.
        let large = AccelerometerSample(t: 0, x: 3, y: 4, z: 0)
        #expect(settings.alpha(previousOutput: zero, input: large) == 0.3)
        // High-pass: the other way round.
        let highpass = FilterSettings(kind: .highpassRC, adaptive: true, rate: 50)
        #expect(highpass.alpha(previousOutput: zero, input: large) == highpass.coefficient / 3)
        #expect(highpass.alpha(previousOutput: large, input: large) == highpass.coefficient)
    }
}
