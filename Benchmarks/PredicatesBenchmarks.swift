import Foundation
import ObjectGraph

// The predicate and sort descriptor workloads (issue 5), on 100,000 people.

final class PredicateDepartment: KeyValueCodable {
    var name: String
    var manager: PredicatePerson?
    init(name: String) { self.name = name }
}

final class PredicatePerson: KeyValueCodable {
    var name: String
    var firstName: String
    var lastName: String
    var age: Int
    var salary: Double
    var identifier: Int
    var active: Bool
    var department: PredicateDepartment?

    init(index: Int, departments: [PredicateDepartment]) {
        let firstNames = ["Ada", "grace", "Alan", "Barbara", "edsger", "Anita", "Donald", "Frances", "John", "Radia"]
        let lastNames = ["Lovelace", "Hopper", "Turing", "Liskov", "Dijkstra", "Borg", "Knuth", "Allen", "Backus",
                         "Perlman", "Hamilton", "Kay", "Ritchie", "Thompson", "Wirth", "Goldberg"]
        // A simple generator so that the order is mixed but reproducible.
        let mixed = (index &* 2_654_435_761) & 0xFFFF_FFFF
        firstName = firstNames[mixed % firstNames.count]
        lastName = lastNames[(mixed / 7) % lastNames.count]
        name = firstName + " " + lastName
        age = 18 + (mixed / 13) % 50
        salary = Double(20_000 + (mixed / 3) % 80_000)
        identifier = index
        active = mixed % 3 != 0
        department = departments[(mixed / 11) % departments.count]
    }
}

@inline(never) func predicateBaseline(_ person: PredicatePerson) -> Bool {
    if person.age > 30 && person.name.lowercased().hasPrefix("a") { return true }
    guard let name = person.department?.name else { return false }
    return name == "x" || name == "y"
}

@inline(never) func sortBaseline(_ people: [PredicatePerson]) -> [PredicatePerson] {
    people.sorted { a, b in
        if a.lastName != b.lastName { return a.lastName < b.lastName }
        return a.age > b.age
    }
}

func registerPredicateBenchmarks(in suite: BenchmarkSuite) {
    let departments = ["x", "y", "z", "w", "v"].map(PredicateDepartment.init(name:))
    let people = (0..<100_000).map { PredicatePerson(index: $0, departments: departments) }
    let format = identity("age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}")
    let predicate = try! KeyValuePredicate(format: format)
    let descriptors = [KeyValueSortDescriptor(key: identity("lastName")),
                       KeyValueSortDescriptor(key: identity("age"), ascending: false)]

    // The predicate must agree with its hand-written equivalent before it is timed.
    let matches = try! people.filtered(using: predicate).count
    precondition(matches == people.filter(predicateBaseline).count, "pred_eval_100k: results differ")
    let sortedIDs = try! people.sorted(using: descriptors).map(\.identifier)
    precondition(sortedIDs == sortBaseline(people).map(\.identifier), "sort_100k: results differ")

    suite.add("pred_parse", baseline: "string_split", target: .none,
              note: "GNUstep about 141,000 ns",
              body: { n in for _ in 0..<n { blackHole(try! KeyValuePredicate(format: format)) } },
              baseline: { n in for _ in 0..<n { blackHole(format.split(separator: " ")) } })
    suite.add("pred_eval_100k", baseline: "swift_closure_100k", operationsPerIteration: people.count,
              target: .ratio(5),
              body: { n in for _ in 0..<n { blackHole(try! people.filtered(using: predicate)) } },
              baseline: { n in for _ in 0..<n { blackHole(people.filter(predicateBaseline)) } })
    suite.add("sort_100k", baseline: "sorted_by_closure_100k", target: .ratio(3), note: "ns per sort",
              body: { n in for _ in 0..<n { blackHole(try! people.sorted(using: descriptors)) } },
              baseline: { n in for _ in 0..<n { blackHole(sortBaseline(people)) } })
}
