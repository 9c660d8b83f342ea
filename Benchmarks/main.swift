// `swift run -c release benchmarks [--filter TEXT] [--quick] [--check] [--json FILE] [--list]`
//
// Each workload prints `name  ns/op  baseline  baseline-ns/op  ratio  target  met|missed`; see
// Harness.swift (how to add one) and Docs/Performance.md (results and how to reproduce them).

import Foundation

// A listening process of pg_fanout_latency (this executable, started by it) never returns.
PostgreSQLFanOutBenchmark.runListenerIfAsked()

let usage = """
    usage: benchmarks [--filter TEXT] [--quick] [--check] [--json FILE] [--list]

    Runs each workload beside its baseline and prints, per line: the median ns/op of the
    workload and of its baseline, their ratio, the target and whether it was met (the minimums
    and a note follow in parentheses). Build with -c release: debug figures mean nothing.

      --filter TEXT  run only the workloads whose names contain TEXT (kvc_, kvo_, undo_, pred_, mo_, frc_)
      --quick        smoke run: 3 repetitions of at least 20 ms instead of 5 of at least 0.3 s;
                     the figures are rough, the targets still checked
      --check        exit with status 1 if any target was missed (after printing every line)
      --json FILE    also write the results (with target and met) to FILE as JSON
      --list         print the workloads, baselines and targets without measuring
      -h, --help     print this help

    Exit status: 0; 1 when --check finds a missed target or FILE cannot be written; 2 for a bad
    argument or a filter that matches no workload.
    """

/// Prints `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("benchmarks: \(message)\n".utf8))
    exit(status)
}

var filter: String?
var jsonPath: String?
var quick = false
var check = false
var listOnly = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--filter":
        guard let value = arguments.next() else { fail("--filter needs a text", status: 2) }
        filter = value
    case "--json":
        guard let value = arguments.next() else { fail("--json needs a file path", status: 2) }
        jsonPath = value
    case "--quick": quick = true
    case "--check": check = true
    case "--list": listOnly = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(argument)' (see --help)", status: 2)
    }
}

let suite = BenchmarkSuite()
if quick {
    suite.minimumRunTime = .milliseconds(20)
    suite.repetitions = 3
}
registerKeyValueCodingBenchmarks(in: suite)
registerKeyValueObservingBenchmarks(in: suite)
registerUndoBenchmarks(in: suite)
registerPredicateBenchmarks(in: suite)
registerModelVariantBenchmarks(in: suite)
registerChangeSeamBenchmarks(in: suite)
registerModelLoadingBenchmarks(in: suite)
registerManagedObjectsBenchmarks(in: suite)
registerContextBenchmarks(in: suite)
registerFetchedResultsBenchmarks(in: suite)
registerSQLiteStoreBenchmarks(in: suite)
registerSQLiteStoreWriteBenchmarks(in: suite)
registerPostgreSQLOperationBenchmarks(in: suite)
registerPostgreSQLFetchBenchmarks(in: suite)

let selected = suite.workloads(matching: filter)
// pg_fanout_latency measures latencies (median, p99), not ns/op beside a baseline: its own lines.
let runsFanOut = PostgreSQLFanOutBenchmark.isSelected(by: filter)
if selected.isEmpty && !runsFanOut { fail("no workload name contains '\(filter ?? "")' (see --list)", status: 2) }
if listOnly {
    for workload in selected { print(BenchmarkSuite.listing(workload)) }
    if runsFanOut { print(PostgreSQLFanOutBenchmark.listing) }
    exit(0)
}

/// The load average (Linux), printed so that a reader can tell a busy machine from an idle one.
func loadAverage() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

if let load = loadAverage() { print("# load average at start: \(load)") }
print(BenchmarkSuite.header)
let results = suite.run(filter: filter)
StoreBench.removeFolder()
if runsFanOut { PostgreSQLFanOutBenchmark.run(quick: quick) }
print(BenchmarkSuite.summary(results, repetitions: suite.repetitions))
if let load = loadAverage() { print("# load average at end: \(load)") }

if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // A baseline that measures 0 ns gives an infinite ratio; JSON has no infinity.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
        try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
    } catch {
        fail("cannot write \(jsonPath): \(error)", status: 1)
    }
}
if check && results.contains(where: { $0.met == false }) { exit(1) }
