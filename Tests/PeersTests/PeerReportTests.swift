// The report's arithmetic and checks on made-up program output: parsing, the fingerprint
// check, medians and ranges, ratios, the docs splice.

import PeerReport
import PeerSupport
import Testing

@Suite("Peer report")
struct PeerReportTests {
    static func output(peer: String, fingerprint: String = PeerFingerprint.expected.line, check: String = "ok",
                       results: [(String, Double)]) -> String {
        (["peer \(peer)", fingerprint, "fingerprint-check \(check)"]
            + results.map { "result \($0.0) \($0.1)" }).joined(separator: "\n")
    }

    @Test func parsesResultsNotesAndFingerprint() {
        let text = Self.output(peer: "swift", results: [("kvc_get", 12.5)]) + "\nnote kvc_get done directly\ntoolchain x 1"
        let parsed = PeerRunOutput(parsing: text)
        #expect(parsed.peer == "swift")
        #expect(parsed.results == ["kvc_get": 12.5])
        #expect(parsed.notes == ["kvc_get": "done directly"])
        #expect(parsed.toolchains == ["x 1"])
        #expect(parsed.fingerprintMatches)
    }

    @Test func rejectsAnotherFingerprintOrAFailedCheck() {
        let other = PeerFingerprint.expected.line.replacingOccurrences(of: "matches=31873", with: "matches=14922")
        #expect(!PeerRunOutput(parsing: Self.output(peer: "gnustep", fingerprint: other, results: [])).fingerprintMatches)
        #expect(!PeerRunOutput(parsing: Self.output(peer: "swift", check: "mismatch:", results: [])).fingerprintMatches)
    }

    @Test func mediansRangesAndRatios() throws {
        var results = PeerResults()
        results.rounds = 4
        results.programs = [.objectGraphObserved, .gnustep]
        results.figures = ["objectgraph-observed": ["kvc_get": [30, 10, 20, 40]], "gnustep": ["kvc_get": [100, 100, 100, 500]]]
        let summary = try #require(results.summary("objectgraph-observed", "kvc_get"))
        #expect(summary.median == 25 && summary.minimum == 10 && summary.maximum == 40)
        let markdown = PeerMarkdown.report(results, machine: PeerMachine.current(swift: "true"), label: "busy", chart: nil)
        #expect(markdown.contains("| `kvc_get` | value for key name | 25.0 ns (10.0–40.0 ns) | 100 ns (100–500 ns) |"))
        #expect(markdown.contains("| `kvc_get` | 0.25× |"))
        #expect(!markdown.contains("`sort_100k`"))
    }

    @Test func chartHasAGroupPerMeasuredWorkloadAndALegendEntryPerProgram() {
        var results = PeerResults()
        results.rounds = 1
        results.programs = [.objectGraphObserved, .swift]
        results.figures = ["objectgraph-observed": ["kvc_get": [20], "sort_100k": [4e7]], "swift": ["kvc_get": [0.5]]]
        let svg = PeerChart.svg(results, title: "t", subtitle: [])
        #expect(svg.contains(">kvc_get</text>") && svg.contains(">sort_100k</text>") && !svg.contains(">kvc_set</text>"))
        #expect(svg.contains(">\(PeerProgram.objectGraphObserved.label)</text>") && svg.contains(">plain Swift</text>"))
        // The log axis spans whole decades from below the smallest to above the largest figure.
        #expect(svg.contains(">0.1 ns</text>") && svg.contains(">100 ms</text>") && svg.contains(">10 ns</text>"))
    }

    @Test func splicesBetweenTheMarkersOnly() throws {
        let document = "# Doc\n\(PeerSession.beginMarker)\nold\n\(PeerSession.endMarker)\ntail\n"
        let spliced = try PeerSession.splice("new\n", into: document)
        #expect(spliced == "# Doc\n\(PeerSession.beginMarker)\nnew\n\(PeerSession.endMarker)\ntail\n")
        #expect(throws: PeerError.self) { try PeerSession.splice("x", into: "no markers") }
    }
}
