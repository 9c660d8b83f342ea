import Foundation
import Synchronization
import KeyValueCoding
import Testing
@testable import Predicates

/// A wrapper that key-value coding reads through (as the observing layer's `@Observed`).
@propertyWrapper
struct TestWrapped<Value>: KeyValuePropertyWrapper {
    var wrappedValue: Value
    var keyValueWrappedValue: Value {
        get { wrappedValue }
        set { wrappedValue = newValue }
    }
    static func setKeyValueWrappedValue(_ value: Value, storage: UnsafeMutablePointer<Self>,
                                        object: any KeyValueCodable, key: String) {
        storage.pointee.wrappedValue = value
    }
}

final class TestReading: KeyValueCodable {
    @TestWrapped var score: Int = 7
    @TestWrapped var label: String? = "Seven"
    var ratio: Float = 0.5
    var small: Int8 = -3
    var big: UInt = 12
    var amount: Decimal = 2.5
    var when = Date(timeIntervalSinceReferenceDate: 100)
    var values: [Any?] = [1, "two", nil, 3.5]
    var info: [String: Any] = ["k": 5, "s": "x"]
    var partner: TestReading?
    var doubled: Int { score * 2 }
    var shout: String { (label ?? "").uppercased() }
    static var computedKeys: [String: AnyKeyPath] { ["doubled": \TestReading.doubled, "shout": \TestReading.shout] }
}

/// Wraps a value in another `Any` (as generic code does when its parameter is `Any`).
func nestedAny<T>(_ value: T) -> Any { value }

@Suite("Key-path reading")
struct KeyPathReadingTests {
    @Test func wrappedAndComputedKeys() throws {
        let object = TestReading()
        #expect(try holds("score == 7 AND score > 6.5 AND score IN {1, 7}", object))
        #expect(try holds("label BEGINSWITH[c] 'se' AND label == 'Seven' AND label > 'Apple'", object))
        #expect(try holds("doubled == 14 AND shout == 'SEVEN' AND doubled BETWEEN {14, 20}", object))
        object.label = nil
        #expect(try holds("label == nil AND label != 'Seven' AND shout == ''", object))
        #expect(try !holds("label < 'z' OR label BEGINSWITH 'S' OR label IN {'a', 'b'}", object))
    }

    @Test func numbersOfOtherStoredTypes() throws {
        let object = TestReading()
        #expect(try holds("ratio == 0.5 AND ratio < 1 AND small == -3 AND small < 0", object))
        #expect(try holds("big == 12 AND big > -1 AND amount == 2.5 AND amount > 2", object))
        #expect(try holds("small < big AND ratio < amount AND score == doubled / 2", object))
        #expect(try holds("when == %@ AND when > CAST(0, 'NSDate')", object, Date(timeIntervalSinceReferenceDate: 100)))
        #expect(throws: PredicateEvaluationError.self) { try holds("small < 'a'", object) }
        #expect(throws: PredicateEvaluationError.self) { try holds("label < 5", object) }
    }

    @Test func chainsOfObjects() throws {
        let object = TestReading()
        #expect(try holds("partner == nil AND partner.score == nil AND partner.label != 'x'", object))
        object.partner = TestReading()
        object.partner?.score = 40
        #expect(try holds("partner.score == 40 AND partner.doubled == 80 AND partner.partner.score == nil", object))
        #expect(try holds("partner.score > score AND score < partner.score AND partner != nil", object))
        #expect(try holds("partner == %@", object, object.partner))
        #expect(throws: KeyValueCodingError.self) { try holds("partner.missing == 1", object) }
    }

    @Test func arraysOfMixedValuesAndDictionaries() throws {
        let object = TestReading()
        #expect(try holds("values.@count == 4 AND 'two' IN values AND 3.5 IN values", object))
        #expect(try holds("ANY values == 1 AND ANY values == nil", object))
        #expect(try holds("info.k == 5 AND info.s == 'x' AND info.missing == nil AND info.@count == 2", object))
        let mixed: [Any?] = [["n": 1], ["n": "a"], nil, ["n": NSNull()]]
        #expect(try mixed.filtered(using: KeyValuePredicate(format: "n == 1")).count == 1)
        #expect(try mixed.filtered(using: KeyValuePredicate(format: "n == nil")).count == 2)
        #expect(try mixed.filtered(using: KeyValuePredicate(format: "n == 'a' OR n < 0")).count == 1)
        #expect(throws: PredicateEvaluationError.self) {   // 1 BEGINSWITH 'a': a number is no string
            try mixed.filtered(using: KeyValuePredicate(format: "n BEGINSWITH 'a'"))
        }
    }

    @Test func nestedAnyValues() throws {
        // Values wrapped in `Any` twice are read correctly (key-value coding casts them).
        let values: [String: Any] = ["n": nestedAny(3), "s": nestedAny("abc"), "o": nestedAny(TestReading()),
                                     "a": nestedAny([1, 2] as [Any])]
        #expect(try holds("n == 3 AND n > 2.5 AND s BEGINSWITH 'ab' AND o.score == 7 AND 2 IN a", values))
        let objects: [Any] = [nestedAny(TestReading()), TestReading()]
        #expect(try objects.filtered(using: KeyValuePredicate(format: "score == 7")).count == 2)
        #expect(try holds("SELF == 4", nestedAny(4)))
        let sorted = try [nestedAny(["k": 2]), nestedAny(["k": 1])].sorted(using: [KeyValueSortDescriptor(key: "k")])
        #expect(sorted.map { ($0 as? [String: Int])?["k"] } == [1, 2])
    }

    @Test func malformedKeyPathsThrowWhenEvaluated() throws {
        let bad = KeyValuePredicate(.keyPath("a..b"), .equalTo, 1)
        #expect(throws: KeyValueCodingError.self) { try bad.evaluate(with: TestReading()) }
        let unknown = KeyValuePredicate(.keyPath("values.@nope"), .equalTo, 1)
        #expect(throws: KeyValueCodingError.self) { try unknown.evaluate(with: TestReading()) }
    }

    @Test func concurrentEvaluationOfOneCompiledPredicate() throws {
        // The first evaluations race to compile; all must agree, without a lock per evaluation.
        // A predicate is Sendable: the closure captures it without any unsafe annotation.
        let predicate = try KeyValuePredicate(format: "score > 5 AND label BEGINSWITH 'S'")
        let counts = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let objects = (0..<200).map { _ in TestReading() }
            let count = (try? objects.filtered(using: predicate).count) ?? -1
            counts.withLock { $0.append(count) }
        }
        #expect(counts.withLock { $0 } == [200, 200, 200, 200])
    }
}
