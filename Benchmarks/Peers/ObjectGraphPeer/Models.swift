// The peer data set's models, twice: every property `@Observed` (as the README teaches), and
// plain stored properties (key-value coding only).

import ObjectGraph
import PeerSupport

final class ObservedPerson: KeyValueObservable {
    @Observed var name: String
    @Observed var firstName: String
    @Observed var lastName: String
    @Observed var age: Int
    @Observed var salary: Double
    @Observed var identifier: Int
    @Observed var active: Bool
    @Observed var department: ObservedDepartment?

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

final class ObservedDepartment: KeyValueObservable {
    @Observed var name: String
    @Observed var manager: ObservedPerson?
    init(name: String, manager: ObservedPerson?) {
        self.name = name
        self.manager = manager
    }
}

final class ObservedTransaction: KeyValueObservable {
    @Observed var payee: String
    @Observed var amount: Double
    init(payee: String, amount: Double) {
        self.payee = payee
        self.amount = amount
    }
}

final class PlainPerson: KeyValueCodable {
    var name: String
    var firstName: String
    var lastName: String
    var age: Int
    var salary: Double
    var identifier: Int
    var active: Bool
    var department: PlainDepartment?

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

final class PlainDepartment: KeyValueCodable {
    var name: String
    var manager: PlainPerson?
    init(name: String, manager: PlainPerson?) {
        self.name = name
        self.manager = manager
    }
}

final class PlainTransaction: KeyValueCodable {
    var payee: String
    var amount: Double
    init(payee: String, amount: Double) {
        self.payee = payee
        self.amount = amount
    }
}

func observedDataSet() -> PeerDataSet<ObservedPerson, ObservedDepartment, ObservedTransaction> {
    PeerDataSet(person: ObservedPerson.init, department: ObservedDepartment.init(name:manager:),
                assign: { $0.department = $1 }, transaction: ObservedTransaction.init(payee:amount:))
}

func plainDataSet() -> PeerDataSet<PlainPerson, PlainDepartment, PlainTransaction> {
    PeerDataSet(person: PlainPerson.init, department: PlainDepartment.init(name:manager:),
                assign: { $0.department = $1 }, transaction: PlainTransaction.init(payee:amount:))
}
