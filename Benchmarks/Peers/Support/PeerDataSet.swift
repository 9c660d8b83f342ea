// The peer data set of WORKLOADS.md: a 64-bit linear congruential generator (seed 42) draws
// 10 departments with their managers, 100,000 persons and 10,000 transactions, in that order.
// Every peer program builds exactly this set with its own model types; the GNUstep program
// (GNUstep/peer-gnustep.m) repeats the same draws in Objective-C.

/// The generator: `state = state × 6364136223846793005 + 1442695040888963407 (mod 2^64)`, and
/// each draw is `state >> 33`.
public struct PeerRandom {
    private var state: UInt64

    /// A generator seeded with `seed` (42 for the data set).
    public init(seed: UInt64 = 42) { state = seed }

    /// The next draw: advances the state and returns its top 31 bits.
    public mutating func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
}

/// The stored fields of one person, as drawn (the department is assigned separately).
public struct PeerPersonFields {
    public var name: String
    public var firstName: String
    public var lastName: String
    public var age: Int
    public var salary: Double
    public var identifier: Int
    public var active: Bool

    public init(name: String, firstName: String, lastName: String, age: Int, salary: Double,
                identifier: Int, active: Bool) {
        self.name = name
        self.firstName = firstName
        self.lastName = lastName
        self.age = age
        self.salary = salary
        self.identifier = identifier
        self.active = active
    }

    /// A person outside the data set (the workloads that write use one), age 0.
    public static func scratch(_ identifier: Int = 0) -> PeerPersonFields {
        PeerPersonFields(name: "scratch", firstName: "scratch", lastName: "Scratch", age: 0, salary: 0,
                         identifier: identifier, active: true)
    }
}

/// The data set, built through the caller's model types.
public struct PeerDataSet<Person, Department, Transaction> {
    public var departments: [Department]
    public var persons: [Person]
    public var transactions: [Transaction]

    public static var personCount: Int { 100_000 }
    public static var transactionCount: Int { 10_000 }
    public static var departmentNames: [String] { ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "x", "y"] }
    public static var firstNames: [String] {
        ["alice", "Adam", "bob", "Beth", "carol", "Chris", "dave", "Diana",
         "erin", "Frank", "grace", "Heidi", "ivan", "Judy", "mallory", "Anna"]
    }

    /// Draws the data set.
    ///
    /// - Parameters:
    ///   - person: Makes a person (no department yet).
    ///   - department: Makes a department from its name and manager.
    ///   - assign: Sets a person's department.
    ///   - transaction: Makes a transaction from its payee and amount.
    public init(person: (PeerPersonFields) -> Person,
                department: (String, Person) -> Department,
                assign: (Person, Department) -> Void,
                transaction: (String, Double) -> Transaction) {
        var random = PeerRandom()
        let firstNames = Self.firstNames
        func makePerson(_ identifier: Int) -> Person {
            let firstName = firstNames[random.next() % 16]
            let lastName = "Last" + Self.padded(random.next() % 1000, width: 3)
            let age = 18 + random.next() % 63
            let salary = Double(random.next() % 200_000) / 2.0
            let active = random.next() & 1 == 1
            return person(PeerPersonFields(name: firstName, firstName: firstName, lastName: lastName,
                                           age: age, salary: salary, identifier: identifier,
                                           active: active))
        }
        departments = Self.departmentNames.enumerated().map { index, name in
            department(name, makePerson(1_000_000 + index))
        }
        var persons: [Person] = []
        persons.reserveCapacity(Self.personCount)
        for index in 0..<Self.personCount {
            let made = makePerson(index)
            assign(made, departments[random.next() % 10])
            persons.append(made)
        }
        self.persons = persons
        transactions = (0..<Self.transactionCount).map { _ in
            let amount = Double(random.next() % 100_000) / 100.0
            return transaction("payee" + Self.padded(random.next() % 100, width: 2), amount)
        }
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
