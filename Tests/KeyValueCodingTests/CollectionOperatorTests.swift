import Foundation
import Testing
import KeyValueCoding

/// A checkbook entry, as in the sample data of Apple's Key-Value Coding Programming Guide
/// ("Using Collection Operators"). The data below is written for these tests from the
/// documented table (payee, amount, date) and its documented results.
final class Entry: KeyValueCodable {
    var payee: String
    var amount: Double
    var date: Date
    var memo: String?

    init(_ payee: String, _ amount: Double, _ date: String) {
        self.payee = payee
        self.amount = amount
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        self.date = formatter.date(from: date)!
    }
}

final class Account: KeyValueCodable {
    var transactions: [Entry] = []
    var moreTransactions: [Entry] = []
    var tags: Set<String> = []
}

func day(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.date(from: text)!
}

func checkbook() -> [Entry] {
    [
        Entry("Green Power", 120.00, "2015-12-01"), Entry("Green Power", 150.00, "2016-01-01"),
        Entry("Green Power", 170.00, "2016-02-01"), Entry("Car Loan", 250.00, "2016-01-15"),
        Entry("Car Loan", 250.00, "2016-02-15"), Entry("Car Loan", 250.00, "2016-03-15"),
        Entry("General Cable", 120.00, "2015-12-01"), Entry("General Cable", 155.00, "2016-01-01"),
        Entry("General Cable", 120.00, "2016-02-01"), Entry("Mortgage", 1_250.00, "2016-01-15"),
        Entry("Mortgage", 1_250.00, "2016-02-15"), Entry("Mortgage", 1_250.00, "2016-03-15"),
        Entry("Animal Hospital", 600.00, "2016-07-15"),
    ]
}

func moreCheckbook() -> [Entry] {
    [
        Entry("General Cable - Cottage", 120.00, "2016-12-18"),
        Entry("General Cable - Cottage", 155.00, "2016-01-09"),
        Entry("General Cable - Cottage", 120.00, "2016-12-01"),
        Entry("Second Mortgage", 1_250.00, "2016-11-15"),
        Entry("Second Mortgage", 1_250.00, "2016-09-20"),
        Entry("Second Mortgage", 1_250.00, "2016-02-12"),
        Entry("Hobby Shop", 600.00, "2016-06-14"),
    ]
}

@Suite("Collection operators")
struct CollectionOperatorTests {
    @Test func appleDocumentedAggregates() throws {
        let transactions = checkbook()
        let average = try #require(try KeyValue.value(forKeyPath: "@avg.amount", of: transactions) as? Double)
        #expect((average * 100).rounded() / 100 == 456.54)
        #expect(try KeyValue.value(forKeyPath: "@count", of: transactions) as? Int == 13)
        #expect(try KeyValue.value(forKeyPath: "@max.date", of: transactions) as? Date == day("2016-07-15"))
        #expect(try KeyValue.value(forKeyPath: "@min.date", of: transactions) as? Date == day("2015-12-01"))
        #expect(try KeyValue.value(forKeyPath: "@sum.amount", of: transactions) as? Double == 5_935.00)
    }

    @Test func appleDocumentedObjectOperators() throws {
        let transactions = checkbook()
        let distinct = try #require(try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.payee", of: transactions) as? [Any])
        #expect(Set(distinct.compactMap { $0 as? String })
                == ["Car Loan", "General Cable", "Animal Hospital", "Green Power", "Mortgage"])
        #expect(distinct.count == 5)
        let all = try #require(try KeyValue.value(forKeyPath: "@unionOfObjects.payee", of: transactions) as? [Any])
        #expect(all.compactMap { $0 as? String } == transactions.map(\.payee))
    }

    @Test func appleDocumentedNestingOperators() throws {
        let arrayOfArrays: [[Entry]] = [checkbook(), moreCheckbook()]
        let distinct = try #require(try KeyValue.value(forKeyPath: "@distinctUnionOfArrays.payee", of: arrayOfArrays) as? [Any])
        #expect(Set(distinct.compactMap { $0 as? String }) == [
            "Hobby Shop", "Mortgage", "Animal Hospital", "Second Mortgage", "Car Loan",
            "General Cable - Cottage", "General Cable", "Green Power",
        ])
        #expect(distinct.count == 8)
        let all = try #require(try KeyValue.value(forKeyPath: "@unionOfArrays.payee", of: arrayOfArrays) as? [Any])
        #expect(all.count == 20)
        #expect(all.first as? String == "Green Power")
        #expect(all.last as? String == "Hobby Shop")
        let sets: Set<Set<Int>> = [[1, 2], [2, 3]]
        let union = try #require(try KeyValue.value(forKeyPath: "@distinctUnionOfSets.self", of: Array(sets)) as? Set<AnyHashable>)
        #expect(union == [1, 2, 3])
    }

    @Test func operatorsAfterALeftKeyPath() throws {
        let account = Account()
        account.transactions = checkbook()
        #expect(try account.value(forKeyPath: "transactions.@count") as? Int == 13)
        #expect(try account.value(forKeyPath: "transactions.@sum.amount") as? Double == 5_935)
        #expect(try account.value(forKeyPath: "transactions.@max.payee") as? String == "Mortgage")
        #expect(try account.value(forKeyPath: "transactions.@min.amount") as? Double == 120)
    }

    @Test func countIgnoresTheRightKeyPath() throws {
        #expect(try KeyValue.value(forKeyPath: "@count.whatever.here", of: [1, 2, 3]) as? Int == 3)
    }

    @Test func nilRules() throws {
        let entries = checkbook()
        entries[0].memo = "a"
        entries[1].memo = "b"
        // @min / @max ignore nil; union operators leave nil out.
        #expect(try KeyValue.value(forKeyPath: "@max.memo", of: entries) as? String == "b")
        let memos = try #require(try KeyValue.value(forKeyPath: "@unionOfObjects.memo", of: entries) as? [Any])
        #expect(memos.count == 2)
        // @sum and @avg count nil as 0.
        let numbers: [Int?] = [1, nil, 5]
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: numbers) as? Int == 6)
        #expect(try KeyValue.value(forKeyPath: "@avg.self", of: numbers) as? Double == 2)
    }

    @Test func emptyCollections() throws {
        let empty: [Entry] = []
        #expect(try KeyValue.value(forKeyPath: "@count", of: empty) as? Int == 0)
        #expect(try KeyValue.value(forKeyPath: "@sum.amount", of: empty) as? Int == 0)
        #expect(try KeyValue.value(forKeyPath: "@avg.amount", of: empty) as? Double == 0)
        #expect(try KeyValue.value(forKeyPath: "@max.amount", of: empty) == nil)
        #expect(try KeyValue.value(forKeyPath: "@min.date", of: empty) == nil)
        #expect((try KeyValue.value(forKeyPath: "@unionOfObjects.payee", of: empty) as? [Any])?.isEmpty == true)
    }

    @Test func resultTypes() throws {
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [1, 2, 3]) as? Int == 6)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [1, 2.5]) as? Double == 3.5)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [Decimal(1), Decimal(string: "0.1")!]) as? Decimal
                == Decimal(string: "1.1"))
        #expect(try KeyValue.value(forKeyPath: "@avg.self", of: [1, 2]) as? Double == 1.5)
        #expect(try KeyValue.value(forKeyPath: "@max.self", of: [3, 9.5, 4]) as? Double == 9.5)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: [Int.max, 1]) as? Double == Double(Int.max) + 1)
    }

    @Test func setsGiveSetsForDistinctUnion() throws {
        let account = Account()
        account.tags = ["a", "b"]
        let tags = try #require(try account.value(forKeyPath: "tags.@distinctUnionOfObjects.self") as? Set<AnyHashable>)
        #expect(tags == ["a", "b"])
        #expect(try account.value(forKeyPath: "tags.@count") as? Int == 2)
    }

    @Test func badOperatorsThrow() throws {
        let entries = checkbook()
        #expect(throws: KeyValueCodingError.unknownOperator("@median", keyPath: "@median.amount")) {
            try KeyValue.value(forKeyPath: "@median.amount", of: entries)
        }
        #expect(throws: KeyValueCodingError.missingRightKeyPath(operator: "@sum", keyPath: "@sum")) {
            try KeyValue.value(forKeyPath: "@sum", of: entries)
        }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@sum.payee", of: entries) }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@max.self", of: [1, "a"] as [Any]) }
        #expect(throws: KeyValueCodingError.self) { try entries[0].value(forKeyPath: "@sum.amount") }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@unionOfArrays.x", of: [1, 2]) }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@sum.", of: entries) }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@", of: entries) }
    }

    @Test func operatorOnNilCollectionGivesNil() throws {
        let division = Division()
        #expect(try division.value(forKeyPath: "head.reports.@count") == nil)
    }
}
