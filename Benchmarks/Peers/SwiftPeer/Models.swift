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

/// The `#Predicate` and `KeyPathComparator` peer's person: the same fields as `SwiftPerson`, in a
/// class of its own, because the key paths that those APIs take keep the compiler's dynamic
/// exclusivity checks on every access to the class's properties, which would slow the plain
/// Swift program's stores and loads. (Transactions are shared: no key path reaches them.)
final class KeyPathPerson {
    var name: String
    var lastName: String
    var age: Int
    var department: KeyPathDepartment?

    init(_ fields: PeerPersonFields) {
        name = fields.name
        lastName = fields.lastName
        age = fields.age
    }
}

final class KeyPathDepartment {
    var name: String
    var manager: KeyPathPerson?
    init(name: String, manager: KeyPathPerson?) {
        self.name = name
        self.manager = manager
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

func keyPathDataSet() -> PeerDataSet<KeyPathPerson, KeyPathDepartment, SwiftTransaction> {
    PeerDataSet(person: KeyPathPerson.init, department: KeyPathDepartment.init(name:manager:),
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

/// The fingerprint, with the transactions' fields computed in plain Swift.
///
/// - Parameters:
///   - first: The first person's name, age and manager's name.
///   - ends: lastName and age of the first and last persons in sorted order.
func plainFingerprint(first: (name: String, age: Int, manager: String), transactions: [SwiftTransaction],
                      ends: [(lastName: String, age: Int)], matches: Int) -> PeerFingerprint {
    PeerFingerprint(
        firstName: first.name, firstAge: first.age, managerName: first.manager,
        sum: transactions.reduce(0) { $0 + $1.amount },
        maximum: transactions.map { $0.amount }.max() ?? -1,
        distinctPayees: Set(transactions.map { $0.payee }).count,
        sortedFirst: ends[0], sortedLast: ends[1], matches: matches)
}
