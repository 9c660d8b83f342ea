import Foundation
import Synchronization
import Testing
@testable import KeyValueCoding

/// Deeply nested Foundation arrays reach the nesting limit's clear error instead of exhausting
/// the stack while being converted.
@Suite("Deeply nested Foundation collections")
struct DeepFoundationNestingTests {
    @Test func deepNSArraysThrowTheNestingError() {
        // Built and released on a large stack: releasing 20,000 nested arrays recurses in
        // Foundation itself, which a test thread's stack cannot hold.
        let outcome = Mutex<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var deep: NSArray = NSArray(array: [1])
            for _ in 0..<20_000 { deep = NSArray(array: [deep]) }
            var results: [Bool] = []
            do { _ = try KeyValue.value(forKeyPath: "count", of: deep); results.append(false) } catch { results.append(true) }
            results.append((try? KeyValue.value(forKeyPath: "@count", of: [deep])) as? Int == 1)
            outcome.withLock { $0 = results }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        #expect(outcome.withLock { $0 } == [true, true])
    }
}
