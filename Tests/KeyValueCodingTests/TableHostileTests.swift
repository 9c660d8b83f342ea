import Foundation
import Testing
@testable import KeyValueCoding

private final class Wide: KeyValueCodable {
    var a = "a"
    var b = "b"
    var n = 1
}

private final class Bag: KeyValueKeyTableProviding, @unchecked Sendable {
    // @unchecked: used on one thread per test.
    let table: KeyValueKeyTable
    init(_ table: KeyValueKeyTable) { self.table = table }
    var keyValueKeyTable: KeyValueKeyTable { table }
}

@Suite("Key tables under hostile use")
struct TableHostileTests {
    @Test func tablesBuiltConcurrentlyFromOnePropertyEachOwnTheirs() async {
        for _ in 0..<50 {
            let shared = KeyValueProperty(key: "k", type: Int.self, get: { _ in 7 })
            let tables = await withTaskGroup(of: KeyValueKeyTable.self) { group in
                for _ in 0..<4 { group.addTask { KeyValueKeyTable(properties: [shared]) } }
                var made: [KeyValueKeyTable] = []
                for await table in group { made.append(table) }
                return made
            }
            for table in tables {
                #expect(table.property(forKey: "k")?.owner == table.owner)
            }
            #expect(Set(tables.compactMap { $0.property(forKey: "k").map(ObjectIdentifier.init) }).count == 4)
        }
    }

    @Test func aTableRefusesFieldsOfAnotherClass() async {
        await #expect(processExitsWith: .failure) {
            _ = KeyValueKeyTable(properties: KeyValueKeyTable.of(Wide.self).properties)
        }
    }

    @Test func anyTypedAccessorsFlattenOptionals() throws {
        let table = KeyValueKeyTable(properties: [
            KeyValueProperty(key: "pages", type: Any.self, get: { _ in Int?.none as Any }),
        ])
        #expect(try Bag(table).value(forKey: "pages") == nil)
    }

    @Test func decimalNumbersInDistinctUnions() throws {
        let numbers = [NSDecimalNumber(string: "2.5"), NSDecimalNumber(string: "2.5")]
        let union = try KeyValue.value(forKeyPath: "@distinctUnionOfObjects.self", of: numbers) as? [Any]
        #expect(union?.count == 1)
    }
}

private final class Holder2: KeyValueCodable {
    var manager: AnyObject?
    var other: Wide?
}

@Suite("Swift collections never bridge into object-typed properties")
struct CollectionIntoObjectTests {
    @Test func aSetOfDecimalsIntoAnObjectPropertyIsATypeMismatch() {
        let holder = Holder2()
        #expect(throws: KeyValueCodingError.self) { try holder.setValue(Set([Decimal(1.5)]), forKey: "manager") }
        #expect(throws: KeyValueCodingError.self) { try holder.setValue([Decimal(1.5)], forKey: "other") }
        #expect(holder.manager == nil)
    }
}
