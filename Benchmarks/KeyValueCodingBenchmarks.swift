import ObjectGraph

// The objects of the key-value coding workloads (issue 2): a Person with 8 stored properties,
// a Department with a name and a manager, and 10,000 Transactions with payee and amount.

final class Person: KeyValueCodable {
    var name = "Ada Lovelace"
    var firstName = "Ada"
    var lastName = "Lovelace"
    var age = 36
    var salary = 1_000.0
    var identifier = 1
    var active = true
    var department: Department?
}

final class Department: KeyValueCodable {
    var name = "Analytical Engines"
    var manager: Person?
}

final class Transaction: KeyValueCodable {
    var payee: String
    var amount: Double
    init(payee: String, amount: Double) {
        self.payee = payee
        self.amount = amount
    }
}

@inline(never) func directGetName(_ person: Person) -> String { person.name }
@inline(never) func directSetAge(_ person: Person, _ age: Int) { person.age = age }
@inline(never) func directChain(_ person: Person) -> String? { person.department?.manager?.name }
@inline(never) func directSum(_ transactions: [Transaction]) -> Double {
    transactions.reduce(0) { $0 + $1.amount }
}

func registerKeyValueCodingBenchmarks(in suite: BenchmarkSuite) {
    let person = Person()
    let manager = Person()
    manager.name = "Charles Babbage"
    let department = Department()
    department.manager = manager
    person.department = department
    let transactions = (0..<10_000).map { Transaction(payee: "payee \($0 % 13)", amount: Double($0 % 100) + 0.5) }
    let nameKey = identity("name")
    let ageKey = identity("age")
    let chainPath = identity("department.manager.name")
    let sumPath = identity("@sum.amount")
    let nameKeyPath: ReferenceWritableKeyPath<Person, String> = identity(\Person.name as ReferenceWritableKeyPath<Person, String>)
    let ageKeyPath: ReferenceWritableKeyPath<Person, Int> = identity(\Person.age as ReferenceWritableKeyPath<Person, Int>)

    let getBody: Body = { n in
        for _ in 0..<n { blackHole(try! person.value(forKey: nameKey)) }
    }
    let setBody: Body = { n in
        for i in 0..<n { try! person.setValue(i, forKey: ageKey) }
    }
    suite.add("kvc_get", baseline: "direct_get", target: .ratio(8), body: getBody,
              baseline: { n in for _ in 0..<n { blackHole(directGetName(person)) } })
    suite.add("kvc_set", baseline: "direct_set", target: .ratio(15), body: setBody,
              baseline: { n in for i in 0..<n { directSetAge(person, i) } })
    suite.add("kvc_keypath3", baseline: "direct_keypath3", target: .ratio(8),
              body: { n in for _ in 0..<n { blackHole(try! person.value(forKeyPath: chainPath)) } },
              baseline: { n in for _ in 0..<n { blackHole(directChain(person)) } })
    suite.add("kvc_sum_10k", baseline: "direct_reduce_10k", target: .ratio(3),
              body: { n in
                  for _ in 0..<n { blackHole(try! KeyValue.value(forKeyPath: sumPath, of: transactions)) }
              },
              baseline: { n in for _ in 0..<n { blackHole(directSum(transactions)) } })
    suite.add("kvc_get_vs_keypath", baseline: "swift_keypath_get", target: .ratio(1), body: getBody,
              baseline: { n in for _ in 0..<n { blackHole(person[keyPath: nameKeyPath]) } })
    suite.add("kvc_set_vs_keypath", baseline: "swift_keypath_set", target: .ratio(1), body: setBody,
              baseline: { n in for i in 0..<n { person[keyPath: ageKeyPath] = i } })
}
