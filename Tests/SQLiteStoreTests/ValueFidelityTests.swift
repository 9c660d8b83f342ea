import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore
import SQLCompiling

/// What an SQLite round trip does to the values Core Data's layout cannot hold exactly
/// (trial12 N6): a NaN decimal is refused at save (never read back as nil), a decimal with more
/// digits than a double keeps is rounded to the nearest double (as on Apple, whose decimal
/// column is a REAL too), and -0.0 reads back as 0.0 (SQLite keeps an integral REAL as an
/// INTEGER, which has no sign), equal to it everywhere.
@Suite struct ValueFidelityTests {
    @Test func aNaNDecimalIsRefusedAtSaveNamingEntityKeyAndValue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("NaN.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        let kept = try context.insertNewObject(forEntityNamed: "Item")
        try kept.setValue("kept", forKey: "name")
        try context.save()
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setValue(Decimal.nan, forKey: "price")
        try kept.setValue("changed", forKey: "name")
        let failure = try #require(throws: SQLiteStoreError.self) { try context.save() }
        let message = failure.localizedDescription
        #expect(message.contains("Item.price"), "\(message)")
        #expect(message.contains("NaN"), "\(message)")
        #expect(message.contains("decimal"), "\(message)")
        // Nothing of the failed save reached the file; the context keeps its changes.
        #expect(try query(url, "SELECT COUNT(*) FROM ZITEM").first?.first == .integer(1))
        #expect(try query(url, "SELECT ZNAME FROM ZITEM").first?.first == .text("kept"))
        #expect(context.hasChanges)
        // A NaN double is not taken by the decimal attribute at all (out of range when set).
        #expect(throws: (any Error).self) { try item.setValue(Double.nan, forKey: "price") }
        // nil and numbers save.
        try item.setValue(nil, forKey: "price")
        try context.save()
        let (_, fresh) = try openStack(try Models.library(), at: url)
        #expect(try fresh.existingObject(with: item.objectID).value(forKey: "price") == nil)
    }

    @Test func aLongDecimalReadsBackAsTheNearestDouble() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Long.sqlite")
        let texts = ["123456789012345678901234567890.123", "0.1234567890123456789012345678901", "-98765432109876543.21"]
        let (_, context) = try openStack(try Models.library(), at: url)
        var items: [ManagedObject] = []
        for text in texts {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Decimal(string: text)!, forKey: "price")
            items.append(item)
        }
        try context.save()
        // What the column holds is the double nearest the text (a REAL, or an INTEGER when
        // that double is integral: the DECIMAL column's numeric affinity); what reads back is
        // that double, as its shortest text or its exact integer.
        func isStored(_ value: Decimal?, _ text: String) -> Bool {
            guard let value else { return false }
            return value.nearestDouble == Double(text)! && value != Decimal(string: text)!
        }
        for (text, item) in zip(texts, items) {
            // Until refetched the context keeps the value it was given, and so does the
            // coordinator's row cache (it keeps the rows as saved: a fault filled from it too).
            #expect(item.stored("price") as? Decimal == Decimal(string: text))
            context.refresh(item, mergeChanges: false)
            let cached = try item.value(forKey: "price") as? Decimal
            #expect(cached == Decimal(string: text), "\(text): \(String(describing: cached))")
        }
        // A fault filled from the store, and a fresh stack, read what the store holds.
        context.stalenessInterval = 0
        for (text, item) in zip(texts, items) {
            context.refresh(item, mergeChanges: false)
            let refreshed = try item.value(forKey: "price") as? Decimal
            #expect(isStored(refreshed, text), "\(text): \(String(describing: refreshed))")
        }
        let (_, fresh) = try openStack(try Models.library(), at: url)
        for (text, item) in zip(texts, items) {
            let read = try fresh.existingObject(with: item.objectID).value(forKey: "price") as? Decimal
            #expect(isStored(read, text), "\(text): \(String(describing: read))")
        }
        #expect(try fresh.existingObject(with: items[0].objectID).value(forKey: "price") as? Decimal
                    == Decimal(string: "123456789012345680000000000000"))
    }

    @Test func negativeZeroReadsBackAsZeroAndComparesEqual() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Zero.sqlite")
        let (_, context) = try openStack(try Models.library(), at: url)
        for (index, ratio) in [0.0, -0.0, 0.5, -0.5, -0.0].enumerated() {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(ratio, forKey: "ratio")
            try item.setValue(Float(ratio), forKey: "weight")
            try item.setValue(Int64(index), forKey: "large")
        }
        try context.save()
        // SQLite keeps the integral REAL -0.0 as the INTEGER 0: the sign is gone from the file,
        // as it is from Apple's stores (same column affinity).
        let rows = try query(url, "SELECT ZLARGE, typeof(ZRATIO), ZRATIO FROM ZITEM ORDER BY ZLARGE")
        #expect(rows[1][2].doubleValue == 0)
        let (_, fresh) = try openStack(try Models.library(), at: url)
        let byLarge = [KeyValueSortDescriptor(key: "large")]
        let all = try fresh.fetch(EntityFetchRequest(entityName: "Item", sortDescriptors: byLarge))
        let ratios = all.compactMap { $0.stored("ratio") as? Double }
        #expect(ratios == [0, 0, 0.5, -0.5, 0])
        #expect(ratios[1].sign == .plus)
        #expect((all[1].stored("weight") as? Float).map { $0 == 0 } == true)
        // Equality and order agree with memory, where -0.0 == 0.0: every zero matches both.
        let written = [0.0, -0.0, 0.5, -0.5, -0.0]
        for format in ["ratio == 0", "ratio == -0.0", "ratio <= -0.0", "ratio >= 0", "ratio < 0", "ratio > -0.0",
                       "weight == -0.0", "ratio IN {-0.0}"] {
            let predicate = try KeyValuePredicate(format: format)
            let request = EntityFetchRequest(entityName: "Item", predicate: predicate, sortDescriptors: byLarge)
            let fetched = try fresh.fetch(request).compactMap { $0.stored("large") as? Int64 }
            let inMemory = try written.indices.filter { index in
                try predicate.evaluate(with: ["ratio": written[index], "weight": Float(written[index])])
            }.map(Int64.init)
            #expect(fetched == inMemory, "\(format)")
        }
        let sorted = [KeyValueSortDescriptor(key: "ratio"), KeyValueSortDescriptor(key: "large", ascending: false)]
        let sqlOrder = try fresh.fetch(EntityFetchRequest(entityName: "Item", sortDescriptors: sorted)).compactMap { $0.stored("large") as? Int64 }
        #expect(sqlOrder == [3, 4, 1, 0, 2])
    }
}
