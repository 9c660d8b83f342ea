// Swift's Observation module: a read and a store with nothing tracking, and per change 1 or 10
// `withObservationTracking { read } onChange: { count += 1 }` followed by a store.

import Observation
import PeerSupport

@inline(never) func trackedAge(_ person: TrackedPerson) -> Int { person.age }
@inline(never) func trackedSetAge(_ person: TrackedPerson, _ age: Int) { person.age = age }

func runObservationWorkloads(harness: PeerHarness) {
    let person = TrackedPerson(PeerPersonFields.scratch(0))
    // Two persons, alternated, so that the optimiser cannot hoist the read.
    let pair = [person, TrackedPerson(PeerPersonFields.scratch(1))]
    harness.measure("property_get") { n in
        var sum = 0
        for i in 0..<n { sum &+= trackedAge(pair[i & 1]) }
        peerBlackHole(sum)
    }
    harness.measure("kvo_set_unobserved") { n in for i in 0..<n { trackedSetAge(person, i) } }
    let counter = CallbackCounter()
    for observers in [1, 10] {
        var sets = 0
        harness.measure("kvo_notify_\(observers)") { n in
            for _ in 0..<n {
                for _ in 0..<observers {
                    withObservationTracking { _ = person.age } onChange: { counter.increment() }
                }
                sets += 1
                trackedSetAge(person, sets)
            }
        }
        precondition(counter.value == sets * observers, "kvo_notify_\(observers): \(counter.value) callbacks")
        counter.reset()
    }
    harness.note("kvo_notify_1", "withObservationTracking per change (one-shot), then a set")
}
