import Foundation
import ObjectGraphInternals
import Testing
import TestSupport

/// `AnyContainerMetadata.copy(at:)` (a slot value read by key) and `AnyArrayStorage`
/// (a managed object's slot values dropped by their own types) give what ordinary copies and
/// releases give: the same values, each reference counted once.
@Suite("Optional<Any> containers copied and emptied in place")
struct AnyContainerCopyTests {
    private final class Probe {}

    private struct ThreeWords: Equatable {
        var a = 1, b = 2, c = 3
    }

    /// What a value is, by type and text (an `Any` has no `==`).
    private func summary(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return "\(type(of: value)): \(value)"
    }

    @Test func aCopyIsTheValueTheContainerHolds() {
        let heapText = String(repeating: "not a small string ", count: 3)
        let values: [Any?] = [nil, Int64(5), 2.5, "short", heapText, ThreeWords(), Date(timeIntervalSinceReferenceDate: 9),
                              Data([1, 2, 3]), Optional<Int>.none as Any, [1, 2] as [Int], UUID()]
        values.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let copied = AnyContainerMetadata.copy(at: buffer.baseAddress! + index)
                #expect(summary(copied) == summary(values[index]), "element \(index)")
            }
        }
        // A nil inside an Any is a value, not a nil container.
        let nested: Any? = Optional<Int>.none as Any
        let copied = withUnsafePointer(to: nested) { AnyContainerMetadata.copy(at: $0) }
        #expect(copied != nil)
        #expect(copied.map { $0 as? Int? } == .some(.some(nil)))
    }

    @Test func aCopiedReferenceIsRetainedOnce() {
        let tracker = LifetimeTracker()
        var copy: Any?
        do {
            let container = UnsafeMutablePointer<Any?>.allocate(capacity: 1)
            container.initialize(to: tracker.track(Probe(), "probe"))
            copy = AnyContainerMetadata.copy(at: container)
            container.deinitialize(count: 1)
            container.deallocate()
        }
        #expect(tracker.survivors == ["probe"], "the copy keeps the object")
        #expect(copy is Probe)
        copy = nil
        tracker.expectAllReleased()
    }

    @Test func theStorageLayoutIsAsRead() {
        #expect(AnyArrayStorage.holds, "the array storage facts do not hold on this toolchain")
    }

    /// `values` after `AnyArrayStorage.emptyIfUnique(elements:)`, and its answer. The array
    /// is a local that no closure captures (a variable that `#expect` reads is captured, and an
    /// unoptimised build then holds a second reference while the address is read).
    private func emptying(_ elements: [Any?]) -> (emptied: Bool, values: ContiguousArray<Any?>) {
        // Built by appends here: an array passed in is still held by the caller's copy.
        var values = ContiguousArray<Any?>()
        for element in elements { values.append(element) }
        let elements = values.withUnsafeBufferPointer { $0.baseAddress }
        let emptied = AnyArrayStorage.emptyIfUnique(elements: elements)
        values.append(3)
        return (emptied, values)
    }

    @Test func uniqueStorageIsEmptiedAndItsValuesReleased() {
        let tracker = LifetimeTracker()
        let result = emptying([tracker.track(Probe(), "first"), 7, nil, String(repeating: "heap ", count: 9),
                               tracker.track(Probe(), "second")])
        #expect(result.emptied)
        tracker.expectAllReleased()
        #expect(result.values.count == 1 && result.values[0] as? Int == 3, "the emptied array works as an empty one")
    }

    @Test func sharedStorageIsLeftAlone() {
        let tracker = LifetimeTracker()
        let values: ContiguousArray<Any?> = [tracker.track(Probe(), "probe"), "text"]
        let other = values
        let elements = values.withUnsafeBufferPointer { $0.baseAddress }
        #expect(!AnyArrayStorage.emptyIfUnique(elements: elements))
        #expect(values.count == 2 && other.count == 2)
        #expect(other[0] is Probe && other[1] as? String == "text")
        #expect(tracker.survivors == ["probe"])
    }

    @Test func emptyAndMissingStorageIsLeftAlone() {
        let empty = ContiguousArray<Any?>()
        #expect(!AnyArrayStorage.emptyIfUnique(elements: empty.withUnsafeBufferPointer { $0.baseAddress }))
        #expect(!AnyArrayStorage.emptyIfUnique(elements: nil))
        #expect(ContiguousArray<Any?>().isEmpty)
    }
}
