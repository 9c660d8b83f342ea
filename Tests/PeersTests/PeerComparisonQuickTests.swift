// The peer comparison (Benchmarks/Peers, issue 20) in quick mode, so that it cannot rot: every
// program runs once on the debug build and must print the data set's fingerprint; the report
// and the chart are written. GNUstep takes part when its toolchain is on the machine (built by
// the same build.sh as run.sh uses); without it, it is reported missing, never a failure.

import Foundation
import PeerReport
import PeerSupport
import Testing

@Suite("Peer comparison, quick mode")
struct PeerComparisonQuickTests {
    /// The repository root (this file is Tests/PeersTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding the debug `peer-objectgraph` and `peer-swift` (beside the test
    /// bundle; the test target depends on them, so `swift test` builds them).
    static func binaryDirectory() -> String? {
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map(\.path).first { directory in
            ["peer-objectgraph", "peer-swift"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: directory + "/" + $0)
            }
        }
    }

    /// Runs build.sh; returns its exit status.
    static func buildGNUstep(into path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = root.appendingPathComponent("Benchmarks/Peers/GNUstep/build.sh")
        process.arguments = [path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("every program prints the checked fingerprint; the report and chart are written")
    func quickRun() throws {
        let binaries = try #require(Self.binaryDirectory(), "peer-objectgraph and peer-swift are not built")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("peers-quick-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

        let gnustepPath = directory + "/peer-gnustep"
        let status = try Self.buildGNUstep(into: gnustepPath)
        // 3: gcc's Objective-C or GNUstep is not installed, which only leaves that peer out.
        #expect(status == 0 || status == 3, "build.sh failed to compile peer-gnustep.m")
        var session = PeerSession(binaryDirectory: binaries, gnustepExecutable: status == 0 ? gnustepPath : nil)
        session.rounds = 1
        session.quick = true
        let output = try session.run(writingTo: directory) { _ in }

        #expect(output.results.failures.map(\.reason) == [])
        for command in session.commands {
            #expect(output.results.fingerprints[command.program.id] == PeerFingerprint.expected.line,
                    "\(command.program.id)")
        }
        for workload in PeerWorkload.all {
            #expect(output.results.figures[PeerProgram.objectGraphObserved.id]?[workload.name] != nil,
                    "ObjectGraph printed no \(workload.name)")
        }
        #expect(output.markdown.contains("| `sort_100k` |"))
        #expect(output.svg.hasPrefix("<svg") && output.svg.hasSuffix("</svg>\n"))
        #expect(FileManager.default.fileExists(atPath: directory + "/report.md"))
        #expect(FileManager.default.fileExists(atPath: directory + "/peers.svg"))
    }
}
