// swift-foundation's `#Predicate` (evaluated per person) and `KeyPathComparator` (the sort).

import Foundation
import PeerSupport

/// The predicate of WORKLOADS.md as a `#Predicate`. `BEGINSWITH[c] 'a'` becomes a prefix test for
/// "a" or "A" (`lowercased()` is not allowed in a `#Predicate`), the same test for this ASCII
/// prefix.
func foundationPredicate() -> Predicate<KeyPathPerson> {
    #Predicate<KeyPathPerson> { person in
        (person.age > 30 && (person.name.starts(with: "a") || person.name.starts(with: "A")))
            || (person.department.flatMap { $0.name == "x" || $0.name == "y" } ?? false)
    }
}

/// lastName ascending (the default comparator for strings), then age descending.
func foundationComparators() -> [KeyPathComparator<KeyPathPerson>] {
    [KeyPathComparator(\KeyPathPerson.lastName), KeyPathComparator(\KeyPathPerson.age, order: .reverse)]
}

func foundationFilter(_ persons: [KeyPathPerson], _ predicate: Predicate<KeyPathPerson>) -> [KeyPathPerson] {
    persons.filter { try! predicate.evaluate($0) }
}

func runFoundationWorkloads(_ data: PeerDataSet<KeyPathPerson, KeyPathDepartment, SwiftTransaction>,
                            harness: PeerHarness) {
    let persons = data.persons
    let predicate = peerOpaque(foundationPredicate())
    harness.measure("predicate_eval", operations: persons.count) { n in
        for _ in 0..<n { peerBlackHole(foundationFilter(persons, predicate)) }
    }
    harness.note("predicate_eval", "#Predicate, compiled by the macro (no predicate_parse); BEGINSWITH[c] 'a' as starts(with: \"a\") || starts(with: \"A\")")
    let comparators = peerOpaque(foundationComparators())
    harness.measure("sort_100k") { n in for _ in 0..<n { peerBlackHole(persons.sorted(using: comparators)) } }
    harness.note("sort_100k", "KeyPathComparator")
}
