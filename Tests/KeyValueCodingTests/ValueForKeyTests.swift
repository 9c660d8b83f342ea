import Foundation
import Testing
import KeyValueCoding

@Suite("value(forKey:) and setValue(_:forKey:)")
struct ValueForKeyTests {
    @Test func readsStoredPropertiesByReflection() throws {
        let ada = Employee(name: "Ada", age: 36, identifier: 7)
        #expect(try ada.value(forKey: "name") as? String == "Ada")
        #expect(try ada.value(forKey: "age") as? Int == 36)
        #expect(try ada.value(forKey: "identifier") as? Int == 7)
        #expect(try ada.value(forKey: "active") as? Bool == false)
        #expect(try ada.value(forKey: "role") as? Role == .engineer)
    }

    @Test func setsStoredProperties() throws {
        let ada = Employee()
        try ada.setValue("Ada", forKey: "name")
        try ada.setValue(36, forKey: "age")
        try ada.setValue(true, forKey: "active")
        try ada.setValue(["a", "b"], forKey: "tags")
        #expect(ada.name == "Ada")
        #expect(ada.age == 36)
        #expect(ada.active)
        #expect(ada.tags == ["a", "b"])
    }

    @Test func bridgesNumbersIntoInt() throws {
        let values: [Any] = [36.9, Int8(36), UInt64(36), Float(36.2), NSNumber(value: 36), Decimal(36)]
        for value in values {
            let ada = Employee()
            try ada.setValue(value, forKey: "age")
            #expect(ada.age == 36, "\(value)")  // floating-point values truncate toward zero, as intValue does
        }
    }

    @Test func bridgesBetweenNumericTypes() throws {
        let ada = Employee()
        try ada.setValue(3, forKey: "salary")
        #expect(ada.salary == 3.0)
        try ada.setValue(2.5, forKey: "rating")
        #expect(ada.rating == 2.5)
        try ada.setValue(1, forKey: "active")
        #expect(ada.active)
        try ada.setValue(0.0, forKey: "active")
        #expect(!ada.active)
        try ada.setValue(true, forKey: "age")
        #expect(ada.age == 1)
        try ada.setValue(false, forKey: "salary")
        #expect(ada.salary == 0)
        try ada.setValue(-2.7, forKey: "age")
        #expect(ada.age == -2)
        try ada.setValue(Decimal(string: "12.5")!, forKey: "salary")
        #expect(ada.salary == 12.5)
    }

    @Test func rejectsNumbersOutOfRange() throws {
        let ada = Employee()
        #expect(throws: KeyValueCodingError.valueOutOfRange(key: "level", type: String(reflecting: Employee.self), value: "300")) {
            try ada.setValue(300, forKey: "level")
        }
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(-1, forKey: "level") }
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(Double.nan, forKey: "age") }
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(1e300, forKey: "age") }
        #expect(ada.level == 0)
        #expect(ada.age == 0)
    }

    @Test func rejectsValuesOfTheWrongKind() throws {
        let ada = Employee()
        let error = try #require(throws: KeyValueCodingError.self) { try ada.setValue("36", forKey: "age") }
        guard case let .typeMismatch(key, _, expected, actual) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(key == "age")
        #expect(expected == "Swift.Int")
        #expect(actual == "Swift.String")
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(12, forKey: "name") }
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(Division(), forKey: "manager") }
        #expect(ada.age == 0 && ada.name == "" && ada.manager == nil)
    }

    @Test func enumsAcceptTheirRawValues() throws {
        let ada = Employee()
        try ada.setValue("manager", forKey: "role")
        #expect(ada.role == .manager)
        try ada.setValue(Role.engineer, forKey: "role")
        #expect(ada.role == .engineer)
        #expect(throws: KeyValueCodingError.self) { try ada.setValue("janitor", forKey: "role") }
    }

    @Test func optionalsAcceptNilAndReadBackNil() throws {
        let ada = Employee()
        #expect(try ada.value(forKey: "nickname") == nil)
        try ada.setValue("Countess", forKey: "nickname")
        #expect(try ada.value(forKey: "nickname") as? String == "Countess")
        try ada.setValue(nil, forKey: "nickname")
        #expect(ada.nickname == nil)
        try ada.setValue(2, forKey: "bonus")
        #expect(ada.bonus == 2.0)
        let none: String? = nil
        try ada.setValue("x", forKey: "nickname")
        try ada.setValue(none as Any, forKey: "nickname")  // an Optional holding nil, seen as Any
        #expect(ada.nickname == nil)
        try ada.setValue(NSNull(), forKey: "nickname")
        #expect(ada.nickname == nil)
    }

    @Test func nilIntoNonOptionalCallsSetNilValueForKey() throws {
        let ada = Employee(age: 3)
        #expect(throws: KeyValueCodingError.nilNotAllowed(key: "age", type: String(reflecting: Employee.self))) {
            try ada.setValue(nil, forKey: "age")
        }
        #expect(ada.age == 3)
        let lenient = Lenient()
        try lenient.setValue(nil, forKey: "count")
        #expect(lenient.count == 0)
    }

    @Test func undefinedKeysThrowNamingTypeAndKey() throws {
        let ada = Employee()
        let type = String(reflecting: Employee.self)
        #expect(throws: KeyValueCodingError.undefinedKey("salery", type: type)) { try ada.value(forKey: "salery") }
        #expect(throws: KeyValueCodingError.undefinedKey("salery", type: type)) {
            try ada.setValue(1, forKey: "salery")
        }
        let message = String(describing: KeyValueCodingError.undefinedKey("salery", type: type))
        #expect(message.contains("salery") && message.contains("Employee"))
    }

    @Test func undefinedKeyHooksCanBeOverridden() throws {
        let lenient = Lenient()
        try lenient.setValue("x", forKey: "anything")
        #expect(try lenient.value(forKey: "anything") as? String == "x")
        #expect(try lenient.value(forKey: "missing") == nil)
    }

    @Test func computedKeysReadAndWrite() throws {
        let ada = Employee(name: "ada")
        #expect(try ada.value(forKey: "fullTitle") as? String == "ada (engineer)")
        #expect(try ada.value(forKey: "displayName") as? String == "ADA")
        try ada.setValue("GRACE", forKey: "displayName")
        #expect(ada.name == "grace")
        #expect(throws: KeyValueCodingError.readOnlyKey("fullTitle", type: String(reflecting: Employee.self))) {
            try ada.setValue("x", forKey: "fullTitle")
        }
    }

    @Test func subclassesInheritKeysAndAddTheirOwn() throws {
        let boss = Manager(name: "Grace", age: 50)
        try boss.setValue(10, forKey: "budget")
        #expect(boss.budget == 10)
        #expect(try boss.value(forKey: "name") as? String == "Grace")
        #expect(try boss.value(forKey: "title") as? String == "Manager Grace")
        #expect(try boss.value(forKey: "fullTitle") as? String == "Grace (engineer)")
        #expect(throws: KeyValueCodingError.self) { try Employee().value(forKey: "budget") }
    }

    @Test func lazyStorageIsNotAKey() throws {
        let ada = Employee()
        let keys = KeyValueKeyTable.of(Employee.self).allKeys
        #expect(!keys.contains { $0.hasPrefix("$") })
        #expect(keys.contains("name") && keys.contains("fullTitle"))
        _ = ada.cached
    }

    @Test func propertyWrappersAreReachableUnderThePlainName() throws {
        let item = Wrapped()
        #expect(try item.value(forKey: "title") as? String == "untitled")
        try item.setValue("Dune", forKey: "title")
        #expect(item.title == "Dune")
        #expect(item.storesOfTitle == 1)  // stored through the wrapper's own setter
        try item.setValue(3, forKey: "score")
        #expect(item.score == 3.0)
        try item.setValue("n", forKey: "note")
        try item.setValue(nil, forKey: "note")
        #expect(item.note == nil)
        #expect(throws: KeyValueCodingError.self) { try item.value(forKey: "_title") }
    }

    @Test func dictionaryWithValuesAndSetValuesForKeys() throws {
        let ada = Employee(name: "Ada", age: 36)
        let values = try ada.dictionaryWithValues(forKeys: ["name", "age", "nickname"])
        #expect(values["name"] as? String == "Ada")
        #expect(values["age"] as? Int == 36)
        #expect(values["nickname"] is NSNull)
        try ada.setValuesForKeys(["name": "Grace", "nickname": NSNull(), "salary": 5])
        #expect(ada.name == "Grace" && ada.nickname == nil && ada.salary == 5)
        #expect(throws: KeyValueCodingError.self) { try ada.setValuesForKeys(["nope": 1]) }
    }

    @Test func validation() throws {
        let ada = Employee()
        var value: Any? = 30
        try ada.validateValue(&value, forKey: "age")
        #expect(value as? Int == 30)
        value = 200
        try ada.validateValue(&value, forKey: "age")
        #expect(value as? Int == 150)  // replaced
        value = -1
        let error = try #require(throws: KeyValueCodingError.self) { try ada.validateValue(&value, forKey: "age") }
        #expect(error == .validationFailed(key: "age", type: String(reflecting: Employee.self),
                                           reason: "age must not be negative"))
        value = "anything"
        try ada.validateValue(&value, forKey: "name")  // no validator: accepted
        try ada.validateValue(&value, forKey: "nope")  // no validator, no property: accepted (Apple)
        #expect(value as? String == "anything")
    }

    @Test func hostileKeysThrowInsteadOfCrashing() throws {
        let ada = Employee()
        for key in ["", "..", "@", "@sum", "name.", ".name", "🙂", "name\u{0}", String(repeating: "k", count: 10_000)] {
            #expect(throws: KeyValueCodingError.self) { try ada.value(forKey: key) }
            #expect(throws: KeyValueCodingError.self) { try ada.setValue(1, forKey: key) }
        }
    }

    @Test func unicodeKeysWork() throws {
        final class Café: KeyValueCodable {
            var crème = "brûlée"
        }
        let cafe = Café()
        #expect(try cafe.value(forKey: "crème") as? String == "brûlée")
        try cafe.setValue("caramel", forKeyPath: "crème")
        #expect(cafe.crème == "caramel")
    }

    @Test func descriptionCacheIsThreadSafe() async throws {
        final class Fresh: KeyValueCodable {
            var a = 1
            var b = "b"
        }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let object = Fresh()
                    var ok = true
                    for i in 0..<500 {
                        try? object.setValue(i, forKey: "a")
                        ok = ok && (try? object.value(forKey: "a")) as? Int == i
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
