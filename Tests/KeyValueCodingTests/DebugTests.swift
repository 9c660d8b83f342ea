import Testing
@testable import KeyValueCoding

final class Txn: KeyValueCodable {
    var payee = "x"
    var amount = 1.5
}

@Test func fastPathSum() throws {
    let items = (0..<10).map { _ in Txn() }
    var acc = NumericAccumulator()
    let ok = items.keyValueSumStoredNumbers(forKey: "amount", into: &acc)
    #expect(ok)
    let any: Any = items
    let c = try #require(any as? any KeyValueCollection)
    var acc2 = NumericAccumulator()
    #expect(c.keyValueSumStoredNumbers(forKey: "amount", into: &acc2))
}
@Test func fastPathSumThroughPath() throws {
    let items = (0..<10).map { _ in Txn() }
    let v = try KeyValue.value(forKeyPath: "@sum.amount", of: items)
    #expect(v as? Double == 15)
}
