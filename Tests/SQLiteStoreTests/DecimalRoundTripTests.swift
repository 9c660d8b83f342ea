import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore
import SQLCompiling

/// Decimal attributes are REAL columns (as Core Data keeps them); the double written is the one
/// nearest the decimal, so a decimal of up to 15 significant digits reads back exactly (trial 11,
/// F4: 17.17 read back as 17.169999999999998).
@Suite struct DecimalRoundTripTests {
    static let texts = ["17.17", "0.1", "1234567.891", "-42.42", "-0.000123", "123456789012345", "1.5e30", "10.11", "0"]

    @Test func decimalsReadBackExactlyThroughAFreshCoordinator() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Decimals.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            for (i, text) in Self.texts.enumerated() {
                let item = try context.insertNewObject(forEntityNamed: "Item")
                try item.setValue(Decimal(string: text), forKey: "price")
                try item.setValue(Int64(i), forKey: "large")
            }
            try context.save()
        }
        // The file holds the double nearest each decimal (a REAL; the DECIMAL column's numeric
        // affinity keeps an integral one as an INTEGER, as in Apple's stores).
        let stored = try query(url, "SELECT ZLARGE, ZPRICE FROM ZITEM ORDER BY ZLARGE")
        #expect(stored.count == Self.texts.count)
        for row in stored {
            guard case .integer(let i) = row[0] else { continue }
            let expected = Double(Self.texts[Int(i)])!
            switch row[1] {
            case .real(let value): #expect(value == expected, "\(Self.texts[Int(i)])")
            case .integer(let value): #expect(Double(value) == expected && expected == expected.rounded(), "\(Self.texts[Int(i)])")
            default: Issue.record("\(Self.texts[Int(i)]): \(row[1])")
            }
        }
        let (_, context) = try openStack(try Models.library(), at: url)
        let items = try context.fetch(EntityFetchRequest(entityName: "Item"))
        #expect(items.count == Self.texts.count)
        for item in items {
            let i = try #require(item.stored("large") as? Int64)
            #expect(item.stored("price") as? Decimal == Decimal(string: Self.texts[Int(i)]), "\(Self.texts[Int(i)])")
        }
    }

    @Test func theNearestDoubleIsTheParsedText() {
        // Both paths: exact significand and small exponent, and the text (long significands,
        // exponents past ±22).
        for text in Self.texts + ["3.14159265358979", "-1e-20", "0.30000000000000004", "9007199254740993",
                                  "123456789.123456789123", "-7e-30", "1e25", "0.000001"] {
            #expect(Decimal(string: text)!.nearestDouble == Double(text)!, "\(text)")
        }
        #expect(Decimal.nan.nearestDouble.isNaN)
    }
}
