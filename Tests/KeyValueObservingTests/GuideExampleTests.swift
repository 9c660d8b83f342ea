import Synchronization
import Testing
import KeyValueCoding
import KeyValueObserving

/// Docs/KeyValueObserving.md's examples, kept compiling and true.
@Suite("Observing guide examples")
struct GuideExampleTests {
    final class Account: KeyValueObservable {
        var balance = 0 {
            willSet { willChangeValue(forKey: "balance") }
            didSet { didChangeValue(forKey: "balance") }
        }
        class func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "balance" }
        class var computedKeys: [String: AnyKeyPath] { ["balance": \Account.balance] }
    }

    final class Person: KeyValueObservable {
        @Observed var name = ""
    }

    final class Cart: KeyValueObservable {
        @Observed var total = 0
    }

    /// The guide's first example, as written there.
    @MainActor final class CartView {
        var label = ""
        var token: KeyValueObservation?
        func bind(to cart: Cart) throws {
            token = try cart.observe("total", options: [.new]) { _, change in self.label = "\(change.newValue ?? 0)" }
        }
    }

    @Test func manualNotificationAlsoThroughSetValue() throws {
        let account = Account()
        let seen = Mutex<[Int]>([])
        let token = try account.observe("balance", options: [.new]) { _, change in
            seen.withLock { $0.append(change.newValue as? Int ?? -1) }
        }
        account.balance = 5
        try account.setValue(7, forKey: "balance")
        #expect(account.balance == 7)
        #expect(seen.withLock { $0 } == [5, 7])  // one notification each, through the setter
        token.invalidate()
    }

    @MainActor
    @Test func viewBindingOnTheMainActor() throws {
        let cart = Cart()
        let view = CartView()
        try view.bind(to: cart)
        cart.total = 12
        #expect(view.label == "12")
    }
}
