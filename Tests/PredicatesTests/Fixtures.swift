import Foundation
import KeyValueCoding
@testable import Predicates

final class TestDepartment: KeyValueCodable {
    var name: String
    var budget: Double
    init(name: String, budget: Double = 0) {
        self.name = name
        self.budget = budget
    }
}

final class TestPerson: KeyValueCodable {
    var name: String
    var age: Int
    var nickname: String?
    var department: TestDepartment?
    var children: [TestPerson]
    var tags: [String]
    var active: Bool

    init(_ name: String, age: Int, nickname: String? = nil, department: TestDepartment? = nil,
         children: [TestPerson] = [], tags: [String] = [], active: Bool = true) {
        self.name = name
        self.age = age
        self.nickname = nickname
        self.department = department
        self.children = children
        self.tags = tags
        self.active = active
    }
}

/// Parses and evaluates in one step.
func holds(_ format: String, _ object: Any?, _ arguments: Any?...) throws -> Bool {
    try KeyValuePredicate(format: format, argumentArray: arguments).evaluate(with: object)
}

/// Parses a format string and returns its canonical text.
func canonical(_ format: String, _ arguments: Any?...) throws -> String {
    try KeyValuePredicate(format: format, argumentArray: arguments).predicateFormat
}
