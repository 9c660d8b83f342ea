// The key-value coding, predicate and sort workloads, for either model set.

import ObjectGraph
import PeerSupport

/// The predicate of WORKLOADS.md (AND binds tighter than OR).
let predicateFormat = "age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}"

/// The sort: lastName ascending, then age descending.
let sortDescriptors = [KeyValueSortDescriptor(key: "lastName"),
                       KeyValueSortDescriptor(key: "age", ascending: false)]

/// The fingerprint, found through key-value coding, the predicate and the sort descriptors.
func fingerprint<P: KeyValueCodable, D, T>(of data: PeerDataSet<P, D, T>) throws -> PeerFingerprint {
    let first = data.persons[0]
    let payees = try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.payee", of: data.transactions) as? [Any]
    let sorted = try data.persons.sorted(using: sortDescriptors)
    func nameAndAge(_ person: P) throws -> (lastName: String, age: Int) {
        (try person.value(forKey: "lastName") as? String ?? "?", try person.value(forKey: "age") as? Int ?? -1)
    }
    let predicate = try KeyValuePredicate(format: predicateFormat)
    return PeerFingerprint(
        firstName: try first.value(forKey: "name") as? String ?? "?",
        firstAge: try first.value(forKey: "age") as? Int ?? -1,
        managerName: try first.value(forKeyPath: "department.manager.name") as? String ?? "?",
        sum: try KeyValue.value(forKeyPath: "@sum.amount", of: data.transactions) as? Double ?? -1,
        maximum: try KeyValue.value(forKeyPath: "@max.amount", of: data.transactions) as? Double ?? -1,
        distinctPayees: payees?.count ?? -1,
        sortedFirst: try nameAndAge(sorted[0]), sortedLast: try nameAndAge(sorted[sorted.count - 1]),
        matches: try data.persons.filtered(using: predicate).count)
}

/// kvc_* on persons[0], a scratch person (for the set) and the transactions; then
/// predicate_eval and sort_100k.
func runCodingWorkloads<P: KeyValueCodable, D, T>(_ data: PeerDataSet<P, D, T>, scratch: P,
                                                    harness: PeerHarness) {
    let person = data.persons[0]
    let transactions = data.transactions
    let nameKey = peerOpaque("name")
    let ageKey = peerOpaque("age")
    let chain = peerOpaque("department.manager.name")
    harness.measure("kvc_get") { n in for _ in 0..<n { peerBlackHole(try! person.value(forKey: nameKey)) } }
    harness.measure("kvc_get_int") { n in for _ in 0..<n { peerBlackHole(try! person.value(forKey: ageKey)) } }
    let boxes: [Any?] = (0..<1024).map { $0 as Any? }
    harness.measure("kvc_set") { n in
        for i in 0..<n { try! scratch.setValue(boxes[i & 1023], forKey: ageKey) }
    }
    precondition(try! scratch.value(forKey: "age") as? Int != nil, "kvc_set: no age")
    harness.measure("kvc_keypath") { n in for _ in 0..<n { peerBlackHole(try! person.value(forKeyPath: chain)) } }
    for (name, path) in [("kvc_sum", "@sum.amount"), ("kvc_avg", "@avg.amount"), ("kvc_max", "@max.amount"),
                         ("kvc_distinctUnion", "@distinctUnionOfObjects.payee")] {
        let opaquePath = peerOpaque(path)
        harness.measure(name) { n in
            for _ in 0..<n { peerBlackHole(try! KeyValue.value(forKeyPath: opaquePath, of: transactions)) }
        }
    }
    let predicate = try! KeyValuePredicate(format: peerOpaque(predicateFormat))
    let persons = data.persons
    harness.measure("predicate_eval", operations: persons.count) { n in
        for _ in 0..<n { peerBlackHole(try! persons.filtered(using: predicate)) }
    }
    let descriptors = peerOpaque(sortDescriptors)
    harness.measure("sort_100k") { n in
        for _ in 0..<n { peerBlackHole(try! persons.sorted(using: descriptors)) }
    }
}

/// predicate_parse: the format string into a predicate.
func runParseWorkload(harness: PeerHarness) {
    let format = peerOpaque(predicateFormat)
    harness.measure("predicate_parse") { n in
        for _ in 0..<n { peerBlackHole(try! KeyValuePredicate(format: format)) }
    }
}
