// Key-value observing workloads; see Docs/Performance.md.
import Foundation
import Observation
import ObjectGraph

private final class ObservedPerson: KeyValueObservable {
    @Observed var name = ""
    @Observed var age = 0
    @Observed var department: ObservedDepartment?
}

private final class ObservedDepartment: KeyValueObservable {
    @Observed var name = ""
    @Observed var manager: ObservedPerson?
}

/// A record with eight observed properties: the registration workload's object.
private final class ObservedRecord: KeyValueObservable {
    @Observed var name = ""
    @Observed var age = 0
    @Observed var email = ""
    @Observed var city = ""
    @Observed var score = 0.0
    @Observed var isActive = false
    @Observed var rank = 0
    @Observed var note: String?
}

/// The baseline for a plain store.
private final class PlainPerson {
    var age = 0
}

@inline(never)
private func plainSet(_ person: PlainPerson, _ value: Int) {
    person.age = value
}

@inline(never)
private func observedSet(_ person: ObservedPerson, _ value: Int) {
    person.age = value
}

@inline(never)
private func plainGet(_ person: PlainPerson) -> Int {
    person.age
}

@inline(never)
private func observedGet(_ person: ObservedPerson) -> Int {
    person.age
}

@Observable
private final class TrackedPerson {
    var age = 0
}

/// Counts callbacks so that their work cannot be dropped.
private final class Counter: @unchecked Sendable {
    // @unchecked: benchmarks run on one thread.
    var count = 0
}

func registerKeyValueObservingBenchmarks(in suite: BenchmarkSuite) {
    let plain = PlainPerson()
    let unobserved = ObservedPerson()
    suite.add("kvo_set_unobserved", baseline: "plain_stored_set", target: .ratio(3),
              body: { n in
                  for i in 0..<n { observedSet(unobserved, i) }
                  blackHole(unobserved.age)
              },
              baseline: { n in
                  for i in 0..<n { plainSet(plain, i) }
                  blackHole(plain.age)
              })

    // Two objects, alternated, so that the optimiser cannot hoist the (read-only) call.
    let plainPair = [PlainPerson(), PlainPerson()]
    let observedPair = [ObservedPerson(), ObservedPerson()]
    suite.add("kvo_get_unobserved", baseline: "plain_stored_get", target: .none,
              note: "the getter keeps a key path",
              body: { n in
                  var sum = 0
                  for i in 0..<n { sum &+= observedGet(observedPair[i & 1]) }
                  blackHole(sum)
              },
              baseline: { n in
                  var sum = 0
                  for i in 0..<n { sum &+= plainGet(plainPair[i & 1]) }
                  blackHole(sum)
              })

    // One observer with old and new values.
    let observed = ObservedPerson()
    let counter = Counter()
    let handler: @Sendable (ObservedPerson, KeyValueChange) -> Void = { _, change in
        if change.newValue != nil { counter.count &+= 1 }
    }
    let token = try! observed.observe("age", options: [.old, .new], changeHandler: handler)
    suite.add("kvo_notify_1", baseline: "direct_callback", target: .ratio(5),
              body: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              },
              baseline: { n in
                  let direct = identity(handler)
                  for i in 0..<n {
                      let old = plain.age
                      plain.age = i
                      direct(observed, KeyValueChange(kind: .setting, oldValue: old, newValue: i))
                  }
                  blackHole(counter.count)
              })

    let tracked = TrackedPerson()
    suite.add("kvo_notify_1_vs_observation", baseline: "withObservationTracking", target: .ratio(0.1),
              body: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              },
              baseline: { n in
                  for i in 0..<n {
                      withObservationTracking { _ = tracked.age } onChange: { counter.count &+= 1 }
                      tracked.age = i
                  }
                  blackHole(counter.count)
              })

    let crowded = ObservedPerson()
    let tokens = (0..<10).map { _ in try! crowded.observe("age", options: [.old, .new], changeHandler: handler) }
    // Sanity checks: the workloads really notify.
    let before = counter.count
    observedSet(observed, -1)
    observedSet(crowded, -1)
    precondition(counter.count == before + 11, "kvo benchmarks: observers were not notified")
    suite.add("kvo_notify_10", baseline: "kvo_notify_1", target: .ratio(10),
              body: { n in
                  for i in 0..<n { observedSet(crowded, i) }
                  blackHole(counter.count)
                  blackHole(tokens)
              },
              baseline: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              })

    let target = ObservedRecord()
    let recordHandler: @Sendable (ObservedRecord, KeyValueChange) -> Void = { _, change in
        if change.newValue != nil { counter.count &+= 1 }
    }
    suite.add("kvo_register", baseline: "kvo_notify_1", target: .nanoseconds(600),
              note: "add + remove, 8 @Observed properties; GNUstep ~1300 ns",
              body: { n in
                  for _ in 0..<n {
                      let registration = try! target.observe(identity("age"), options: [.old, .new],
                                                             changeHandler: recordHandler)
                      registration.invalidate()
                  }
              },
              baseline: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              })

    // A 3-link key path: person.department.manager.name
    let root = ObservedPerson()
    let managers = [ObservedPerson(), ObservedPerson()]
    let department = ObservedDepartment()
    department.manager = managers[0]
    root.department = department
    let chainToken = try! root.observe("department.manager.name", options: [.old, .new], changeHandler: handler)
    let beforeChain = counter.count
    managers[0].name = "x"
    department.manager = managers[1]
    managers[0].name = "y"
    managers[1].name = "z"
    department.manager = managers[0]
    precondition(counter.count == beforeChain + 4, "kvo benchmarks: the chain did not notify as expected")
    suite.add("kvo_chain3_leaf", baseline: "kvo_notify_1", target: .none, note: "GNUstep ~3800 ns",
              body: { n in
                  let leaf = managers[0]
                  for i in 0..<n { leaf.name = i & 1 == 0 ? "a" : "b" }
                  blackHole(counter.count)
                  blackHole(chainToken)
              },
              baseline: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              })
    suite.add("kvo_chain3_rewire", baseline: "kvo_notify_1", target: .none, note: "GNUstep ~23600 ns",
              body: { n in
                  for i in 0..<n { department.manager = managers[i & 1] }
                  blackHole(counter.count)
                  blackHole(chainToken)
              },
              baseline: { n in
                  for i in 0..<n { observedSet(observed, i) }
                  blackHole(counter.count)
                  blackHole(token)
              })
    // The tokens are kept alive by the closures above (each ends with `blackHole(token)`):
    // released here, the workloads would time stores that no one observes.
}
