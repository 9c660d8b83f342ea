import Synchronization
import Testing
import KeyValueCoding
import KeyValueObserving

/// The README's API example, kept compiling and true.
@Suite("README example")
struct ReadmeExampleTests {
    final class Account: KeyValueObservable {
        @Observed var owner = ""
        @Observed var balance = 0.0
        var transactions: [Double] = []
    }

    @Test func readmeExampleWorks() throws {
        let account = Account()
        let seen = Mutex<[String]>([])
        let token = try account.observe("balance", options: [.old, .new]) { _, change in
            seen.withLock { $0.append("\(change.oldValue ?? "-") → \(change.newValue ?? "-")") }
        }
        account.balance = 10
        try account.setValue(25, forKey: "balance")
        try account.setValue([5.0, 20.0], forKey: "transactions")
        #expect(try account.value(forKeyPath: "transactions.@sum.self") as? Double == 25)
        token.invalidate()
        account.balance = 1
        #expect(seen.withLock { $0 } == ["0.0 → 10.0", "10.0 → 25.0"])
    }
}
