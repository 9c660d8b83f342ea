import Foundation
import Testing
import KeyValueCoding

/// Accessor properties of optional type: `value(forKey:)` gives the wrapped value or `nil`,
/// never an `Optional` inside an `Any` (Apple: an object or `nil`, whatever the declared type).
@Suite struct OptionalAccessorTests {
    final class Holder: KeyValueKeyTableProviding, @unchecked Sendable {
        // @unchecked: each test uses its holder on one thread.
        var count: Int? = 3
        var name: String? = "kept"
        var nested: Int?? = .some(.some(7))
        var anything: Any? = Optional<String>.some("deep")
        let table: KeyValueKeyTable

        init() {
            table = KeyValueKeyTable(properties: [
                KeyValueProperty(key: "count", type: Int?.self, get: { ($0 as! Holder).count },
                                 set: { ($0 as! Holder).count = $1 }),
                KeyValueProperty(key: "name", type: String?.self, get: { ($0 as! Holder).name }),
                KeyValueProperty(key: "nested", type: Int??.self, get: { ($0 as! Holder).nested }),
                KeyValueProperty(key: "anything", type: Any?.self, get: { ($0 as! Holder).anything }),
            ])
        }

        var keyValueKeyTable: KeyValueKeyTable { table }
    }

    @Test func optionalKeysReadTheirWrappedValue() throws {
        let holder = Holder()
        let count = try holder.value(forKey: "count")
        #expect(count as? Int == 3)
        #expect(!(count.map { type(of: $0) == Int?.self } ?? true), "the value is unwrapped, not an Int? in an Any")
        #expect(try holder.value(forKey: "name") as? String == "kept")
        holder.count = nil
        holder.name = nil
        #expect(try holder.value(forKey: "count") == nil)
        #expect(try holder.value(forKey: "name") == nil)
    }

    @Test func nestedOptionalsAndAnyAreFlattenedEveryLevel() throws {
        let holder = Holder()
        #expect(try holder.value(forKey: "nested") as? Int == 7)
        #expect(try holder.value(forKey: "anything") as? String == "deep")
        holder.nested = .some(nil)
        holder.anything = Optional<String>.none
        #expect(try holder.value(forKey: "nested") == nil)
        #expect(try holder.value(forKey: "anything") == nil)
    }

    @Test func anOptionalKeyStoresAndReadsBack() throws {
        let holder = Holder()
        try holder.setValue(9, forKey: "count")
        #expect(try holder.value(forKey: "count") as? Int == 9)
        try holder.setValue(nil, forKey: "count")
        #expect(holder.count == nil)
    }
}
