// One whole comparison: the commands for the built programs, the runs, and the files written
// (report.md and peers.svg), optionally spliced into Docs/Performance.md.

import Foundation

public struct PeerSession {
    /// The directory holding `peer-objectgraph` and `peer-swift`.
    public var binaryDirectory: String
    /// The GNUstep program, when it was built.
    public var gnustepExecutable: String?
    /// Programs known to be missing before the runs, with the reason (GNUstep not installable).
    public var missing: [PeerFailure] = []
    public var rounds = 3
    public var quick = false
    public var extraArguments: [String] = []
    /// Free text about the conditions, printed in the report and the chart ("machine busy").
    public var label: String?

    public init(binaryDirectory: String, gnustepExecutable: String?) {
        self.binaryDirectory = binaryDirectory
        self.gnustepExecutable = gnustepExecutable
    }

    /// The command for each program that exists.
    public var commands: [PeerCommand] {
        let objectGraph = binaryDirectory + "/peer-objectgraph", swift = binaryDirectory + "/peer-swift"
        var commands = [
            PeerCommand(program: .objectGraphObserved, executable: objectGraph, arguments: ["observed"]),
            PeerCommand(program: .objectGraphPlain, executable: objectGraph, arguments: ["plain"]),
        ]
        if let gnustepExecutable {
            commands.append(PeerCommand(program: .gnustep, executable: gnustepExecutable, arguments: []))
        }
        commands += [
            PeerCommand(program: .observation, executable: swift, arguments: ["observation"]),
            PeerCommand(program: .foundation, executable: swift, arguments: ["foundation"]),
            PeerCommand(program: .swift, executable: swift, arguments: ["plain"]),
        ]
        return commands
    }

    /// The written report.
    public struct Output {
        public var results: PeerResults
        public var markdown: String
        public var svg: String
    }

    /// Runs the comparison and writes `report.md` and `peers.svg` into `directory`.
    ///
    /// - Throws: When a file cannot be written.
    public func run(writingTo directory: String, log: @escaping (String) -> Void) throws -> Output {
        var machine = PeerMachine.current()
        let runner = PeerRunner(commands: commands, rounds: rounds, quick: quick, extraArguments: extraArguments, log: log)
        let results = runner.run(failures: missing)
        machine.loadAtEnd = PeerMachine.loadAverage()
        var subtitle = ["\(machine.cpu), \(machine.cores) cores, \(machine.system); \(machine.date)",
                        "\(machine.swiftVersion); load average \(machine.loadAtStart) at start, \(machine.loadAtEnd) at end"]
        subtitle.append((quick ? "QUICK MODE: tiny repetition counts, the figures mean nothing" : "\(rounds) rounds, programs alternating")
                        + (label.map { " — \($0)" } ?? ""))
        let svg = PeerChart.svg(results, title: "ObjectGraph and its peers: time per operation (log scale)",
                                subtitle: subtitle)
        let markdown = PeerMarkdown.report(results, machine: machine, label: label, chart: "peers.svg")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try markdown.write(toFile: directory + "/report.md", atomically: true, encoding: .utf8)
        try svg.write(toFile: directory + "/peers.svg", atomically: true, encoding: .utf8)
        return Output(results: results, markdown: markdown, svg: svg)
    }

    /// The markers around the report in Docs/Performance.md.
    public static let beginMarker = "<!-- peers-report:begin (written by Benchmarks/Peers/run.sh --update-docs) -->"
    public static let endMarker = "<!-- peers-report:end -->"

    /// Replaces the text between the markers of `document` with `report`.
    ///
    /// - Throws: ``PeerError`` when the markers are missing.
    public static func splice(_ report: String, into document: String) throws -> String {
        guard let begin = document.range(of: beginMarker), let end = document.range(of: endMarker),
              begin.upperBound <= end.lowerBound else {
            throw PeerError("the document has no '\(beginMarker)' … '\(endMarker)' section")
        }
        return String(document[..<begin.upperBound]) + "\n" + report + String(document[end.lowerBound...])
    }
}
