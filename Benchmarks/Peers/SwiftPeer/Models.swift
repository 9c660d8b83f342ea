// The peer data set's models in plain Swift (also the input of `#Predicate` and
// `KeyPathComparator`), and with Swift's Observation module.

import Observation
import PeerSupport

final class SwiftPerson {
    var name: String
    var firstName: String
    var lastName: String
    var age: Int
    var salary: Double
    var identifier: Int
    var active: Bool
    var department: SwiftDepartment?

    init(_ fields: PeerPersonFields) {
        name = fields.name
        firstName = fields.firstName
        lastName = fields.lastName
        age = fields.age
        salary = fields.salary
        identifier = fields.identifier
        active = fields.active
    }
}

final class SwiftDepartment {
    var name: String
    var manager: SwiftPerson?
    init(name: String, manager: SwiftPerson?) {
        self.name = name
        self.manager = manager
    }
}

final class SwiftTransaction {
    var payee: String
    var amount: Double
    init(payee: String, amount: Double) {
        self.payee = payee
        self.amount = amount
    }
}

@Observable final class TrackedPerson {
    var name: String
    var firstName: String
    var lastName: String
    var age: Int
    var salary: Double
    var identifier: Int
    var active: Bool
    var department: TrackedDepartment?

    init(_ fields: PeerPersonFields) {
        name = fields.name
        firstName = fields.firstName
        lastName = fields.lastName
        age = fields.age
        salary = fields.salary
        identifier = fields.identifier
        active = fields.active
    }
}

@Observable final class TrackedDepartment {
    var name: String
    var manager: TrackedPerson?
    init(name: String, manager: TrackedPerson?) {
        self.name = name
        self.manager = manager
    }
}

@Observable final class TrackedTransaction {
    var payee: String
    var amount: Double
    init(payee: String, amount: Double) {
        self.payee = payee
        self.amount = amount
    }
}

func swiftDataSet() -> PeerDataSet<SwiftPerson, SwiftDepartment, SwiftTransaction> {
    PeerDataSet(person: SwiftPerson.init, department: SwiftDepartment.init(name:manager:),
                assign: { $0.department = $1 }, transaction: SwiftTransaction.init(payee:amount:))
}

func trackedDataSet() -> PeerDataSet<TrackedPerson, TrackedDepartment, TrackedTransaction> {
    PeerDataSet(person: TrackedPerson.init, department: TrackedDepartment.init(name:manager:),
                assign: { $0.department = $1 }, transaction: TrackedTransaction.init(payee:amount:))
}

/// The predicate of WORKLOADS.md written as a closure: `age > 30 AND name BEGINSWITH[c] 'a' OR
/// department.name IN {'x','y'}`, AND binding tighter than OR.
@inline(never) func matchesPredicate(_ person: SwiftPerson) -> Bool {
    if person.age > 30, let first = person.name.utf8.first, first == UInt8(ascii: "a") || first == UInt8(ascii: "A") {
        return true
    }
    guard let name = person.department?.name else { return false }
    return name == "x" || name == "y"
}

/// lastName ascending, then age descending.
@inline(never) func sortedPersons(_ persons: [SwiftPerson]) -> [SwiftPerson] {
    persons.sorted { a, b in a.lastName != b.lastName ? a.lastName < b.lastName : a.age > b.age }
}

/// The fingerprint fields that plain Swift computes the same way in every Swift peer.
func plainFingerprint(_ data: PeerDataSet<SwiftPerson, SwiftDepartment, SwiftTransaction>,
                      sorted: [SwiftPerson], matches: Int) -> PeerFingerprint {
    let first = data.persons[0]
    return PeerFingerprint(
        firstName: first.name, firstAge: first.age, managerName: first.department?.manager?.name ?? "?",
        sum: data.transactions.reduce(0) { $0 + $1.amount },
        maximum: data.transactions.map(\.amount).max() ?? -1,
        distinctPayees: Set(data.transactions.map(\.payee)).count,
        sortedFirst: (sorted[0].lastName, sorted[0].age),
        sortedLast: (sorted[sorted.count - 1].lastName, sorted[sorted.count - 1].age),
        matches: matches)
}
