import Foundation
import ObjectGraph

// The change seam: what a change costs when nobody listens, and what a change sink costs.

private final class ManualModel: KeyValueObservable {
    var balance = 0
    @Observed var title = ""

    // `balance` is notified by hand (a plain stored var cannot be observed otherwise).
    static func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "balance" }
}

private final class CountingSink: KeyValueChangeSink {
    var count = 0
    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {}
    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) { count += 1 }
}

func registerChangeSeamBenchmarks(in suite: BenchmarkSuite) {
    let unobserved = ManualModel()
    let observed = ManualModel()
    let keepObserved = try! observed.observe("balance") { _, _ in }
    let key = identity("balance")
    suite.add("kvo_manual_notify_unobserved", baseline: "black_hole_call", target: .nanoseconds(5),
              note: "a will/did pair on an object nobody observes, while another object is observed",
              body: { n in
                  // The pair as a user writes it around a change, inlined into the loop.
                  let model = identity(unobserved)
                  for _ in 0..<n {
                      model.willChangeValue(forKey: key)
                      model.didChangeValue(forKey: key)
                  }
                  withExtendedLifetime(keepObserved) {}
              },
              baseline: { n in for _ in 0..<n { blackHole(key) } })

    let sinked = ManualModel()
    let sink = CountingSink()
    sinked.setKeyValueChangeSink(sink)
    let plain = ManualModel()
    suite.add("kvo_sink_set", baseline: "kvo_set_unobserved_title", target: .none,
              note: "an @Observed store on an object with a change sink and no observers",
              body: { n in
                  for i in 0..<n { sinked.title = i & 1 == 0 ? "a" : "b" }
                  blackHole(sink.count)
              },
              baseline: { n in for i in 0..<n { plain.title = i & 1 == 0 ? "a" : "b" } })
}
