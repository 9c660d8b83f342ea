// peer-objectgraph: the peer workloads (Benchmarks/Peers/README.md) on ObjectGraph.
//
//     peer-objectgraph observed|plain [--quick] [--min-time SECONDS] [--filter TEXT]
//
// `observed`: models whose properties are all `@Observed`; every workload.
// `plain`: models with plain stored properties; key-value coding, predicate and sort workloads.

import PeerSupport

let harness = PeerHarness(arguments: Array(CommandLine.arguments.dropFirst()))
switch harness.remaining {
case ["observed"]:
    let data = observedDataSet()
    harness.report(peer: "objectgraph-observed", fingerprint: try fingerprint(of: data))
    runCodingWorkloads(data, scratch: scratchPerson(0), harness: harness)
    runParseWorkload(harness: harness)
    runObservingWorkloads(Array(data.persons[0...1]), harness: harness)
    runUndoWorkload(harness: harness)
case ["plain"]:
    let data = plainDataSet()
    harness.report(peer: "objectgraph-plain", fingerprint: try fingerprint(of: data))
    let scratch = PlainPerson(PeerPersonFields.scratch(0))
    runCodingWorkloads(data, scratch: scratch, harness: harness)
default:
    PeerHarness.fail("usage: peer-objectgraph observed|plain [--quick] [--min-time SECONDS] [--filter TEXT]")
}
