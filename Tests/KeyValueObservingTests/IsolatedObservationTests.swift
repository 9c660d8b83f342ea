import Foundation
import Synchronization
import ObjectGraphInternals
import Testing
import KeyValueCoding
import KeyValueObserving

/// Observation from Swift 6 isolated code: the handler runs on the caller's isolation
/// (issue 11, item 1). This file is compiled in Swift 6 language mode like the whole package.
@Suite("Observation on the caller's isolation")
struct IsolatedObservationTests {
    final class Cart: KeyValueObservable {
        @Observed var total = 0
    }

    /// The user's code from the issue: no [weak self], no assumeIsolated (with `.new`, so that
    /// the change carries the new value).
    @MainActor final class CartView {
        var label = ""
        var labels: [String] = []
        var token: KeyValueObservation?
        func bind(to cart: Cart) throws {
            token = try cart.observe("total", options: [.new]) { _, change in
                self.label = "\(change.newValue ?? 0)"
                self.labels.append(self.label)
            }
        }
    }

    /// The typed form, from a main-actor view model.
    @MainActor final class TypedView {
        var totals: [Int] = []
        var token: KeyValueObservation?
        func bind(to cart: Cart) throws {
            token = try cart.observe(\.total, options: [.initial, .new]) { _, change in
                self.totals.append(change.newValue ?? -1)
            }
        }
    }

    actor Auditor {
        var totals: [Int] = []
        var token: KeyValueObservation?
        fileprivate func watch(_ cart: UncheckedBox<Cart>) throws {
            // The guide's actor example (typed form).
            token = try cart.value.observe(\.total, options: [.new]) { _, change in
                self.totals.append(change.newValue ?? 0)     // runs on the actor
            }
        }
        func stop() { token?.invalidate() }
    }

    /// Lets the main actor run queued jobs until `done` holds (bounded).
    @MainActor
    private static func settle(_ done: () -> Bool) async {
        for _ in 0..<10_000 where !done() { await Task.yield() }
    }

    @MainActor @Test func mainActorChangeIsDeliveredAtOnce() throws {
        let cart = Cart()
        let view = CartView()
        try view.bind(to: cart)
        cart.total = 42
        #expect(view.label == "42")
        try cart.setValue(7, forKey: "total")
        #expect(view.labels == ["42", "7"])
    }

    @MainActor @Test func initialValueIsDeliveredInsideTheCall() throws {
        let cart = Cart()
        cart.total = 3
        let view = TypedView()
        try view.bind(to: cart)
        #expect(view.totals == [3])
        cart.total = 4
        #expect(view.totals == [3, 4])
    }

    @MainActor @Test func changesFromOtherThreadsHopOntoTheMainActorInOrder() async throws {
        let cart = Cart()
        let view = CartView()
        try view.bind(to: cart)
        // `Cart` is not Sendable: the box hands it to one other thread, which alone changes it.
        let shared = UncheckedBox(cart)
        let thread = Thread { for value in 1...50 { shared.value.total = value } }
        thread.start()
        await Self.settle { view.labels.count == 50 }
        #expect(view.labels == (1...50).map(String.init))
    }

    @MainActor @Test func changesMadeOnTheMainActorWaitBehindHoppedOnes() async throws {
        let cart = Cart()
        let view = CartView()
        try view.bind(to: cart)
        let shared = UncheckedBox(cart)
        let finished = Atomic<Bool>(false)
        let thread = Thread {
            shared.value.total = 1
            finished.store(true, ordering: .releasing)
        }
        thread.start()
        while !finished.load(ordering: .acquiring) { usleep(100) }
        // The hop of 1 is queued but the main actor has not run it yet: 2 waits behind it.
        cart.total = 2
        #expect(view.labels.isEmpty)
        await Self.settle { view.labels.count == 2 }
        #expect(view.labels == ["1", "2"])
    }

    @MainActor @Test func invalidatedObservationDropsWaitingChanges() async throws {
        let cart = Cart()
        let view = CartView()
        try view.bind(to: cart)
        let shared = UncheckedBox(cart)
        let finished = Atomic<Bool>(false)
        let thread = Thread {
            shared.value.total = 5
            finished.store(true, ordering: .releasing)
        }
        thread.start()
        while !finished.load(ordering: .acquiring) { usleep(100) }
        view.token?.invalidate()
        for _ in 0..<100 { await Task.yield() }
        #expect(view.labels.isEmpty)
    }

    @Test func actorHandlerRunsOnTheActor() async throws {
        let cart = Cart()
        let auditor = Auditor()
        // The cart is changed outside the actor, so it crosses over in a box.
        try await auditor.watch(UncheckedBox(cart))
        for value in 1...5 { cart.total = value }
        var totals: [Int] = []
        for _ in 0..<10_000 {
            totals = await auditor.totals
            if totals.count == 5 { break }
            await Task.yield()
        }
        #expect(totals == [1, 2, 3, 4, 5])
        await auditor.stop()
    }

    @Test func sendableHandlerValueStillUsesTheNonisolatedForm() throws {
        let cart = Cart()
        let seen = Mutex<[Int]>([])
        // Tracked: the thread sanitizer does not see `Mutex` itself.
        let owner = SeenOwner()
        let handler: @Sendable (Cart, KeyValueChange) -> Void = { _, change in
            seen.withTrackedLock(owner) { $0.append(change.newValue as? Int ?? -1) }
        }
        let token = try cart.observe("total", options: [.new], changeHandler: handler)
        let shared = UncheckedBox(cart)
        let thread = Thread { shared.value.total = 9 }
        thread.start()
        while seen.withTrackedLock(owner, { $0.isEmpty }) { usleep(100) }
        #expect(seen.withTrackedLock(owner) { $0 } == [9])
        token.invalidate()
    }

    @MainActor @Test func changesSequenceIteratesOnTheMainActor() async throws {
        let cart = Cart()
        let view = CartView()
        let changes = try cart.changes(forKeyPath: "total", options: [.new])
        cart.total = 1
        cart.total = 2
        changes.cancel()
        for await change in changes { view.labels.append("\(change.newValue ?? 0)") }
        #expect(view.labels == ["1", "2"])
    }

    @MainActor @Test func valuesSequenceIteratesOnTheMainActor() async throws {
        let cart = Cart()
        var seen: [Int] = []
        let values = try cart.values(for: \.total)
        cart.total = 8
        values.cancel()
        for await total in values { seen.append(total) }
        #expect(seen == [0, 8])
    }
}

/// Hands a non-Sendable test object to one other thread (the test then leaves it alone).
private struct UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked: used only to give an object to a single other thread in tests.
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Names the critical section of a test's mutex for the thread sanitizer.
private final class SeenOwner: Sendable {}
