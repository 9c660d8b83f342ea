import Foundation
import Testing
import KeyValueCoding

/// Dictionaries in key-value coding. Apple: `-[NSDictionary valueForKey:]` is `objectForKey:`,
/// except that a key starting with `@` reads the dictionary's own property (`@count`);
/// `-[NSMutableDictionary setValue:forKey:]` is `setObject:forKey:`, or `removeObjectForKey:`
/// for nil; `setValue:forKeyPath:` sets the last key on what the rest of the path reaches.
@Suite("Dictionaries")
struct DictionaryKeyValueTests {
    final class Settings: KeyValueCodable {
        var dict: [String: Any] = ["a": 1, "inner": ["x": 1] as [String: Any]]
        var counts: [String: Int] = ["a": 1]
        var byAnyKey: [AnyHashable: Any] = ["a": "A", 2: "two"]
        var maybe: [String: Any]?
        var shared = NSMutableDictionary(dictionary: ["a": 1])
        var frozen = NSDictionary(dictionary: ["a": 1])
        var log: [String] = []

        func keyValueWillChange(_ event: KeyValueChangeEvent) { log.append("will \(event.key)") }
        func keyValueDidChange(_ event: KeyValueChangeEvent) { log.append("did \(event.key)") }
    }

    // MARK: Reading

    @Test func swiftDictionariesOfAnyKeyTypeAreReadByKey() throws {
        let settings = Settings()
        #expect(try settings.value(forKeyPath: "dict.a") as? Int == 1)
        #expect(try settings.value(forKeyPath: "dict.inner.x") as? Int == 1)
        #expect(try settings.value(forKeyPath: "dict.missing") == nil)
        #expect(try settings.value(forKeyPath: "byAnyKey.a") as? String == "A")
        #expect(try settings.value(forKeyPath: "byAnyKey.2") == nil)  // keys are strings
        let byNumber: [Int: String] = [1: "one"]
        #expect(try KeyValue.value(forKey: "1", of: byNumber) == nil)
    }

    @Test func foundationDictionariesAreReadByKey() throws {
        let settings = Settings()
        #expect(KeyValueReading(try settings.value(forKeyPath: "frozen.a")).anyValue as? Int == 1)
        #expect(try settings.value(forKeyPath: "frozen.missing") == nil)
        #expect(try settings.value(forKeyPath: "frozen.@count") as? Int == 1)
        let plain = NSDictionary(dictionary: ["name": "Ada"])
        #expect(try KeyValue.value(forKey: "name", of: plain) as? String == "Ada")
    }

    @Test func atKeysReadTheDictionaryItself() throws {
        let settings = Settings()
        #expect(try settings.value(forKeyPath: "dict.@count") as? Int == 2)
        #expect(try settings.value(forKeyPath: "byAnyKey.@count") as? Int == 2)
        let keys = try #require(try settings.value(forKeyPath: "counts.@allKeys") as? [Any])
        #expect(keys.compactMap { $0 as? String } == ["a"])
        let values = try #require(try KeyValue.value(forKey: "@allValues", of: settings.counts) as? [Any])
        #expect(values.compactMap { $0 as? Int } == [1])
        // The path goes on from the property's value: `@allKeys.@count` counts the keys.
        #expect(try KeyValue.value(forKeyPath: "@allKeys.@count", of: settings.dict) as? Int == 2)
        #expect(throws: KeyValueCodingError.undefinedKey("@sum", type: String(reflecting: [String: Int].self))) {
            try KeyValue.value(forKeyPath: "@sum.a", of: settings.counts)
        }
    }

    // MARK: Writing through a key path

    @Test func settingNilRemovesTheEntryThroughTheSetter() throws {
        let settings = Settings()
        try settings.setValue(nil, forKeyPath: "dict.a")
        #expect(settings.dict["a"] == nil)
        #expect(settings.dict.count == 1)
        #expect(settings.log == ["will dict", "did dict"])  // the dictionary was set back
    }

    @Test func settingAValueStoresTheEntry() throws {
        let settings = Settings()
        try settings.setValue("GNUstep", forKeyPath: "dict.Lücke")
        #expect(settings.dict["Lücke"] as? String == "GNUstep")
        #expect(try settings.value(forKeyPath: "dict.Lücke") as? String == "GNUstep")
        try settings.setValue(NSNull(), forKeyPath: "dict.gap")  // stored, as Apple stores it
        #expect(settings.dict["gap"] is NSNull)
        try settings.setValue(2, forKeyPath: "byAnyKey.b")
        #expect(settings.byAnyKey["b"] as? Int == 2)
        try KeyValue.setValue("z", forKeyPath: "dict.inner.y", of: settings)  // nested dictionaries
        let inner = try #require(settings.dict["inner"] as? [String: Any])
        #expect(inner["y"] as? String == "z" && inner["x"] as? Int == 1)
    }

    @Test func typedDictionariesConvertOrRejectTheValue() throws {
        let settings = Settings()
        try settings.setValue(2.9, forKeyPath: "counts.b")  // numbers bridge, truncated
        #expect(settings.counts == ["a": 1, "b": 2])
        #expect(throws: KeyValueCodingError.typeMismatch(
            key: "c", type: String(reflecting: [String: Int].self), expected: "Swift.Int", actual: "Swift.String")) {
            try settings.setValue("three", forKeyPath: "counts.c")
        }
        #expect(settings.counts == ["a": 1, "b": 2])
    }

    @Test func optionalDictionariesAreWrittenBackToo() throws {
        let settings = Settings()
        try settings.setValue(1, forKeyPath: "maybe.a")  // nil: messaging nil does nothing
        #expect(settings.maybe == nil)
        settings.maybe = [:]
        try settings.setValue(1, forKeyPath: "maybe.a")
        #expect(settings.maybe?["a"] as? Int == 1)
    }

    @Test func foundationDictionariesAreChangedInPlaceWhenMutable() throws {
        let settings = Settings()
        try settings.setValue(2, forKeyPath: "shared.b")
        try settings.setValue(nil, forKeyPath: "shared.a")
        #expect(settings.shared.count == 1)
        #expect(KeyValueReading(settings.shared.object(forKey: "b")).anyValue as? Int == 2)
        #expect(throws: KeyValueCodingError.undefinedKey("a", type: String(reflecting: NSDictionary.self))) {
            try settings.setValue(2, forKeyPath: "frozen.a")
        }
        // A Swift set would be bridged into an `NSSet`, which crashes on Linux for decimals.
        #expect(throws: KeyValueCodingError.self) {
            try settings.setValue(Set([Decimal(1.5)]), forKeyPath: "shared.set")
        }
    }

    @Test func aDictionaryThatNoObjectHoldsCannotBeSet() throws {
        #expect(throws: KeyValueCodingError.undefinedKey("a", type: String(reflecting: [String: Int].self))) {
            try KeyValue.setValue(2, forKeyPath: "a", of: ["a": 1] as [String: Int])
        }
    }

    @Test func everyElementOfAnArrayGetsItsDictionaryBack() throws {
        let first = Settings(), second = Settings()
        try KeyValue.setValue(5, forKeyPath: "counts.z", of: [first, second])
        #expect(first.counts["z"] == 5 && second.counts["z"] == 5)
    }

    // MARK: Proxies on dictionary entries

    @Test func arrayProxyCreatesTheEntryOnFirstInsert() throws {
        let settings = Settings()
        let recent = try settings.mutableArrayValue(forKeyPath: "dict.new")
        #expect(recent.isEmpty)
        #expect(recent.key == "new")
        try recent.append("a")
        try recent.insert("b", at: 0)
        #expect(settings.dict["new"] as? [String] == ["b", "a"])
        #expect(recent.count == 2 && recent[0] as? String == "b")
        try recent.remove(at: 0)
        #expect(settings.dict["new"] as? [String] == ["a"])
        #expect(settings.log.filter { $0.hasPrefix("did") } == ["did dict", "did dict", "did dict"])
    }

    @Test func arrayProxyKeepsTheEntrysElementType() throws {
        let settings = Settings()
        settings.dict["numbers"] = [1, 2]
        let numbers = try settings.mutableArrayValue(forKeyPath: "dict.numbers")
        try numbers.append(3)
        #expect(settings.dict["numbers"] as? [Int] == [1, 2, 3])
        #expect(throws: KeyValueCodingError.self) { try numbers.append("four") }
        #expect(throws: KeyValueCodingError.self) { try numbers.append(nil) }
        #expect(settings.dict["numbers"] as? [Int] == [1, 2, 3])
        #expect(throws: KeyValueCodingError.self) { try settings.mutableArrayValue(forKeyPath: "dict.a").append(1) }
    }

    @Test func setProxyCreatesTheEntryOnFirstInsert() throws {
        let settings = Settings()
        let tags = try settings.mutableSetValue(forKeyPath: "dict.tags")
        #expect(tags.count == 0)
        try tags.insert("swift")
        try tags.insert("kvc")
        #expect(tags.members == ["swift", "kvc"])
        settings.dict["typed"] = Set(["x"])
        try settings.mutableSetValue(forKeyPath: "dict.typed").insert("y")
        #expect(settings.dict["typed"] as? Set<String> == ["x", "y"])
    }
}
