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

    @MainActor
    final class NameLabel {
        var text = ""
        private var token: KeyValueObservation?

        func bind(to person: Person) throws {
            token = try person.observe("name", options: [.initial, .new]) { [weak self] _, change in
                let name = change.newValue as? String ?? ""
                MainActor.assumeIsolated { self?.text = name }
            }
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
        let person = Person()
        let label = NameLabel()
        try label.bind(to: person)
        person.name = "Ada"
        #expect(label.text == "Ada")
    }
}
