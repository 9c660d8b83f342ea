import Foundation
import Testing
@testable import KeyValueObserving

/// `error.localizedDescription` must name the key path (and the key and type at fault), as
/// `print(error)` does, not Foundation's generic "The operation could not be completed".
@Suite("Localized error descriptions")
struct LocalizedErrorTests {
    /// The `localizedDescription` of what `body` throws, checked to be a key-value observing error.
    private func localizedMessage(_ body: () throws -> Void) throws -> String {
        let error = try #require(throws: KeyValueObservingError.self) { try body() }
        let message = (error as any Error).localizedDescription
        #expect(message == String(describing: error))
        #expect(!message.contains("could not be completed"))
        return message
    }

    @Test func undefinedKeyNamesKeyKeyPathAndType() throws {
        let person = Person()
        person.department = Department()
        let message = try localizedMessage { _ = try person.observe("department.budget") { _, _ in } }
        #expect(message.contains("'budget'"))
        #expect(message.contains("'department.budget'"))
        #expect(message.contains("Department"))
    }

    @Test func collectionOperatorNamesOperatorAndKeyPath() throws {
        let person = Person()
        let message = try localizedMessage { _ = try person.observe("tags.@max") { _, _ in } }
        #expect(message.contains("'@max'"))
        #expect(message.contains("'tags.@max'"))
    }

    @Test func malformedKeyPathNamesIt() throws {
        let person = Person()
        let message = try localizedMessage { _ = try person.observe("name..first") { _, _ in } }
        #expect(message.contains("'name..first'"))
    }

    @Test func removingAnUnregisteredObserverNamesTheKeyPath() throws {
        let person = Person()
        let inspector = Inspector()
        let message = try localizedMessage { try person.removeObserver(inspector, forKeyPath: "nickname") }
        #expect(message.contains("'nickname'"))
    }
}
