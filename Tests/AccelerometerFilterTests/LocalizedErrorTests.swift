@testable import AccelerometerFilter
import Foundation
import Testing

/// Every error of the sample reads the same through `localizedDescription` as through
/// `print(error)`, and names what is at fault (not "The operation could not be completed").
@Suite("Localized error descriptions")
struct LocalizedErrorTests {
    @Test(arguments: [
        (RecordingError.notANumber("abc", column: "x", line: 3) as any Error, "'abc'"),
        (InputFileError(path: "walk.csv", error: .missingColumn("z", line: 1)), "walk.csv"),
        (UsageError.unknownOption("--bogus"), "'--bogus'"),
        (FilterSettingsError.unusableCoefficient(2, settings: FilterSettings(kind: .lowpass, factor: 2, rate: 50)), "--factor 2.0"),
        (PipelineError.recorderMismatch(raw: 3, filtered: 2, expected: 4), "expected 4"),
        (PlaybackError.tooLongForRealtime(duration: 100_000, limit: 86_400), "--realtime"),
        (OutputError.cannotWrite("/no/such/dir/out.svg"), "'/no/such/dir/out.svg'"),
    ])
    func localizedDescriptionNamesTheCulprit(error: any Error, culprit: String) {
        #expect(error.localizedDescription == String(describing: error))
        #expect(error.localizedDescription.contains(culprit))
        #expect(!error.localizedDescription.contains("could not be completed"))
    }

    @Test func aBadInputFileIsReportedWithItsPathAndLine() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("no-z.csv").path
        try "t,x,y\n0,1,2\n1,1,2\n".write(toFile: input, atomically: true, encoding: .utf8)
        var options = FilterCommandOptions()
        options.input = input
        options.svgPath = directory.appendingPathComponent("plot.svg").path
        let error = try #require(throws: InputFileError.self) { try FilterCommand.run(options) }
        let message = (error as any Error).localizedDescription
        #expect(message.contains(input))
        #expect(message.contains("line 1"))
        #expect(message.contains("'z'"))
    }
}
