// peers: runs the peer comparison on already-built programs and writes the report. Normally
// started by Benchmarks/Peers/run.sh, which installs GNUstep and builds everything first.
//
//     peers --bin DIR [--gnustep PATH] [--missing REASON] [--rounds N] [--quick]
//           [--min-time SECONDS] [--filter TEXT] [--out DIR] [--update-docs DOCS_DIR] [--label TEXT]

import Foundation
import PeerReport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("peers: \(message)\n".utf8))
    exit(2)
}

var binaryDirectory: String?
var gnustep: String?
var missingGNUstep: String?
var rounds = 3
var quick = false
var extra: [String] = []
var out = ".build/peers"
var docs: String?
var label: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
@MainActor func value(_ option: String) -> String {
    guard let value = arguments.next() else { fail("\(option) needs a value") }
    return value
}
while let argument = arguments.next() {
    switch argument {
    case "--bin": binaryDirectory = value(argument)
    case "--gnustep": gnustep = value(argument)
    case "--missing": missingGNUstep = value(argument)
    case "--rounds":
        guard let count = Int(value(argument)), count > 0 else { fail("--rounds needs a positive number") }
        rounds = count
    case "--quick": quick = true
    case "--min-time", "--filter": extra += [argument, value(argument)]
    case "--out": out = value(argument)
    case "--update-docs": docs = value(argument)
    case "--label": label = value(argument)
    default: fail("unknown argument '\(argument)'")
    }
}
guard let binaryDirectory else { fail("--bin DIR is required (the directory of peer-objectgraph and peer-swift)") }

var session = PeerSession(binaryDirectory: binaryDirectory, gnustepExecutable: gnustep)
session.rounds = rounds
session.quick = quick
session.extraArguments = extra
session.label = label
if let missingGNUstep { session.missing = [PeerFailure(program: .gnustep, reason: missingGNUstep)] }

do {
    let output = try session.run(writingTo: out) { line in
        print(line)
        fflush(nil)
    }
    print("")
    print(output.markdown)
    print("wrote \(out)/report.md and \(out)/peers.svg")
    if let docs {
        let path = docs + "/Performance.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        try PeerSession.splice(output.markdown, into: document).write(toFile: path, atomically: true, encoding: .utf8)
        try output.svg.write(toFile: docs + "/peers.svg", atomically: true, encoding: .utf8)
        print("updated \(path) and \(docs)/peers.svg")
    }
    let failed = output.results.failures.filter { $0.program.id != "gnustep" || gnustep != nil }
    if !failed.isEmpty { exit(1) }
} catch {
    fail("\(error)")
}
