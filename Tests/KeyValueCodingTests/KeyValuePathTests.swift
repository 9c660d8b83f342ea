import Foundation
import Testing
import KeyValueCoding

@Suite("KeyValuePath and KeyValueReading")
struct KeyValuePathTests {
    func sample() -> Employee {
        let grace = Employee(name: "Grace", age: 50)
        grace.salary = 2.5
        grace.active = true
        let division = Division()
        division.name = "Compilers"
        division.head = grace
        let ada = Employee(name: "Ada", age: 36)
        ada.department = division
        ada.nickname = "Countess"
        return ada
    }

    @Test func readsByKindAlongObjectPaths() throws {
        let ada = sample()
        guard case .string("Grace") = try KeyValuePath("department.head.name").reading(of: ada) else {
            Issue.record("expected a string")
            return
        }
        guard case .number(.integer(50)) = try KeyValuePath("department.head.age").reading(of: ada) else {
            Issue.record("expected an integer")
            return
        }
        guard case .number(.floating(2.5)) = try KeyValuePath("department.head.salary").reading(of: ada as Any) else {
            Issue.record("expected a double")
            return
        }
        guard case .number(.boolean(true)) = try KeyValuePath("department.head.active").reading(of: ada) else {
            Issue.record("expected a Bool")
            return
        }
        guard case .object(let head) = try KeyValuePath("department.head").reading(of: ada) else {
            Issue.record("expected an object")
            return
        }
        let expectedHead = try #require(ada.department?.head)
        #expect(ObjectIdentifier(head) == ObjectIdentifier(expectedHead))
        guard case .null = try KeyValuePath("manager.name").reading(of: ada) else {
            Issue.record("expected null")
            return
        }
        guard case .string("Countess") = try KeyValuePath("nickname").reading(of: ada) else {
            Issue.record("expected the optional's string")
            return
        }
    }

    @Test func valueMatchesValueForKeyPath() throws {
        let ada = sample()
        for path in ["name", "department.name", "department.head.age", "department.head.rating", "fullTitle",
                     "department.members.@count", "department.head.self.name", "manager.name"] {
            let expected = try ada.value(forKeyPath: path)
            let actual = try KeyValuePath(path).value(of: ada)
            #expect(String(describing: expected) == String(describing: actual), "\(path)")
        }
        #expect(try KeyValuePath("department.head.level").value(of: ada) is UInt8)  // types kept
    }

    @Test func fallsBackForCollectionsAndDictionaries() throws {
        let record: [String: Any] = ["who": sample()]
        guard case .string("Compilers") = try KeyValuePath("who.department.name").reading(of: record) else {
            Issue.record("expected a string")
            return
        }
        let division = Division()
        division.members = [sample(), sample()]
        guard case .number(.integer(72)) = try KeyValuePath("members.@sum.age").reading(of: division) else {
            Issue.record("expected the sum")
            return
        }
    }

    @Test func checksThePathOnce() throws {
        #expect(throws: KeyValueCodingError.self) { try KeyValuePath("") }
        #expect(throws: KeyValueCodingError.self) { try KeyValuePath("a..b") }
        #expect(throws: KeyValueCodingError.unknownOperator("@median", keyPath: "x.@median.y")) {
            try KeyValuePath("x.@median.y")
        }
        let path = try KeyValuePath("department.nope")
        #expect(throws: KeyValueCodingError.undefinedKey("nope", type: String(reflecting: Division.self))) {
            try path.reading(of: sample())
        }
    }

    @Test func readingSortsAnyValue() {
        guard case .null = KeyValueReading(nil) else { Issue.record("nil"); return }
        guard case .null = KeyValueReading(NSNull()) else { Issue.record("NSNull"); return }
        guard case .number(.integer(3)) = KeyValueReading(Int8(3)) else { Issue.record("Int8"); return }
        guard case .string("x") = KeyValueReading("x") else { Issue.record("String"); return }
        guard case .value = KeyValueReading(Point(x: 1, y: 2)) else { Issue.record("struct"); return }
        let inner: Any? = 5
        guard case .number(.integer(5)) = KeyValueReading(inner as Any) else { Issue.record("nested"); return }
        #expect(KeyValueReading(2.5).anyValue as? Double == 2.5)
    }
}

@Suite("Enumerations with raw values")
struct RawValueTests {
    enum Priority: Int { case low = 0, normal = 1, high = 2 }
    enum Kind: String { case a, b }
    final class Task: KeyValueCodable {
        var priority = Priority.normal
        var kind = Kind.a
        init(_ priority: Priority) { self.priority = priority }
    }

    @Test func readingsUseRawValues() throws {
        let task = Task(.high)
        guard case .number(.integer(2)) = try KeyValuePath("priority").reading(of: task) else {
            Issue.record("expected the raw value")
            return
        }
        guard case .string("a") = try KeyValuePath("kind").reading(of: task) else {
            Issue.record("expected the raw value")
            return
        }
        #expect(try task.value(forKey: "priority") as? Priority == .high)  // value(forKey:) keeps the enum
    }

    @Test func minAndMaxCompareRawValues() throws {
        let tasks = [Task(.low), Task(.high), Task(.normal)]
        #expect(try KeyValue.value(forKeyPath: "@max.priority", of: tasks) as? Priority == .high)
        #expect(try KeyValue.value(forKeyPath: "@min.priority", of: tasks) as? Priority == .low)
    }
}

@Suite("KeyValuePath from several threads")
struct KeyValuePathConcurrencyTests {
    // @unchecked Sendable: the test only reads these objects once they are built.
    final class Leaf: KeyValueCodable, @unchecked Sendable {
        var name = "leaf"
    }
    class Base: KeyValueCodable, @unchecked Sendable {
        var child = Leaf()
        var count = 1
    }
    final class Derived: Base, @unchecked Sendable {
        var extra = 2
    }

    @Test func sharedPathsReadFromManyThreadsAndClasses() async {
        let path = try! KeyValuePath("child.name")
        let count = try! KeyValuePath("count")
        let objects: [Base] = (0..<64).map { $0 % 2 == 0 ? Base() : Derived() }
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var ok = true
                    for round in 0..<2_000 {
                        let object = objects[(worker + round) % objects.count]
                        if case .string("leaf") = try! path.reading(of: object) {} else { ok = false }
                        if case .number(.integer(1)) = try! count.reading(of: object as Any) {} else { ok = false }
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}

@Suite("KeyValuePath roots of every shape")
struct KeyValuePathRootTests {
    @Test func nilAndNestedRootsAreHandled() throws {
        let path = try KeyValuePath("name")
        guard case .null = try path.reading(of: nil) else { Issue.record("nil root"); return }
        let innerNil: Int? = nil
        guard case .null = try path.reading(of: innerNil as Any) else { Issue.record("nested nil"); return }
        let employee = Employee(name: "Ada")
        let boxedTwice: Any = employee as Any
        guard case .string("Ada") = try path.reading(of: boxedTwice as Any) else { Issue.record("boxed twice"); return }
        let optionalEmployee: Employee? = employee
        guard case .string("Ada") = try path.reading(of: optionalEmployee as Any) else { Issue.record("optional"); return }
        guard case .string("Ada") = try path.reading(of: ["name": "Ada"] as [String: Any]) else { Issue.record("dictionary"); return }
    }
}
