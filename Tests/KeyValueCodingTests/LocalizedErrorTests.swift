import Foundation
import Testing
import KeyValueCoding

/// `error.localizedDescription` must name the key and the type, as `print(error)` does, not
/// Foundation's generic "The operation could not be completed" (errors are `LocalizedError`).
@Suite("Localized error descriptions")
struct LocalizedErrorTests {
    /// The `localizedDescription` of what `body` throws, checked to be a key-value coding error.
    private func localizedMessage(_ body: () throws -> Void) throws -> String {
        let error = try #require(throws: KeyValueCodingError.self) { try body() }
        let message = (error as any Error).localizedDescription
        #expect(message == String(describing: error))
        #expect(!message.contains("could not be completed"))
        return message
    }

    @Test func undefinedKeyNamesKeyAndType() throws {
        let employee = Employee()
        let message = try localizedMessage { _ = try employee.value(forKey: "salry") }
        #expect(message.contains("'salry'"))
        #expect(message.contains("Employee"))
    }

    @Test func typeMismatchNamesKeyTypeAndValueType() throws {
        let employee = Employee()
        let message = try localizedMessage { try employee.setValue("old", forKey: "age") }
        #expect(message.contains("'age'"))
        #expect(message.contains("Employee"))
        #expect(message.contains("String"))
    }

    /// A new user's trial: the message named `Swift.String` and `Swift.Int` (and the module of
    /// the class); a message shows plain type names, as Swift prints a type.
    @Test func typeMismatchShowsPlainTypeNames() throws {
        let employee = Employee()
        let message = try localizedMessage { try employee.setValue("old", forKey: "age") }
        #expect(message == "cannot set a value of type String for the key 'age' of Employee: expected Int", "\(message)")
        #expect(!message.contains("Swift."))
        let nested = KeyValueCodingError.typeMismatch(
            key: "k", type: "Module.Outer.Inner", expected: "Swift.Optional<Swift.Dictionary<Swift.String, Swift.Int>>",
            actual: "(Swift.Int, Foundation.Date) -> Swift.Int.Type")
        #expect(nested.description == "cannot set a value of type (Int, Date) -> Int.Type for the key 'k' of Inner: "
                + "expected Optional<Dictionary<String, Int>>")
    }

    @Test func readOnlyKeyNamesKeyAndType() throws {
        let employee = Employee()
        let message = try localizedMessage { try employee.setValue("x", forKey: "fullTitle") }
        #expect(message.contains("'fullTitle'"))
        #expect(message.contains("Employee"))
    }

    @Test func validationFailureNamesKeyAndReason() throws {
        let employee = Employee()
        let message = try localizedMessage {
            var value: Any? = -1
            try employee.validateValue(&value, forKey: "age")
        }
        #expect(message.contains("'age'"))
        #expect(message.contains("must not be negative"))
    }

    @Test func unknownOperatorNamesOperatorAndKeyPath() throws {
        let division = Division()
        let message = try localizedMessage { _ = try division.value(forKeyPath: "members.@median.age") }
        #expect(message.contains("@median"))
        #expect(message.contains("members.@median.age"))
    }

    @Test func validatorReasonIsTheLocalizedDescription() {
        let error: any Error = KeyValueValidationError("age must be a whole number")
        #expect(error.localizedDescription == "age must be a whole number")
    }
}
