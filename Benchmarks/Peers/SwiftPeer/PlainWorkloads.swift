// Plain Swift: each workload written directly (property access, closures, arrays), the floor
// that the key-value and observation layers are measured against.

import PeerSupport
import Synchronization

@inline(never) func plainName(_ person: SwiftPerson) -> String { person.name }
@inline(never) func plainAge(_ person: SwiftPerson) -> Int { person.age }
@inline(never) func plainSetAge(_ person: SwiftPerson, _ age: Int) { person.age = age }
@inline(never) func plainChain(_ person: SwiftPerson) -> String? { person.department?.manager?.name }
@inline(never) func plainSum(_ transactions: [SwiftTransaction]) -> Double { transactions.reduce(0) { $0 + $1.amount } }
@inline(never) func plainAverage(_ transactions: [SwiftTransaction]) -> Double {
    transactions.isEmpty ? 0 : plainSum(transactions) / Double(transactions.count)
}
@inline(never) func plainMaximum(_ transactions: [SwiftTransaction]) -> Double? {
    transactions.lazy.map { $0.amount }.max()
}
@inline(never) func plainDistinctPayees(_ transactions: [SwiftTransaction]) -> [String] {
    Array(Set(transactions.map { $0.payee }))
}

/// A person whose age setter calls its handlers with the old and new values (the plain Swift
/// form of an observer).
final class HandlerPerson {
    var handlers: [(Int, Int) -> Void] = []
    var age = 0 {
        didSet { for handler in handlers { handler(oldValue, age) } }
    }
}

@inline(never) func handlerSetAge(_ person: HandlerPerson, _ age: Int) { person.age = age }

/// Counts callbacks, so that their work is checked and cannot be dropped.
final class CallbackCounter: Sendable {
    let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
    func reset() { count.store(0, ordering: .relaxed) }
}

func runPlainWorkloads(_ data: PeerDataSet<SwiftPerson, SwiftDepartment, SwiftTransaction>, harness: PeerHarness) {
    let person = data.persons[0]
    let transactions = data.transactions
    // Reads alternate between two persons, so that the optimiser cannot hoist them.
    let pair = Array(data.persons[0...1])
    harness.measure("property_get") { n in
        var sum = 0
        for i in 0..<n { sum &+= plainAge(pair[i & 1]) }
        peerBlackHole(sum)
    }
    harness.measure("kvc_get") { n in for i in 0..<n { peerBlackHole(plainName(pair[i & 1])) } }
    harness.measure("kvc_get_int") { n in
        var sum = 0
        for i in 0..<n { sum &+= plainAge(pair[i & 1]) }
        peerBlackHole(sum)
    }
    let scratch = SwiftPerson(PeerPersonFields.scratch(0))
    let values = (0..<1024).map { $0 }
    harness.measure("kvc_set") { n in for i in 0..<n { plainSetAge(scratch, values[i & 1023]) } }
    harness.measure("kvc_keypath") { n in for _ in 0..<n { peerBlackHole(plainChain(person)) } }
    harness.measure("kvc_sum") { n in for _ in 0..<n { peerBlackHole(plainSum(transactions)) } }
    harness.measure("kvc_avg") { n in for _ in 0..<n { peerBlackHole(plainAverage(transactions)) } }
    harness.measure("kvc_max") { n in for _ in 0..<n { peerBlackHole(plainMaximum(transactions)) } }
    harness.measure("kvc_distinctUnion") { n in for _ in 0..<n { peerBlackHole(plainDistinctPayees(transactions)) } }
    harness.measure("kvo_set_unobserved") { n in for i in 0..<n { plainSetAge(scratch, i) } }

    let counter = CallbackCounter()
    for observers in [1, 10] {
        let observed = HandlerPerson()
        observed.handlers = (0..<observers).map { _ in { old, new in if old != new { counter.increment() } } }
        var sets = 0
        harness.measure("kvo_notify_\(observers)") { n in
            for _ in 0..<n {
                sets += 1
                handlerSetAge(observed, sets)
            }
        }
        precondition(counter.value == sets * observers, "kvo_notify_\(observers): \(counter.value) callbacks")
        counter.reset()
    }

    let persons = data.persons
    harness.measure("predicate_eval", operations: persons.count) { n in
        for _ in 0..<n { peerBlackHole(persons.filter(matchesPredicate)) }
    }
    harness.measure("sort_100k") { n in for _ in 0..<n { peerBlackHole(sortedPersons(persons)) } }
    runPlainUndo(harness: harness)
}

/// The undo workloads with inverses kept as closures in arrays of arrays (one array per group).
final class PlainUndoModel {
    typealias Action = (PlainUndoModel) -> Void
    var value = 0
    var pending: [Action] = []
    var undoGroups: [[Action]] = []
    var redoGroups: [[Action]] = []

    func set(_ newValue: Int) {
        let old = value
        pending.append { $0.set(old) }
        value = newValue
    }

    /// Runs the newest group of `source` in reverse; the inverses it registers become one
    /// group of `destination`.
    func perform(from source: inout [[Action]], to destination: inout [[Action]]) {
        guard let group = source.popLast() else { return }
        for action in group.reversed() { action(self) }
        destination.append(pending)
        pending = []
    }
}

private func runPlainUndo(harness: PeerHarness) {
    let model = PlainUndoModel()
    let count = harness.undoActions
    harness.measurePhases(["undo_register", "undo_undo", "undo_redo"], operations: count) {
        let register = harness.time {
            for value in 1...count {
                model.set(value)
                model.undoGroups.append(model.pending)
                model.pending = []
            }
        }
        precondition(model.value == count, "undo_register: value \(model.value)")
        let undo = harness.time {
            while !model.undoGroups.isEmpty { model.perform(from: &model.undoGroups, to: &model.redoGroups) }
        }
        precondition(model.value == 0, "undo_undo: value \(model.value)")
        let redo = harness.time {
            while !model.redoGroups.isEmpty { model.perform(from: &model.redoGroups, to: &model.undoGroups) }
        }
        precondition(model.value == count, "undo_redo: value \(model.value)")
        model.undoGroups = []
        model.value = 0
        return [register, undo, redo]
    }
}
