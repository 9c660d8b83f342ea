// What one run of one program printed, parsed from its output lines (see
// Support/PeerHarness.swift for the protocol).

import PeerSupport

/// The parsed output of one run of one program.
public struct PeerRunOutput: Sendable, Equatable {
    /// The `peer` line's id.
    public var peer: String?
    /// The `fingerprint` line, whole.
    public var fingerprint: String?
    /// The program's own verdict (`fingerprint-check ok`).
    public var fingerprintCheckedByProgram = false
    /// Nanoseconds per operation by workload.
    public var results: [String: Double] = [:]
    /// Notes by workload (the program's own words: how it does the workload, known quirks).
    public var notes: [String: String] = [:]
    /// `toolchain` lines (the Objective-C program prints its compiler and GNUstep versions).
    public var toolchains: [String] = []

    /// Parses `text`; lines it does not know are ignored.
    public init(parsing text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
            guard let keyword = words.first else { continue }
            switch keyword {
            case "peer" where words.count >= 2: peer = words[1]
            case "fingerprint": fingerprint = String(line)
            case "fingerprint-check": fingerprintCheckedByProgram = words.count >= 2 && words[1] == "ok"
            case "result" where words.count == 3:
                if let value = Double(words[2]) { results[words[1]] = value }
            case "note" where words.count == 3: notes[words[1]] = words[2]
            case "toolchain": toolchains.append(String(line.dropFirst("toolchain ".count)))
            default: continue
            }
        }
    }

    /// Whether the fingerprint is the data set's (checked again here, not only by the program).
    public var fingerprintMatches: Bool {
        fingerprintCheckedByProgram && fingerprint == PeerFingerprint.expected.line
    }
}
