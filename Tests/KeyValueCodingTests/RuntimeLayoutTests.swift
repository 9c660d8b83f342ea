import Foundation
import ObjectGraphInternals
import Testing
import TestSupport
@testable import KeyValueCoding

/// The runtime layout facts that key-value coding reads memory by still hold on this
/// toolchain. A failure names the broken fact; every fast path that relies on it must be
/// revisited before the package is used with the toolchain.
@Suite("Runtime layout facts")
struct RuntimeLayoutTests {
    @Test func everyLayoutFactHolds() {
        let problems = RuntimeLayout.verify()
        for problem in problems {
            Issue.record("A runtime layout fact changed on this toolchain: \(problem)")
        }
        #expect(problems.isEmpty, "\(problems.count) runtime layout problems")
    }

    @Test func everyFactIsChecked() {
        // The self-check names each fact it covers; a new fact needs a check.
        #expect(RuntimeLayout.Fact.allCases.count == 5)
    }

    private final class Plain {}

    private struct ThreeWords: Equatable {
        var a = 1, b = 2, c = 3
    }

    /// A value boxed by generic code: an `Any` inside an `Any` when `T` is `Any`.
    private func boxed<T>(_ value: T) -> Any { value }

    @Test func loadInlineReadsKnownValues() {
        withEvery("value", in: [0, 1, -1, Int.max, Int.min]) { number in
            checkEqual(loadInline(number as Any, as: Int.self), number, "Int")
            checkEqual(loadInline(boxed(number as Any), as: Int.self), number, "Int nested in Any")
        }
        #expect(loadInline(ThreeWords() as Any, as: ThreeWords.self) == ThreeWords())
        #expect(loadInline("text" as Any, as: String.self) == "text")
        #expect(loadInline(Decimal(string: "1.5")! as Any, as: Decimal.self) == Decimal(string: "1.5")!)
        let object = Plain()
        #expect(loadInline(object as Any, as: Plain.self) === object)
    }

    @Test func codableObjectFindsOnlyKeyValueCodableObjects() {
        let employee = Employee()
        let found = codableObject(in: employee as Any?)
        #expect(found.map { $0.takeUnretainedValue() === employee } == true)
        #expect(codableObject(in: nil) == nil)
        #expect(codableObject(in: Plain() as Any?) == nil)
        #expect(codableObject(in: 42 as Any?) == nil)
        #expect(codableObject(in: [employee] as Any?) == nil)
    }
}
