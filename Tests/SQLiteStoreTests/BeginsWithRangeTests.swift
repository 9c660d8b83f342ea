import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A case- and diacritic-sensitive `BEGINSWITH` with an ASCII prefix is decided by SQLite
/// itself (a BINARY range) where the text goes on with an ASCII character, and by the
/// evaluator's own comparison otherwise: either way exactly the objects the in-memory
/// evaluation selects (combining accents after the prefix, `\r\n`, NUL, wildcard characters,
/// the largest code points, empty text, nil).
@Suite struct BeginsWithRangeTests {
    static let names: [String?] = [
        nil, "", "a", "ab", "apple", "Apple", "a\u{301}pple", "a\u{301}", "ab\u{301}", "a\u{200D}\u{1F600}", "a\u{FE0F}",
        "a*b", "a?c", "a[1]", "a\u{0}z", "a\u{0}", "\u{0}a", "a\r\nb", "a\r", "~x", "\u{7F}", "\u{80}", "a\u{80}",
        "a\u{FFFF}", "a\u{10FFFF}", "\u{10FFFF}", "\u{10FFFF}z", "\u{FFFF}", "\u{E9}t\u{E9}", "e\u{301}t\u{E9}",
        "\u{212A}iwi", "Kiwi", "b", "ba", "`x", ";x",
    ]

    static let prefixes: [String] = [
        "a", "ab", "ap", "A", "a*", "a?", "a[", "a\u{0}", "\u{0}", "a\r", "~", "\u{7F}", "\u{7E}", "\u{E9}", "e",
        "\u{10FFFF}", "a\u{10FFFF}", "\u{FFFF}", "", "Ki", "K", "apple", "a\u{301}", "b", "`", ";", "z",
    ]

    /// A store of one item per name, and its context's objects.
    static func stocked(_ directory: TemporaryDirectory) throws -> (SQLitePersistentStore, [ManagedObject]) {
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = SQLitePersistentStore(url: directory.file("BeginsWith.sqlite"), evaluatesPredicatesInSQL: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        for name in names {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(name, forKey: "name")
        }
        try context.save()
        return (store, try context.fetch(EntityFetchRequest(entityName: "Item")))
    }

    static func check(_ predicate: KeyValuePredicate, store: SQLitePersistentStore, objects: [ManagedObject]) throws {
        let expected = Set(try objects.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: predicate))
        #expect(result.appliedPredicate, "\(predicate)")
        let found = Set(result.rows.map(\.objectID))
        #expect(found == expected, "\(predicate): \(found.subtracting(expected).count) extra, \(expected.subtracting(found).count) missing")
        let count = try store.fetch(StoreFetchRequest(entityNames: ["Item"], predicate: predicate, resultType: .count))
        #expect(count.count == expected.count, "\(predicate) count")
    }

    @Test func prefixesSelectWhatTheEvaluatorSelects() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, objects) = try Self.stocked(directory)
        for prefix in Self.prefixes {
            for format in ["name BEGINSWITH %@", "NOT (name BEGINSWITH %@)", "name BEGINSWITH %@ OR name == nil",
                           "name BEGINSWITH[n] %@"] {
                try Self.check(try KeyValuePredicate(format: format, prefix), store: store, objects: objects)
            }
        }
    }

    @Test func aNilPrefixSelectsWhatTheEvaluatorSelects() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, objects) = try Self.stocked(directory)
        for format in ["name BEGINSWITH nil", "NOT (name BEGINSWITH nil)"] {
            try Self.check(try KeyValuePredicate(format: format), store: store, objects: objects)
        }
    }

    /// The evaluator's rules the range relies on, stated directly: text going on with a
    /// combining accent or after `\r` does not begin with the shorter prefix.
    @Test func theEvaluatorKeepsWholeCharacters() throws {
        let item = ["a\u{301}pple", "a\r\nb", "apple"]
        let prefixes = ["a", "a\r", "a"]
        let answers = try zip(item, prefixes).map { name, prefix in
            try KeyValuePredicate(format: "SELF BEGINSWITH %@", prefix).evaluate(with: name)
        }
        #expect(answers == [false, false, true])
    }
}
