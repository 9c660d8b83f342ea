import Foundation
import ObjectGraph

// The key-value coding, collection-operator, predicate and sort workloads again, on the models
// users write: every property `@Observed` (as the README teaches), and keys that come from
// accessor closures in a per-object key table (as a managed object's do). Each runs beside the
// same workload on plain stored properties.

final class ObservedVariantDepartment: KeyValueObservable {
    @Observed var name: String
    @Observed var manager: ObservedVariantPerson?
    init(name: String) { self.name = name }
}

final class ObservedVariantPerson: KeyValueObservable {
    @Observed var name: String
    @Observed var firstName: String
    @Observed var lastName: String
    @Observed var age: Int
    @Observed var salary: Double
    @Observed var identifier: Int
    @Observed var active: Bool
    @Observed var department: ObservedVariantDepartment?

    init(_ plain: PredicatePerson, departments: [ObservedVariantDepartment]) {
        name = plain.name
        firstName = plain.firstName
        lastName = plain.lastName
        age = plain.age
        salary = plain.salary
        identifier = plain.identifier
        active = plain.active
        department = departments.first { $0.name == plain.department?.name }
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

/// A record whose keys come from accessor closures in a key table it supplies (values in plain
/// fields, reached only through the closures).
final class AccessorRecord: KeyValueKeyTableProviding {
    var name = ""
    var lastName = ""
    var age = 0
    var amount = 0.0
    var link: AccessorRecord?
    let table: KeyValueKeyTable
    var keyValueKeyTable: KeyValueKeyTable { table }
    var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> { Unmanaged.passUnretained(table) }

    init(table: KeyValueKeyTable) { self.table = table }

    private static func record(_ object: AnyObject) -> AccessorRecord {
        unsafeDowncast(object, to: AccessorRecord.self)
    }

    static let name = KeyValueProperty(key: "name", type: String.self,
                                       get: { record($0).name }, set: { record($0).name = $1 })
    static let lastName = KeyValueProperty(key: "lastName", type: String.self,
                                           get: { record($0).lastName }, set: { record($0).lastName = $1 })
    static let age = KeyValueProperty(key: "age", type: Int.self,
                                      get: { record($0).age }, set: { record($0).age = $1 })
    static let personTable = KeyValueKeyTable(properties: [
        name, lastName, age,
        KeyValueProperty(key: "department", type: AccessorRecord?.self,
                         get: { record($0).link }, set: { record($0).link = $1 }),
    ])
    static let departmentTable = KeyValueKeyTable(properties: [
        name,
        KeyValueProperty(key: "manager", type: AccessorRecord?.self,
                         get: { record($0).link }, set: { record($0).link = $1 }),
    ])
    static let transactionTable = KeyValueKeyTable(properties: [
        KeyValueProperty(key: "amount", type: Double.self,
                         get: { record($0).amount }, set: { record($0).amount = $1 }),
    ])
}

func registerModelVariantBenchmarks(in suite: BenchmarkSuite) {
    registerObservedAndAccessorPredicates(in: suite)
    registerObservedAndAccessorCoding(in: suite)
}

private func registerObservedAndAccessorPredicates(in suite: BenchmarkSuite) {
    let departmentNames = ["x", "y", "z", "w", "v"]
    let plainDepartments = departmentNames.map(PredicateDepartment.init(name:))
    let plain = (0..<100_000).map { PredicatePerson(index: $0, departments: plainDepartments) }
    let observedDepartments = departmentNames.map(ObservedVariantDepartment.init(name:))
    let observed = plain.map { ObservedVariantPerson($0, departments: observedDepartments) }
    let accessorDepartments = departmentNames.map { name -> AccessorRecord in
        let department = AccessorRecord(table: AccessorRecord.departmentTable)
        department.name = name
        return department
    }
    let accessor = plain.map { person -> AccessorRecord in
        let record = AccessorRecord(table: AccessorRecord.personTable)
        record.name = person.name
        record.lastName = person.lastName
        record.age = person.age
        record.link = accessorDepartments.first { $0.name == person.department?.name }
        return record
    }
    let predicate = try! KeyValuePredicate(
        format: identity("age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}"))
    let descriptors = [KeyValueSortDescriptor(key: identity("lastName")),
                       KeyValueSortDescriptor(key: identity("age"), ascending: false)]
    let expected = try! plain.filtered(using: predicate).count
    precondition(try! observed.filtered(using: predicate).count == expected, "observed: results differ")
    precondition(try! accessor.filtered(using: predicate).count == expected, "accessor: results differ")

    let plainFilter: Body = { n in for _ in 0..<n { blackHole(try! plain.filtered(using: predicate)) } }
    let plainSort: Body = { n in for _ in 0..<n { blackHole(try! plain.sorted(using: descriptors)) } }
    suite.add("pred_eval_100k_observed", baseline: "pred_eval_100k", operationsPerIteration: plain.count,
              target: .ratio(1.2),
              body: { n in for _ in 0..<n { blackHole(try! observed.filtered(using: predicate)) } },
              baseline: plainFilter)
    suite.add("pred_eval_100k_accessor", baseline: "pred_eval_100k", operationsPerIteration: plain.count,
              target: .ratio(1.2),
              body: { n in for _ in 0..<n { blackHole(try! accessor.filtered(using: predicate)) } },
              baseline: plainFilter)
    suite.add("sort_100k_observed", baseline: "sort_100k", target: .ratio(1.2), note: "ns per sort",
              body: { n in for _ in 0..<n { blackHole(try! observed.sorted(using: descriptors)) } },
              baseline: plainSort)
    suite.add("sort_100k_accessor", baseline: "sort_100k", target: .ratio(1.2), note: "ns per sort",
              body: { n in for _ in 0..<n { blackHole(try! accessor.sorted(using: descriptors)) } },
              baseline: plainSort)
}

private func registerObservedAndAccessorCoding(in suite: BenchmarkSuite) {
    let transactions = (0..<10_000).map { Transaction(payee: "payee \($0 % 13)", amount: Double($0 % 100) + 0.5) }
    let observedTransactions = transactions.map { ObservedTransaction(payee: $0.payee, amount: $0.amount) }
    let accessorTransactions = transactions.map { transaction -> AccessorRecord in
        let record = AccessorRecord(table: AccessorRecord.transactionTable)
        record.amount = transaction.amount
        return record
    }
    let sumPath = identity("@sum.amount")
    let total = try! KeyValue.value(forKeyPath: sumPath, of: transactions) as! Double
    precondition(try! KeyValue.value(forKeyPath: sumPath, of: observedTransactions) as! Double == total,
                 "kvc_sum_10k_observed: results differ")
    precondition(try! KeyValue.value(forKeyPath: sumPath, of: accessorTransactions) as! Double == total,
                 "kvc_sum_10k_accessor: results differ")
    let plainSum: Body = { n in
        for _ in 0..<n { blackHole(try! KeyValue.value(forKeyPath: sumPath, of: transactions)) }
    }
    suite.add("kvc_sum_10k_observed", baseline: "kvc_sum_10k", target: .ratio(2),
              body: { n in
                  for _ in 0..<n { blackHole(try! KeyValue.value(forKeyPath: sumPath, of: observedTransactions)) }
              },
              baseline: plainSum)
    suite.add("kvc_sum_10k_accessor", baseline: "kvc_sum_10k", target: .none,
              body: { n in
                  for _ in 0..<n { blackHole(try! KeyValue.value(forKeyPath: sumPath, of: accessorTransactions)) }
              },
              baseline: plainSum)

    // department.manager.name, three links.
    let person = Person()
    person.department = Department()
    person.department?.manager = Person()
    let observedPerson = ObservedVariantPerson(PredicatePerson(index: 1, departments: [PredicateDepartment(name: "x")]),
                                               departments: [ObservedVariantDepartment(name: "x")])
    observedPerson.department?.manager = observedPerson
    let record = AccessorRecord(table: AccessorRecord.personTable)
    record.link = AccessorRecord(table: AccessorRecord.departmentTable)
    record.link?.link = record
    let chainPath = identity("department.manager.name")
    let plainChain: Body = { n in for _ in 0..<n { blackHole(try! person.value(forKeyPath: chainPath)) } }
    suite.add("kvc_keypath3_observed", baseline: "kvc_keypath3", target: .ratio(1.5),
              body: { n in for _ in 0..<n { blackHole(try! observedPerson.value(forKeyPath: chainPath)) } },
              baseline: plainChain)
    suite.add("kvc_keypath3_accessor", baseline: "kvc_keypath3", target: .none,
              body: { n in for _ in 0..<n { blackHole(try! record.value(forKeyPath: chainPath)) } },
              baseline: plainChain)
}
