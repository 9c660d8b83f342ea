import Foundation
import KeyValueCoding
import Synchronization
import Testing
@testable import KeyValueObserving

/// Serialises the tests that change the process-wide nesting settings.
@Suite("Recursion guard", .serialized)
struct RecursionGuardTests {
    final class Counter: KeyValueObservable, @unchecked Sendable {
        // @unchecked: used by one thread at a time (the test's thread).
        @Observed var value = 0
        var manual = 0

        static func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "manual" }
    }

    /// Runs `body` on a thread with a 32 MB stack, so the depth reached does not depend on the
    /// test runner's thread.
    private func onLargeStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 32 << 20
        thread.start()
        done.wait()
    }

    @Test func settingAPropertyInItsOwnHandlerStopsAtTheNestingLimit() throws {
        let counter = Counter()
        let calls = Atomic<Int>(0)
        let events = Mutex<[KeyValueNestingLimitEvent]>([])
        KeyValueObservingDiagnostics.setNestingLimitHandler { event in events.withLock { $0.append(event) } }
        defer { KeyValueObservingDiagnostics.setNestingLimitHandler(nil) }
        let token = try counter.observe("value") { object, _ in
            calls.add(1, ordering: .relaxed)
            object.value += 1
        }
        let limit = KeyValueObservingDiagnostics.maximumNestingDepth
        let before = KeyValueObservingDiagnostics.suppressedNotificationCount
        onLargeStack { counter.value = 1 }
        token.invalidate()
        #expect(calls.load(ordering: .relaxed) == limit)
        #expect(counter.value == limit + 1)
        #expect(KeyValueObservingDiagnostics.suppressedNotificationCount == before + 1)
        let event = try #require(events.withLock { $0.first })
        #expect(event.key == "value")
        #expect(event.depth == limit)
        #expect(event.objectType == String(reflecting: Counter.self))
    }

    @Test func manualNotificationInItsOwnHandlerStopsAtTheNestingLimit() throws {
        let counter = Counter()
        let calls = Atomic<Int>(0)
        KeyValueObservingDiagnostics.setNestingLimitHandler { _ in }
        defer { KeyValueObservingDiagnostics.setNestingLimitHandler(nil) }
        let token = try counter.observe("manual") { object, _ in
            calls.add(1, ordering: .relaxed)
            object.willChangeValue(forKey: "manual")
            object.manual += 1
            object.didChangeValue(forKey: "manual")
        }
        onLargeStack {
            counter.willChangeValue(forKey: "manual")
            counter.manual = 1
            counter.didChangeValue(forKey: "manual")
        }
        token.invalidate()
        #expect(calls.load(ordering: .relaxed) == KeyValueObservingDiagnostics.maximumNestingDepth)
    }

    @Test func nestingDepthIsResetAfterEachChange() throws {
        let counter = Counter()
        let calls = Atomic<Int>(0)
        let token = try counter.observe("value") { _, _ in calls.add(1, ordering: .relaxed) }
        for step in 1...(KeyValueObservingDiagnostics.maximumNestingDepth + 10) { counter.value = step }
        token.invalidate()
        #expect(calls.load(ordering: .relaxed) == KeyValueObservingDiagnostics.maximumNestingDepth + 10)
    }

    @Test func lowerLimitIsHonoured() throws {
        let counter = Counter()
        let calls = Atomic<Int>(0)
        let saved = KeyValueObservingDiagnostics.maximumNestingDepth
        KeyValueObservingDiagnostics.maximumNestingDepth = 10
        KeyValueObservingDiagnostics.setNestingLimitHandler { _ in }
        defer {
            KeyValueObservingDiagnostics.maximumNestingDepth = saved
            KeyValueObservingDiagnostics.setNestingLimitHandler(nil)
        }
        let token = try counter.observe("value") { object, _ in
            calls.add(1, ordering: .relaxed)
            object.value += 1
        }
        counter.value = 1
        token.invalidate()
        #expect(calls.load(ordering: .relaxed) == 10)
        #expect(counter.value == 11)
    }

    /// Runs `body` with the work budget set to `budget` and the handler collecting events.
    private func withBudget(_ budget: Int,
                            _ body: (borrowing Mutex<[KeyValueNestingLimitEvent]>) throws -> Void) rethrows {
        let saved = KeyValueObservingDiagnostics.maximumNotificationsPerChange
        let events = Mutex<[KeyValueNestingLimitEvent]>([])
        KeyValueObservingDiagnostics.maximumNotificationsPerChange = budget
        KeyValueObservingDiagnostics.setNestingLimitHandler { event in events.withLock { $0.append(event) } }
        defer {
            KeyValueObservingDiagnostics.maximumNotificationsPerChange = saved
            KeyValueObservingDiagnostics.setNestingLimitHandler(nil)
        }
        try body(events)
    }

    @Test func twoObserversChangingTheirKeyReturnAtTheDefaultLimits() throws {
        // Without a bound on the work, this makes 2^1001 - 2 handler calls and never returns.
        let counter = Counter()
        let calls = Atomic<Int>(0)
        KeyValueObservingDiagnostics.setNestingLimitHandler { _ in }
        defer { KeyValueObservingDiagnostics.setNestingLimitHandler(nil) }
        let first = try counter.observe("value") { object, _ in
            calls.add(1, ordering: .relaxed)
            object.value += 1
        }
        let second = try counter.observe("value") { object, _ in
            calls.add(1, ordering: .relaxed)
            object.value += 1
        }
        onLargeStack { counter.value = 1 }
        first.invalidate()
        second.invalidate()
        let budget = KeyValueObservingDiagnostics.maximumNotificationsPerChange
        #expect(calls.load(ordering: .relaxed) <= 2 * budget)
        #expect(calls.load(ordering: .relaxed) >= budget)
    }

    @Test func twoObserversChangingTheirKeyMakeTwoCallsPerNotificationInTheBudget() throws {
        try withBudget(100) { events in
            let counter = Counter()
            let calls = Atomic<Int>(0)
            let tokens = try (0..<2).map { _ in
                try counter.observe("value") { object, _ in
                    calls.add(1, ordering: .relaxed)
                    object.value += 1
                }
            }
            let before = KeyValueObservingDiagnostics.suppressedNotificationCount
            onLargeStack { counter.value = 1 }
            for token in tokens { token.invalidate() }
            // 100 notified stores, two handler calls each; each call stores once more.
            #expect(calls.load(ordering: .relaxed) == 200)
            #expect(counter.value == 201)
            #expect(KeyValueObservingDiagnostics.suppressedNotificationCount == before + 101)
            let first = try #require(events.withLock { $0.first })
            #expect(first.limit == .notificationsPerChange)
            #expect(first.key == "value")
            #expect(first.objectType == String(reflecting: Counter.self))
        }
    }

    @Test func priorObserverChangingItsKeyIsBounded() throws {
        try withBudget(50) { events in
            let counter = Counter()
            let calls = Atomic<Int>(0)
            let token = try counter.observe("value", options: [.prior]) { object, _ in
                calls.add(1, ordering: .relaxed)
                object.value += 1
            }
            onLargeStack { counter.value = 1 }
            token.invalidate()
            #expect(calls.load(ordering: .relaxed) == 100)
            #expect(events.withLock { $0.allSatisfy { $0.limit == .notificationsPerChange } })
        }
    }

    @Test func manualNotificationFanOutIsBounded() throws {
        try withBudget(40) { _ in
            let counter = Counter()
            let calls = Atomic<Int>(0)
            let tokens = try (0..<2).map { _ in
                try counter.observe("manual") { object, _ in
                    calls.add(1, ordering: .relaxed)
                    object.willChangeValue(forKey: "manual")
                    object.manual += 1
                    object.didChangeValue(forKey: "manual")
                }
            }
            onLargeStack {
                counter.willChangeValue(forKey: "manual")
                counter.manual = 1
                counter.didChangeValue(forKey: "manual")
            }
            for token in tokens { token.invalidate() }
            #expect(calls.load(ordering: .relaxed) > 0)
            #expect(calls.load(ordering: .relaxed) <= 2 * 40)
        }
    }

    @Test func theBudgetStartsAgainWithEachOutermostChange() throws {
        try withBudget(3) { events in
            let counter = Counter()
            let calls = Atomic<Int>(0)
            let token = try counter.observe("value") { _, _ in calls.add(1, ordering: .relaxed) }
            for step in 1...10 { counter.value = step }
            token.invalidate()
            #expect(calls.load(ordering: .relaxed) == 10)
            #expect(events.withLock { $0.isEmpty })
        }
    }

    @Test func theBudgetIsAtLeastOne() {
        let saved = KeyValueObservingDiagnostics.maximumNotificationsPerChange
        KeyValueObservingDiagnostics.maximumNotificationsPerChange = 0
        #expect(KeyValueObservingDiagnostics.maximumNotificationsPerChange == 1)
        KeyValueObservingDiagnostics.maximumNotificationsPerChange = saved
    }
}
