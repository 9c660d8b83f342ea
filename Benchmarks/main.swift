// `swift run -c release benchmarks [--filter NAME] [--json FILE]`
//
// Each workload prints `name  ns/op  baseline  baseline-ns/op  ratio`; see Docs/Performance.md.

import Foundation

var filter: String?
var jsonPath: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--filter": filter = arguments.next()
    case "--json": jsonPath = arguments.next()
    case "--quick":
        // For smoke tests: shorter runs, less precise.
        break
    case "-h", "--help":
        print("usage: benchmarks [--filter NAME] [--json FILE] [--quick]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("benchmarks: unknown argument '\(argument)'\n".utf8))
        exit(2)
    }
}

let suite = BenchmarkSuite()
if CommandLine.arguments.contains("--quick") {
    suite.minimumRunTime = .milliseconds(20)
    suite.repetitions = 2
}
registerKeyValueCodingBenchmarks(in: suite)
registerKeyValueObservingBenchmarks(in: suite)
registerUndoBenchmarks(in: suite)
registerPredicateBenchmarks(in: suite)
registerModelVariantBenchmarks(in: suite)

print("name                          ns/op         baseline                      baseline-ns/op  ratio")
let results = suite.run(filter: filter)
if results.isEmpty {
    FileHandle.standardError.write(Data("benchmarks: no workload matches '\(filter ?? "")'\n".utf8))
    exit(1)
}
if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
    } catch {
        FileHandle.standardError.write(Data("benchmarks: cannot write \(jsonPath): \(error)\n".utf8))
        exit(1)
    }
}
