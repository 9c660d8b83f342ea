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
        #expect(RuntimeLayout.Fact.allCases.count == 6)
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

    private class Base {}
    private final class Derived: Base {}
    private enum Shade { case light, dark }

    /// `holdsExactly` answers as `type(of: value) == T.self` for every way a value is boxed.
    @Test func holdsExactlyAnswersAsTheDynamicType() {
        func same<T>(_ value: Any, _: T.Type, _ note: String) {
            checkEqual(holdsExactly(value, T.self), type(of: value) == T.self, note)
        }
        let derived: Base = Derived()
        let cases: [(Any, String)] = [
            (2.5, "Double"), (Int16(3), "Int16"), ("text", "String"), (Shade.dark, "enum"),
            (Optional(2.5) as Any, "Double? boxed whole"), (boxed(2.5 as Any), "Double nested in Any"),
            (derived, "subclass boxed as its base"), (Plain(), "class"), (NSNumber(value: 2.5), "NSNumber"),
            (NSNull(), "NSNull"), (ThreeWords(), "struct"),
        ]
        for (value, note) in cases {
            same(value, Double.self, note)
            same(value, Int16.self, note)
            same(value, String.self, note)
            same(value, Double?.self, note)
            same(value, Base.self, note)
            same(value, Derived.self, note)
            same(value, NSNull.self, note)
            same(value, Shade.self, note)
        }
        #expect(holdsExactly(derived, Derived.self) && !holdsExactly(derived, Base.self))
        #expect(isNSNull(NSNull()) && !isNSNull(2.5) && !isNSNull(boxed(2.5 as Any)))
    }

    /// The inline reference-count reads hold on this runtime and agree with the runtime's
    /// check: unique when held once, not when held twice or more.
    @Test func strongReferenceCountReadsAgreeWithTheRuntime() {
        #expect(StrongReferenceCount.inlineReadsHold)
        var object = Plain()
        let address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        #expect(!StrongReferenceCount.mayHaveOtherOwners(address) && isKnownUniquelyReferenced(&object))
        var others: [Plain] = []
        for count in 1...3 {
            others.append(object)
            #expect(StrongReferenceCount.mayHaveOtherOwners(address), "held \(count + 1) times")
        }
        others.removeAll()
        #expect(!StrongReferenceCount.mayHaveOtherOwners(address) && isKnownUniquelyReferenced(&object))
        weak let weakReference = object
        others.append(object)
        #expect(StrongReferenceCount.mayHaveOtherOwners(address), "held twice, also weakly")
        others.removeAll()
        #expect(weakReference != nil)
    }
}
