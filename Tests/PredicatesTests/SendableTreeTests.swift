import Foundation
import Testing
import KeyValueCoding
@testable import Predicates

/// Predicates, expressions and sort descriptors are `Sendable` values; constants are
/// `KeyValueConstant`s; functions are a typed enumeration.
@Suite("Sendable trees, constants and functions")
struct SendableTreeTests {
    private static func requireSendable<T: Sendable>(_: T.Type) {}

    enum Status: String, Sendable { case open, closed }
    struct Point: Hashable, Sendable { var x, y: Int }

    @Test func treeTypesAreSendable() async throws {
        Self.requireSendable(KeyValuePredicate.self)
        Self.requireSendable(KeyValueExpression.self)
        Self.requireSendable(KeyValueComparison.self)
        Self.requireSendable(KeyValueSortDescriptor.self)
        Self.requireSendable(KeyValueConstant.self)
        let predicate = try KeyValuePredicate(format: "age > %d AND name BEGINSWITH %@", 30, "A")
        let descriptor = KeyValueSortDescriptor(key: "age") { a, b in
            let (x, y) = (a as? Int ?? 0, b as? Int ?? 0)
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        }
        // Both cross into a task without any unsafe annotation.
        let result = await Task.detached {
            let people = [TestPerson("Ada", age: 36), TestPerson("Alan", age: 41), TestPerson("Bob", age: 50)]
            let found = (try? people.filtered(using: predicate)) ?? []
            return (try? found.sorted(using: [descriptor.reversed]).map(\.name)) ?? []
        }.value
        #expect(result == ["Alan", "Ada"])
    }

    @Test func valuesAreSortedByKind() throws {
        let table: [(Any?, KeyValueConstant)] = [
        (5, KeyValueConstant.integer(5)), (Int8(-3), .integer(-3)), (UInt64.max, .unsignedInteger(.max)),
        (UInt(7), .integer(7)), (Float(0.5), .double(0.5)), (true, .bool(true)), ("a", .string("a")),
        ("ab".dropFirst(), .string("b")), (nil, .null), (NSNull(), .null), (Optional(Optional(3)) as Any, .integer(3)),
        (Decimal(string: "1.25") as Any, .decimal(Decimal(string: "1.25")!)), (NSNumber(value: 2.5), .double(2.5)),
        (Date(timeIntervalSinceReferenceDate: 9), .date(Date(timeIntervalSinceReferenceDate: 9))),
        (Data([1, 2]), .data(Data([1, 2]))), ([1, "x"] as [Any], .array([1, "x"])),
        (Set([1, 2]), .set([1, 2])), (["k": 1], .dictionary(["k": 1])),
        ]
        for (value, expected) in table {
            let constant = KeyValueConstant(value)
            #expect(constant == expected)
            // The case itself, not only an equal value.
            #expect(String(describing: constant).prefix(6) == String(describing: expected).prefix(6))
        }
    }

    @Test func objectsAndOpaqueValues() throws {
        let person: Any = TestPerson("Ada", age: 36)
        let other: Any = TestPerson("Ada", age: 36)
        guard case .object(let reference) = KeyValueConstant(person) else {
            Issue.record("a class instance is an object reference")
            return
        }
        let same = reference.object === (person as AnyObject)
        #expect(same)
        #expect(KeyValueConstant(person) == KeyValueConstant(person))
        #expect(KeyValueConstant(person) != KeyValueConstant(other))
        let uuid = UUID()
        #expect(KeyValueConstant(uuid) == .uuid(uuid))
        guard case .value(let opaque) = KeyValueConstant(Point(x: 1, y: 2)) else {
            Issue.record("a struct is an opaque value")
            return
        }
        #expect(opaque.base as? Point == Point(x: 1, y: 2))
        #expect(KeyValueConstant(Point(x: 1, y: 2)) == KeyValueConstant(Point(x: 1, y: 2) as Any))
        #expect(KeyValueConstant(Point(x: 1, y: 2)) != KeyValueConstant(Point(x: 2, y: 1)))
    }

    /// Constants are equal when a predicate finds them equal, and equal constants hash alike.
    @Test func constantEqualityFollowsThePredicateRules() throws {
        let groups: [[KeyValueConstant]] = [
            [.integer(1), .double(1), .bool(true), .decimal(1), .unsignedInteger(1)],
            [.array([1, 2]), .set([2, 1])],
            [.string("closed"), KeyValueConstant(Status.closed)],
            [.double(.nan), .double(-.nan)],
            [.double(0), .double(-0.0), .integer(0)],
        ]
        for group in groups {
            for a in group {
                for b in group {
                    #expect(a == b, "\(a) == \(b)")
                    #expect(a.hashValue == b.hashValue, "\(a) and \(b) hash alike")
                }
            }
        }
        #expect(KeyValueConstant.string("1") != .integer(1))
        #expect(KeyValueConstant.array([1, 2]) != .array([2, 1]))
        #expect(KeyValueConstant.array([1, 1]) != .set([1, 2]))
        #expect(KeyValueConstant.dictionary(["a": 1]) != .dictionary(["a": 2]))
    }

    @Test func percentArgumentsStillTakeAnyValue() throws {
        let department = TestDepartment(name: "R&D")
        let ada = TestPerson("Ada", age: 36, department: department)
        #expect(try holds("department == %@", ada, department))
        #expect(try !holds("department == %@", ada, TestDepartment(name: "R&D")))
        #expect(try holds("name IN %@", ada, Set(["Ada", "Grace"])))
        #expect(try holds("age IN %@", ada, [36, 40] as NSArray))
        let predicate = try KeyValuePredicate(format: "department == %@", department)
        guard case .constant(.object(let reference)) = predicate.comparison?.rightExpression else {
            Issue.record("expected an object constant")
            return
        }
        let identical = reference.object === department
        #expect(identical)
    }

    /// The hook a later layer uses: object references swapped for identifiers.
    @Test func mappingConstantsReplacesObjectReferences() throws {
        let department = TestDepartment(name: "R&D")
        let predicate = try KeyValuePredicate(format: "department == %@ AND SUBQUERY(children, $c, $c.department == %@).@count > 0 AND age > 3",
                                              department, department)
        let mapped = predicate.mappingConstants { constant in
            if case .object(let reference) = constant, let found = reference.object as? TestDepartment {
                return .string("id:" + found.name)
            }
            return constant
        }
        #expect(mapped == (try KeyValuePredicate(
            format: "department == 'id:R&D' AND SUBQUERY(children, $c, $c.department == 'id:R&D').@count > 0 AND age > 3")))
        #expect(predicate.mappingConstants { $0 } == predicate)
    }

    @Test func everyFunctionHasABodyAndItsSelector() throws {
        for function in KeyValueExpression.Function.allCases {
            let body = try #require(BuiltinFunction.implementation(of: function), "\(function)")
            #expect(body.arity == function.arity, "\(function)")
            #expect(KeyValueExpression.Function(selector: function.selector) == function)
        }
        #expect(BuiltinFunction.all.count == KeyValueExpression.Function.allCases.count)
        #expect(KeyValueExpression.Function(selector: "nope:") == nil)
        #expect(KeyValueExpression.Function.standardDeviation.selector == "stddev:")
        #expect(KeyValueExpression.Function.add.formatName == "add")
        #expect(try KeyValueExpression(format: "stddev({1, 3})") == .function(.standardDeviation, [[1, 3]]))
        #expect(try KeyValueExpression(format: "random()") == .function(.random, []))
        #expect(try KeyValueExpression(format: "random({1})") == .function(.randomElement, [[1]]))
    }

    @available(*, deprecated)
    @Test func selectorNamesStillBuildFunctions() throws {
        #expect(KeyValueExpression.function("sum:", [[1, 2]]) == .function(.sum, [[1, 2]]))
    }
}
