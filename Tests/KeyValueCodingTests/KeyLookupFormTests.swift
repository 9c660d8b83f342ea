import Foundation
import Testing
@testable import KeyValueCoding

/// A key table finds a key however the caller's string is stored: the same small string
/// (found by its words) or a copy of the same text kept elsewhere (found by comparing).
@Suite("Key look-up by equal strings of any form")
struct KeyLookupFormTests {
    /// A table of short ASCII keys, a long key (kept on the heap) and a non-ASCII one.
    private static func table() -> KeyValueKeyTable {
        let keys = ["i1", "i2", "K1", "t1", "aVeryLongKeyNameOfMoreThanFifteenBytes", "caf\u{E9}"]
        return KeyValueKeyTable(properties: keys.map { key in
            KeyValueProperty(key: key, type: String.self, get: { _ in key })
        })
    }

    /// `text` as a native string on the heap, not a small string (whatever its length).
    private static func heapCopy(_ text: String) -> String {
        var copy = String()
        copy.reserveCapacity(64)
        copy.append(text)
        return copy
    }

    @Test func findsEveryKeyWrittenAlike() {
        let table = Self.table()
        for key in ["i1", "i2", "K1", "t1", "aVeryLongKeyNameOfMoreThanFifteenBytes", "caf\u{E9}"] {
            #expect(table.property(forKey: key)?.key == key)
        }
    }

    @Test func findsKeysStoredOtherwise() {
        let table = Self.table()
        for key in ["i2", "K1", "aVeryLongKeyNameOfMoreThanFifteenBytes", "caf\u{E9}"] {
            let copy = Self.heapCopy(key)
            #expect(table.property(forKey: copy)?.key == key)
        }
    }

    @Test func missesKeysItDoesNotHave() {
        let table = Self.table()
        for key in ["i3", "k1", "", "caf", Self.heapCopy("t2"), "aVeryLongKeyNameOfMoreThanFifteenBytez"] {
            #expect(table.property(forKey: key) == nil)
        }
    }
}
