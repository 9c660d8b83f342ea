// peer-swift: the peer workloads (Benchmarks/Peers/README.md) without ObjectGraph.
//
//     peer-swift plain|observation|foundation [--quick] [--min-time SECONDS] [--filter TEXT]
//
// `plain`: plain Swift (properties, closures, arrays). `observation`: Swift's Observation
// module. `foundation`: swift-foundation's `#Predicate` and `KeyPathComparator`.

import PeerSupport

let harness = PeerHarness(arguments: Array(CommandLine.arguments.dropFirst()))
switch harness.remaining {
case ["plain"]:
    let data = swiftDataSet()
    let sorted = sortedPersons(data.persons)
    let first = data.persons[0], low = sorted[0], high = sorted[sorted.count - 1]
    harness.report(peer: "swift", fingerprint: plainFingerprint(
        first: (first.name, first.age, first.department?.manager?.name ?? "?"), transactions: data.transactions,
        ends: [(low.lastName, low.age), (high.lastName, high.age)],
        matches: data.persons.filter(matchesPredicate).count))
    runPlainWorkloads(data, harness: harness)
case ["foundation"]:
    let data = keyPathDataSet()
    let sorted = data.persons.sorted(using: foundationComparators())
    let first = data.persons[0], low = sorted[0], high = sorted[sorted.count - 1]
    harness.report(peer: "foundation", fingerprint: plainFingerprint(
        first: (first.name, first.age, first.department?.manager?.name ?? "?"), transactions: data.transactions,
        ends: [(low.lastName, low.age), (high.lastName, high.age)],
        matches: foundationFilter(data.persons, foundationPredicate()).count))
    runFoundationWorkloads(data, harness: harness)
case ["observation"]:
    let data = trackedDataSet()
    let first = data.persons[0]
    let sorted = data.persons.sorted { a, b in a.lastName != b.lastName ? a.lastName < b.lastName : a.age > b.age }
    let matches = data.persons.filter { person in
        (person.age > 30 && (person.name.hasPrefix("a") || person.name.hasPrefix("A")))
            || person.department?.name == "x" || person.department?.name == "y"
    }.count
    harness.report(peer: "observation", fingerprint: PeerFingerprint(
        firstName: first.name, firstAge: first.age, managerName: first.department?.manager?.name ?? "?",
        sum: data.transactions.reduce(0) { $0 + $1.amount },
        maximum: data.transactions.map { $0.amount }.max() ?? -1,
        distinctPayees: Set(data.transactions.map { $0.payee }).count,
        sortedFirst: (sorted[0].lastName, sorted[0].age),
        sortedLast: (sorted[sorted.count - 1].lastName, sorted[sorted.count - 1].age),
        matches: matches))
    runObservationWorkloads(harness: harness)
default:
    PeerHarness.fail("usage: peer-swift plain|observation|foundation [--quick] [--min-time SECONDS] [--filter TEXT]")
}
