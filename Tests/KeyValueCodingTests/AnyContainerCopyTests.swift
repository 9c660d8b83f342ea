import Foundation
import ObjectGraphInternals
import Testing
import TestSupport

/// `AnyContainerMetadata.copy(at:)` (a slot value read by key) gives what an ordinary copy
/// gives: the same value, each reference counted once. (Emptying a value array in place is
/// `AnyArrayTeardownTests`.)
@Suite("Optional<Any> containers copied in place")
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
}
