// Runs deeply nested parses on a thread with a large stack.
import Foundation

/// Runs work on a dedicated thread with a large stack and waits for it.
///
/// The parser recurses once per bracket level (bounded by `PredicateParser.maximumDepth`).
/// Threads of the Swift concurrency pool and test runners can have small stacks, so a format
/// string whose brackets nest deeply is parsed on its own thread instead.
enum LargeStack {
    /// The stack size of the helper thread.
    static let stackSize = 64 << 20

    /// A value handed to the helper thread and back.
    ///
    /// `@unchecked Sendable`: the helper thread writes `result` before signalling the
    /// semaphore, and the caller reads it only after waiting on it, so the two never touch it
    /// at the same time (the semaphore orders the accesses). `work` is called once, on the
    /// helper thread, while the caller is blocked.
    private final class Handoff<Value>: @unchecked Sendable {
        var work: (() -> Value)?
        var result: Value?
        let done = DispatchSemaphore(value: 0)
    }

    /// Calls `work` on a thread with a ``stackSize`` stack and returns its result.
    static func run<Value>(_ work: @escaping () -> Value) -> Value {
        let handoff = Handoff<Value>()
        handoff.work = work
        let thread = Thread {
            handoff.result = handoff.work?()
            handoff.work = nil
            handoff.done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        handoff.done.wait()
        guard let result = handoff.result else { preconditionFailure("the helper thread did not run") }
        return result
    }
}
