// The key-value observing workloads on `@Observed` models, and a direct property read and
// store (what Swift's Observation module is compared on).

import ObjectGraph
import PeerSupport
import Synchronization

@inline(never) func readAge(_ person: ObservedPerson) -> Int { person.age }
@inline(never) func storeAge(_ person: ObservedPerson, _ age: Int) { person.age = age }

/// A fresh person outside the data set.
func scratchPerson(_ identifier: Int) -> ObservedPerson {
    ObservedPerson(PeerPersonFields.scratch(identifier))
}

/// Counts callbacks, so that their work is checked and cannot be dropped.
final class CallbackCounter: Sendable {
    let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// `pair`: two persons that the read alternates between, so that the optimiser cannot hoist it.
func runObservingWorkloads(_ pair: [ObservedPerson], harness: PeerHarness) {
    harness.measure("property_get") { n in
        var sum = 0
        for i in 0..<n { sum &+= readAge(pair[i & 1]) }
        peerBlackHole(sum)
    }
    let unobserved = scratchPerson(-1)
    harness.measure("kvo_set_unobserved") { n in for i in 0..<n { storeAge(unobserved, i) } }

    let counter = CallbackCounter()
    let handler: @Sendable (ObservedPerson, KeyValueChange) -> Void = { _, change in
        if change.newValue != nil, change.oldValue != nil { counter.increment() }
    }
    for observers in [1, 10] {
        let observed = scratchPerson(-2)
        let tokens = (0..<observers).map { _ in try! observed.observe("age", options: [.old, .new], changeHandler: handler) }
        var sets = 0
        harness.measure("kvo_notify_\(observers)") { n in
            // A running value, so that every store changes the age.
            for _ in 0..<n {
                sets += 1
                storeAge(observed, sets)
            }
        }
        precondition(counter.value == sets * observers,
                     "kvo_notify_\(observers): \(counter.value) callbacks for \(sets) sets")
        tokens.forEach { $0.invalidate() }
        _ = counter.count.exchange(0, ordering: .relaxed)
    }

    let target = scratchPerson(-3)
    let ageKey = peerOpaque("age")
    harness.measure("kvo_register") { n in
        for _ in 0..<n {
            try! target.observe(ageKey, options: [.old, .new], changeHandler: handler).invalidate()
        }
    }
    let kept = try! target.observe("age", options: [.old, .new], changeHandler: handler)
    harness.measure("kvo_register_kept") { n in
        for _ in 0..<n {
            try! target.observe(ageKey, options: [.old, .new], changeHandler: handler).invalidate()
        }
    }
    kept.invalidate()
    runChainWorkloads(handler: handler, counter: counter, harness: harness)
}

/// An observer of department.manager.name on a root: the leaf set, then the middle link
/// replaced alternately by two managers.
private func runChainWorkloads(handler: @escaping @Sendable (ObservedPerson, KeyValueChange) -> Void,
                               counter: CallbackCounter, harness: PeerHarness) {
    let root = scratchPerson(-4)
    let managers = [scratchPerson(-5), scratchPerson(-6)]
    managers[1].name = "other"
    let department = ObservedDepartment(name: "chain", manager: managers[0])
    root.department = department
    let token = try! root.observe("department.manager.name", options: [.old, .new], changeHandler: handler)
    _ = counter.count.exchange(0, ordering: .relaxed)
    // Running counters, so that every store changes the observed value.
    var changes = 0
    let leaf = managers[0]
    harness.measure("kvo_keypath_chain_leaf") { n in
        for _ in 0..<n {
            changes += 1
            leaf.name = changes & 1 == 0 ? "a" : "b"
        }
    }
    precondition(counter.value == changes, "kvo_keypath_chain_leaf: \(counter.value) callbacks for \(changes) sets")
    _ = counter.count.exchange(0, ordering: .relaxed)
    changes = 0
    harness.measure("kvo_keypath_chain_rewire") { n in
        for _ in 0..<n {
            changes += 1
            department.manager = managers[changes & 1]
        }
    }
    precondition(counter.value == changes, "kvo_keypath_chain_rewire: \(counter.value) callbacks for \(changes) sets")
    token.invalidate()
}
