import Foundation
import Testing
import KeyValueCoding

/// Hostile checks of the unknown-property hint (`KeyValueCodingError.undefinedProperty`): odd
/// entities and keys still give a short message, quickly.
@Suite struct HostileSession10PorterHintTests {
    func message(_ key: String, _ properties: [String], entity: String = "Book") -> String {
        KeyValueCodingError.undefinedProperty(key, entity: entity, properties: properties).description
    }

    @Test func anEntityWithoutPropertiesSaysSo() {
        #expect(message("title", []) == "the entity 'Book' has no property 'title' (it has no properties)")
        #expect(message("", [], entity: "").contains("no properties"))
    }

    @Test func aVeryLongKeyAmongManyPropertiesIsQuick() {
        let key = String(repeating: "titlé", count: 2_000)    // 10,000 characters
        let properties = (0..<2_000).map { "property\($0)" }
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = message(key, properties) }
        // A hang guard, not a timing: comparing every property took 18 s; skipping those whose
        // length alone rules them out takes milliseconds, so the bound is far from both.
        #expect(elapsed < .seconds(8), "the hint took \(elapsed)")
        #expect(message(key, properties).hasSuffix(", …)"))
    }

    @Test func aLongKeyCloseToALongPropertyIsStillFound() {
        let property = String(repeating: "ab", count: 300)
        var key = property
        key.removeLast()
        #expect(message(key, ["x", property]).contains("did you mean '\(property)'"))
    }

    @Test func aHugePropertyListShowsOnlyAFew() {
        let properties = (0..<50_000).map { "p\($0)zz" }
        let text = message("qqqqqqqqqqqq", properties)
        #expect(text.count < 200, "\(text.count) characters")
    }

    @Test func nonASCIIKeysAreComparedByCharacter() {
        #expect(message("Größe", ["grösse", "größe"]).contains("did you mean 'größe'"))
        // A decomposed é is the same character as the composed one.
        #expect(message("cafe\u{301}s", ["cafés"]).contains("did you mean 'cafés'"))
        #expect(message("título", ["tìtulo", "name"]).contains("did you mean 'tìtulo'"))
        #expect(message("🍎s", ["🍏s"]).contains("did you mean '🍏s'"))
        // A one-character key: one edit allowed, not a hint for every property.
        #expect(message("x", ["y", "zz"]).contains("did you mean 'y'"))
    }
}
