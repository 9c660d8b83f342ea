import Foundation
import Testing
import KeyValueCoding
@testable import Predicates

/// Issue 11: an enumeration property compared with an enumeration value. Apple's rule for
/// `@objc` enumerations is that they are their raw (integer) values: a case equals the case
/// and its raw value. Swift enumerations without raw values compare by value.
@Suite("Enumeration constants")
struct EnumConstantTests {
    enum Status: String { case open, closed }
    enum Priority: Int { case low = 0, high = 2 }
    enum Mood: Hashable { case happy, sad }

    final class Ticket: KeyValueCodable {
        var status: Status
        var priority: Priority
        var mood: Mood
        var previous: Status?
        init(_ status: Status, _ priority: Priority, _ mood: Mood, previous: Status? = nil) {
            self.status = status
            self.priority = priority
            self.mood = mood
            self.previous = previous
        }
    }

    let tickets = [Ticket(.open, .low, .happy), Ticket(.closed, .high, .sad, previous: .open),
                   Ticket(.closed, .low, .happy, previous: .closed)]

    private func count(_ format: String, _ arguments: Any?...) throws -> Int {
        try tickets.filtered(using: KeyValuePredicate(format: format, argumentArray: arguments)).count
    }

    @Test func enumerationPropertiesEqualEnumerationValues() throws {
        #expect(try count("status == %@", Status.closed) == 2)
        #expect(try count("status != %@", Status.closed) == 1)
        #expect(try count("status == %@", Status.open) == 1)
        #expect(try count("priority == %@", Priority.high) == 1)
        #expect(try count("priority < %@", Priority.high) == 2)
        #expect(try count("status IN %@", [Status.open, Status.closed]) == 3)
        #expect(try count("previous == %@", Status.open) == 1)
        #expect(try count("previous == status") == 1)
        #expect(try count("mood == %@", Mood.sad) == 1)
        #expect(try count("status == %@ AND mood == %@", Status.closed, Mood.happy) == 1)
        // Raw values against raw values, as before.
        #expect(try count("status == 'closed'") == 2)
        #expect(try count("priority == 2") == 1)
    }

    @Test func enumerationValuesCompareByValueAndRawValue() throws {
        #expect(try holds("SELF == %@", Status.closed, Status.closed))
        #expect(try !holds("SELF == %@", Status.open, Status.closed))
        #expect(try holds("SELF == 'closed'", Status.closed))
        #expect(try holds("SELF == %@", Mood.sad, Mood.sad))
        #expect(try !holds("SELF == %@", Mood.happy, Mood.sad))
        let template = try KeyValuePredicate(format: "status == $wanted")
        #expect(try tickets.filter { try template.evaluate(with: $0, substitutionVariables: ["wanted": Status.closed]) }.count == 2)
        #expect(try template.evaluate(with: ["status": Status.closed], substitutionVariables: ["wanted": Status.closed]))
        #expect(try [Status.open, .closed, .closed].filtered(using: KeyValuePredicate(format: "SELF == %@", Status.closed)).count == 2)
    }

    /// The text of an enumeration constant is its raw value (which it equals), never a bare
    /// word that would read back as a key path.
    @Test func enumerationConstantsFormatAsTheirRawValues() throws {
        let predicate = try KeyValuePredicate(format: "status == %@ AND priority == %@", Status.closed, Priority.high)
        #expect(predicate.predicateFormat == "status == \"closed\" AND priority == 2")
        let reparsed = try KeyValuePredicate(format: predicate.predicateFormat)
        #expect(reparsed == predicate)
        #expect(reparsed.hashValue == predicate.hashValue)
        #expect(try tickets.filtered(using: reparsed).count == 1)
        let mood = try KeyValuePredicate(format: "mood == %@", Mood.sad)
        #expect(mood.predicateFormat == "mood == \"sad\"")
        guard case .constant = try KeyValuePredicate(format: mood.predicateFormat).comparison?.rightExpression else {
            Issue.record("a value without a raw value must format as a constant, not a key path")
            return
        }
    }
}
