import Foundation
import Testing
import KeyValueCoding

/// Messages that say why an existing property is not a key, or why a value cannot be set
/// (issue 11, item 3c), and property observers run through computed keys (item 3b).
@Suite("Error explanations")
struct ErrorExplanationTests {
    final class Delegate {}

    enum Suit: String { case clubs, hearts }
    enum Rank: Int { case ace = 1, king = 13 }

    struct Point { var x = 1; var y = 2 }

    final class Card: KeyValueCodable {
        weak var delegate: Delegate?
        unowned var owner: Delegate
        lazy var cache = 7
        var suit = Suit.clubs
        var rank = Rank.ace
        var position = Point()
        var title: String { "\(rank) of \(suit)" }

        init(owner: Delegate) { self.owner = owner }
    }

    /// The message of what `body` throws, checked to be the same through every way of reading it.
    private func message(_ body: () throws -> Void) throws -> (KeyValueCodingError, String) {
        let error = try #require(throws: KeyValueCodingError.self) { try body() }
        let text = (error as any Error).localizedDescription
        #expect(text == String(describing: error))
        return (error, text)
    }

    @Test func weakAndUnownedPropertiesSayWhyTheyAreNotKeys() throws {
        let owner = Delegate()
        let card = Card(owner: owner)
        let (error, text) = try message { _ = try card.value(forKey: "delegate") }
        guard case .notAKey("delegate", let type, _) = error else {
            Issue.record("expected notAKey, got \(error)")
            return
        }
        #expect(type == String(reflecting: Card.self))
        #expect(text.contains("'delegate'"))
        #expect(text.contains("weak or unowned"))
        #expect(text.contains("computedKeys"))
        let (_, unowned) = try message { try card.setValue(owner, forKey: "owner") }
        #expect(unowned.contains("'owner'") && unowned.contains("weak or unowned"))
        withExtendedLifetime(owner) {}
    }

    @Test func lazyPropertySaysWhyItIsNotAKey() throws {
        let owner = Delegate()
        let (_, text) = try message { _ = try Card(owner: owner).value(forKey: "cache") }
        #expect(text.contains("'cache'"))
        #expect(text.contains("lazy"))
    }

    @Test func unlistedComputedPropertyIsExplained() throws {
        let owner = Delegate()
        let (error, text) = try message { _ = try Card(owner: owner).value(forKey: "title") }
        #expect(error == .undefinedKey("title", type: String(reflecting: Card.self)))
        #expect(text.contains("'title'"))
        #expect(text.contains("computedKeys"))
    }

    @Test func stringThatIsNotARawValueIsNamed() throws {
        let owner = Delegate()
        let card = Card(owner: owner)
        let (error, text) = try message { try card.setValue("club", forKey: "suit") }
        #expect(error == .invalidRawValue(key: "suit", type: String(reflecting: Card.self),
                                          expected: String(reflecting: Suit.self), value: "\"club\""))
        #expect(text.contains("\"club\""))
        #expect(text.contains("not a raw value of"))
        #expect(text.contains("Suit"))
        try card.setValue("hearts", forKey: "suit")
        #expect(card.suit == .hearts)
    }

    @Test func numberThatIsNotARawValueIsNamed() throws {
        let owner = Delegate()
        let card = Card(owner: owner)
        let (_, text) = try message { try card.setValue(99, forKey: "rank") }
        #expect(text.contains("99") && text.contains("Rank") && text.contains("'rank'"))
        // A value of another type is still a type mismatch.
        let (mismatch, _) = try message { try card.setValue(Date(), forKey: "suit") }
        guard case .typeMismatch = mismatch else {
            Issue.record("expected typeMismatch, got \(mismatch)")
            return
        }
    }

    @Test func structReachedThroughAKeyPathIsReadOnly() throws {
        let owner = Delegate()
        let card = Card(owner: owner)
        let (error, text) = try message { try card.setValue(5, forKeyPath: "position.x") }
        #expect(error == .readOnlyValue(key: "x", type: String(reflecting: Point.self)))
        #expect(text.contains("'x'"))
        #expect(text.contains("value type"))
        // A key the struct does not have is still undefined.
        let (missing, _) = try message { try card.setValue(5, forKeyPath: "position.z") }
        #expect(missing == .undefinedKey("z", type: String(reflecting: Point.self)))
        #expect(card.position.x == 1)
    }

    // MARK: Property observers (item 3b)

    final class Thermostat: KeyValueCodable {
        var log: [String] = []
        /// Listed in computedKeys: key-value coding stores through the setter, observers run.
        var target = 20 {
            willSet { log.append("will target \(newValue)") }
            didSet { log.append("did target \(oldValue)") }
        }
        /// Not listed: key-value coding stores into the field, observers do not run.
        var offset = 0 {
            didSet { log.append("did offset") }
        }

        static var computedKeys: [String: AnyKeyPath] { ["target": \Thermostat.target] }
    }

    @Test func computedKeyOverAStoredPropertyRunsItsObservers() throws {
        let thermostat = Thermostat()
        try thermostat.setValue(22, forKey: "target")
        #expect(thermostat.target == 22)
        #expect(thermostat.log == ["will target 22", "did target 20"])
    }

    @Test func unlistedStoredPropertyIsStoredWithoutItsObservers() throws {
        let thermostat = Thermostat()
        try thermostat.setValue(3, forKey: "offset")
        #expect(thermostat.offset == 3)
        #expect(thermostat.log.isEmpty)
    }
}
