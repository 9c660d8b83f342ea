import AccelerometerFilter
import Foundation
import Testing

@Suite("Command-line options")
struct CommandOptionsTests {
    @Test func defaults() throws {
        let action = try FilterCommandOptions.parse([])
        #expect(action == .run(FilterCommandOptions()))
        let options = FilterCommandOptions()
        #expect(options.input == nil)
        #expect(options.kind == .lowpass)
        #expect(options.factor == 0.1)
        #expect(options.cutoff == 5)
        #expect(!options.adaptive && !options.realtime)
        #expect(options.svgPath == "accelerometer.svg")
        #expect(options.csvPath == nil)
    }

    @Test func everyOption() throws {
        var expected = FilterCommandOptions()
        expected.input = "walk.csv"
        expected.kind = .highpassRC
        expected.cutoff = 2.5
        expected.adaptive = true
        expected.realtime = true
        expected.svgPath = "out.svg"
        expected.csvPath = "out.csv"
        let arguments = ["--filter", "highpass-rc", "walk.csv", "--cutoff=2.5", "--adaptive", "--realtime",
                         "--svg", "out.svg", "--csv=out.csv"]
        #expect(try FilterCommandOptions.parse(arguments) == .run(expected))
        let lowpass = try FilterCommandOptions.parse(["--factor", "0.5"])
        guard case let .run(options) = lowpass else { Issue.record("expected run"); return }
        #expect(options.settings(rate: 50) == FilterSettings(kind: .lowpass, factor: 0.5, rate: 50))
    }

    @Test func help() throws {
        #expect(try FilterCommandOptions.parse(["--help"]) == .help)
        #expect(try FilterCommandOptions.parse(["--filter", "lowpass", "-h"]) == .help)
        for option in ["--filter", "--factor", "--cutoff", "--adaptive", "--realtime", "--svg", "--csv", "--help"] {
            #expect(FilterCommandOptions.usage.contains(option))
        }
    }

    @Test(arguments: [
        (["--bogus"], UsageError.unknownOption("--bogus")),
        (["-x"], UsageError.unknownOption("-x")),
        (["--filter"], UsageError.missingValue("--filter")),
        (["--filter", "bandpass"], UsageError.badValue("--filter", "bandpass")),
        (["--factor", "0"], UsageError.badValue("--factor", "0")),
        (["--factor=1.5"], UsageError.badValue("--factor", "1.5")),
        (["--factor", "abc"], UsageError.badValue("--factor", "abc")),
        (["--filter", "lowpass-rc", "--cutoff", "-3"], UsageError.badValue("--cutoff", "-3")),
        (["--filter", "lowpass-rc", "--cutoff", "inf"], UsageError.badValue("--cutoff", "inf")),
        (["--svg="], UsageError.badValue("--svg", "")),
        (["--adaptive=yes"], UsageError.unexpectedValue("--adaptive", "yes")),
        (["--cutoff", "3"], UsageError.notApplicable("--cutoff", filter: .lowpass)),
        (["--filter", "highpass-rc", "--factor", "0.2"], UsageError.notApplicable("--factor", filter: .highpassRC)),
        (["a.csv", "b.csv"], UsageError.extraArgument("b.csv", input: "a.csv")),
    ])
    func badArguments(arguments: [String], error: UsageError) {
        #expect(throws: error) { try FilterCommandOptions.parse(arguments) }
        #expect(!error.description.isEmpty)
    }

    @Test func usageErrorMessagesSayWhatIsExpected() {
        #expect(UsageError.badValue("--filter", "x").description
            == "bad value 'x' for --filter; expected lowpass, lowpass-rc, highpass-rc")
        #expect(UsageError.unknownOption("--bogus").description == "unknown option '--bogus' (see --help)")
    }
}

@Suite("Running the command")
struct CommandRunTests {
    @Test func writesSVGAndCSVAndReportsThem() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = FilterCommandOptions()
        options.input = TestData.path(TestData.fileNames[1])
        options.kind = .lowpassRC
        options.svgPath = directory.appendingPathComponent("plot.svg").path
        options.csvPath = directory.appendingPathComponent("out.csv").path
        let report = try FilterCommand.run(options)
        #expect(report.contains("samples     3511"))
        #expect(report.contains("filter      lowpass-rc (cutoff 5.0 Hz)"))
        #expect(report.hasSuffix("wrote \(options.svgPath)\nwrote \(options.csvPath!)\n"))
        let svg = try String(contentsOfFile: options.svgPath, encoding: .utf8)
        #expect(svg.hasSuffix("</svg>\n"))
        let csv = try String(contentsOfFile: options.csvPath!, encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 3512)
    }

    @Test func badInputFileNamesPathAndLine() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("bad.csv").path
        try "t,x,y,z\n0,1,2,3\n0.1,1,2\n".write(toFile: input, atomically: true, encoding: .utf8)
        var options = FilterCommandOptions()
        options.input = input
        options.svgPath = directory.appendingPathComponent("plot.svg").path
        let error = try #require(throws: InputFileError.self) { try FilterCommand.run(options) }
        #expect(error.error == .wrongFieldCount(expected: 4, found: 3, line: 3))
        #expect(error.description == "\(input): line 3: expected 4 fields, found 3")
        #expect(!FileManager.default.fileExists(atPath: options.svgPath))
    }

    @Test func unwritableOutputIsAnError() throws {
        var options = FilterCommandOptions()
        options.input = TestData.path(TestData.fileNames[1])
        options.svgPath = "/no/such/directory/plot.svg"
        #expect(throws: OutputError.cannotWrite("/no/such/directory/plot.svg")) { try FilterCommand.run(options) }
    }
}
