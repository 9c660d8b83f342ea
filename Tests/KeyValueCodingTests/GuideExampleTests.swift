// Docs/KeyValueCoding.md's examples, kept compiling and true (issue 11). Each example's code is
// copied as the guide writes it; what a fragment takes from its surroundings (the `document` of
// the previous example, an `account`) is declared around it, and expectations follow. The guide
// imports `ObjectGraph`, which re-exports `KeyValueCoding`, the module this target tests.

import Foundation
import Testing
import KeyValueCoding

/// The first example ("Reading and writing by name").
private enum BasicsExample {
    final class Person: KeyValueCodable {
        var name = ""
        var age = 0
        var salary = 0.0
        var manager: Person?
        var nickname: String?
    }
}

/// "Computed keys".
private enum ComputedKeyExample {
    class Employee: KeyValueCodable {
        var first = "", last = ""
        var fullName: String { "\(first) \(last)" }
        class var computedKeys: [String: AnyKeyPath] { ["fullName": \Employee.fullName] }
    }
}

/// "Dictionaries".
private enum DictionaryExample {
    final class Document: KeyValueCodable {
        var settings: [String: Any] = ["draft": true]
    }
}

/// The surroundings of the collection operator example: an account whose transactions have an
/// amount and a payee.
private enum OperatorExample {
    final class Transaction: KeyValueCodable {
        var amount: Double
        var payee: String
        init(_ amount: Double, _ payee: String) { self.amount = amount; self.payee = payee }
    }

    final class Account: KeyValueCodable {
        var transactions: [Transaction] = []
    }
}

/// The surroundings of the `KeyValuePath` example: people in departments with managers.
private enum PathExample {
    final class Person: KeyValueCodable {
        var age: Int
        var department: Department?
        init(age: Int, department: Department? = nil) { self.age = age; self.department = department }
    }

    final class Department: KeyValueCodable {
        var manager: Person
        init(manager: Person) { self.manager = manager }
    }
}

/// "Validation": the validator the guide declares, in a class.
private enum ValidationExample {
    final class Person: KeyValueCodable {
        var age = 0
        class var validators: [String: KeyValueValidator] {
            ["age": { value in
                guard let age = value as? Int, age >= 0 else { throw KeyValueValidationError("age must be ≥ 0") }
                if age > 150 { value = 150 }
            }]
        }
    }
}

@Suite("Coding guide examples")
struct CodingGuideExampleTests {
    @Test func readingAndWritingByName() throws {
        typealias Person = BasicsExample.Person
        let ada = Person()
        try ada.setValue("Ada", forKey: "name")
        try ada.setValue(36.9, forKey: "age")        // numbers bridge: 36.9 → 36 (truncated, as intValue does)
        try ada.setValue(1, forKey: "salary")        // Int → Double
        let name = try ada.value(forKey: "name")                 // "Ada" as Any?
        let boss = try ada.value(forKeyPath: "manager.name")     // nil: the path stops at nil

        #expect(name as? String == "Ada")
        #expect(boss == nil)
        #expect(ada.age == 36 && ada.salary == 1.0)
    }

    @Test func computedKeys() throws {
        let employee = ComputedKeyExample.Employee()
        employee.first = "Grace"
        employee.last = "Hopper"
        #expect(try employee.value(forKey: "fullName") as? String == "Grace Hopper")
    }

    @Test func dictionariesByKeyPath() throws {
        let document = DictionaryExample.Document()
        try document.setValue("GNUstep", forKeyPath: "settings.author")   // stores the entry
        try document.setValue(nil, forKeyPath: "settings.draft")           // removes it
        #expect(document.settings["author"] as? String == "GNUstep")
        #expect(document.settings["draft"] == nil)

        let recent = try document.mutableArrayValue(forKeyPath: "settings.recent")
        try recent.append("notes.txt")     // settings["recent"] is now ["notes.txt"]
        #expect(document.settings["recent"] as? [String] == ["notes.txt"])
    }

    @Test func collectionOperators() throws {
        let account = OperatorExample.Account()
        account.transactions = [.init(10, "Ada"), .init(5.5, "Grace"), .init(2, "Ada")]
        let transactions = account.transactions

        let total = try account.value(forKeyPath: "transactions.@sum.amount")
        let payees = try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.payee", of: transactions)

        #expect(total as? Double == 17.5)
        #expect(Set(try #require(payees as? [String])) == ["Ada", "Grace"])
    }

    @Test func keyValuePath() throws {
        let boss = PathExample.Person(age: 52)
        let junior = PathExample.Person(age: 30)
        let people = [
            PathExample.Person(age: 25, department: .init(manager: boss)),
            PathExample.Person(age: 40, department: .init(manager: junior)),
            PathExample.Person(age: 33),
        ]

        let path = try KeyValuePath("department.manager.age")
        let older = people.filter {
            if case .number(let age) = try! path.reading(of: $0) { return age.doubleValue > 40 }
            return false
        }

        #expect(older.map(\.age) == [25])
    }

    @Test func validation() throws {
        let person = ValidationExample.Person()
        var proposed: Any? = 200
        try person.validateValue(&proposed, forKey: "age")   // proposed is now 150
        #expect(proposed as? Int == 150)

        var negative: Any? = -1
        #expect(throws: (any Error).self) { try person.validateValue(&negative, forKey: "age") }
    }
}
