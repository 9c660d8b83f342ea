// Undo benchmarks: registering, undoing and redoing one-action groups, against the same
// closures kept in plain Swift arrays of arrays (registering also with notifications watched,
// and posted to Foundation's center); and a property set recorded by the undo recorder, against
// the same set unobserved. See Docs/Performance.md ("Undo").

import Foundation
import ObjectGraph

/// A model whose setter registers its inverse with an undo history.
private final class UndoBenchModel {
    let history: UndoHistory
    var value = 0

    init(history: UndoHistory) { self.history = history }

    /// Throws only when no group is open with `groupsByEvent` off; the benchmarks always have
    /// one open, and undo handlers register while undoing, which never throws.
    func set(_ newValue: Int) throws(UndoError) {
        let old = value
        try history.registerUndo(withTarget: self) { try? $0.set(old) }
        value = newValue
    }
}

/// The baseline: the same model, its inverses kept in plain arrays of closures.
private final class PlainUndoModel {
    typealias Action = (PlainUndoModel) -> Void
    var value = 0
    /// Inverses registered while performing one group.
    var pending: [Action] = []
    var undoGroups: [[Action]] = []
    var redoGroups: [[Action]] = []

    func set(_ newValue: Int) {
        let old = value
        pending.append { $0.set(old) }
        value = newValue
    }

    /// Runs the newest group of `from` in reverse and files its inverses as one group on `to`.
    func perform(from source: inout [[Action]], to destination: inout [[Action]]) {
        guard let group = source.popLast() else { return }
        var index = group.count
        while index > 0 {
            index -= 1
            group[index](self)
        }
        destination.append(pending)
        pending = []
    }

    func undoAll() {
        while !undoGroups.isEmpty { perform(from: &undoGroups, to: &redoGroups) }
    }

    func redoAll() {
        while !redoGroups.isEmpty { perform(from: &redoGroups, to: &undoGroups) }
    }
}

/// Builds a value on first use, so filtered-out workloads cost nothing.
private final class LazyFixture<Value> {
    private var value: Value?
    private let make: () -> Value
    init(_ make: @escaping () -> Value) { self.make = make }
    var wrapped: Value {
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}

func registerUndoBenchmarks(in suite: BenchmarkSuite) {
    let count = identity(1_000_000)
    registerRegistrationBenchmark(in: suite, name: "undo_register", count: count,
                                  posting: .unobserved, target: .ratio(5), note: "notifications unobserved")
    registerRegistrationBenchmark(in: suite, name: "undo_register_notifying", count: count / 10,
                                  posting: .hubInUse, target: .nanoseconds(1_000),
                                  note: "default center, other names observed")
    registerRegistrationBenchmark(in: suite, name: "undo_register_foundation", count: count / 10,
                                  posting: .foundationDefault, target: .none,
                                  note: "NotificationCenter.default: 5 posts per group")
    registerCycleBenchmark(in: suite, name: "undo_undo", count: count, startWithRedo: false)
    registerCycleBenchmark(in: suite, name: "undo_redo", count: count, startWithRedo: true)
    registerRecordedSetBenchmark(in: suite, count: identity(1_000))
}

/// A model whose property the undo recorder watches.
private final class RecordedBenchModel: KeyValueObservable {
    @Observed var value = 0
}

/// One store, not inlined, so the optimiser cannot fold the baseline's loop into its last store.
@inline(never)
private func recordedBenchSet(_ model: RecordedBenchModel, _ value: Int) {
    model.value = value
}

/// `undo_recorded_set`: stores into an `@Observed` property that an `UndoRecorder` records (a
/// key-value notification with old and new values, then one registration into the event group),
/// against the same store into an unobserved instance. Each iteration makes `count` sets as one
/// event group, closes it and empties the history.
private func registerRecordedSetBenchmark(in suite: BenchmarkSuite, count: Int) {
    let fixture = LazyFixture { () -> (UndoRecorder, RecordedBenchModel, RecordedBenchModel) in
        let recorder = UndoRecorder(history: UndoHistory(notificationCenter: nil))
        let recorded = RecordedBenchModel()
        try? recorder.record(recorded, keys: ["value"])
        return (recorder, recorded, RecordedBenchModel())
    }
    suite.add("undo_recorded_set", baseline: "unobserved_set", operationsPerIteration: count,
              target: .none, note: "\(count) sets per event group, then removeAllActions; notifications unobserved",
              body: { iterations in
        let (recorder, model, _) = fixture.wrapped
        let history = recorder.history
        for _ in 0..<iterations {
            for value in 0..<count { recordedBenchSet(model, value) }
            try? history.closeEventGroup()
            blackHole(history.undoCount)
            history.removeAllActions()
        }
        blackHole(model.value)
    }, baseline: { iterations in
        let plain = fixture.wrapped.2
        for _ in 0..<iterations {
            for value in 0..<count { recordedBenchSet(plain, value) }
            blackHole(plain.value)
        }
    })
}

/// Where the registration benchmarks' notifications go.
private enum Posting {
    /// The default history, nobody observing undo notifications: each post is one atomic load.
    case unobserved
    /// The default history while `UndoNotificationCenter.shared` has an observer, of a name the
    /// workload does not post (as an app watching undo and redo for its menus): each post checks
    /// the name.
    case hubInUse
    /// `notificationCenter = .default`, where Apple posts: every notification is posted.
    case foundationDefault
}

/// begin / register / end, `count` times per iteration; then everything is removed.
private func registerRegistrationBenchmark(in suite: BenchmarkSuite, name: String, count: Int,
                                           posting: Posting, target: BenchmarkTarget, note: String) {
    let history = UndoHistory(notificationCenter: posting == .foundationDefault ? .default : nil)
    // Each begin/end is a step of its own, not nested in an event group.
    history.groupsByEvent = false
    let model = UndoBenchModel(history: history)
    let plain = PlainUndoModel()
    suite.add(name, baseline: "array_of_arrays_append", operationsPerIteration: count, target: target,
              note: note,
              body: { iterations in
        // Observed only while this workload runs, so the other workloads see no observer.
        let token = posting == .hubInUse
            ? UndoNotificationCenter.shared.addObserver(forName: UndoHistory.didUndoChangeNotification,
                                                        object: nil, queue: nil) { _ in }
            : nil
        for _ in 0..<iterations {
            for value in 0..<count {
                history.beginUndoGrouping()
                try? model.set(value)
                try? history.endUndoGrouping()
            }
            blackHole(history.undoCount)
            history.removeAllActions()
        }
        if let token { UndoNotificationCenter.shared.removeObserver(token) }
    }, baseline: { iterations in
        for _ in 0..<iterations {
            for value in 0..<count {
                plain.set(value)
                plain.undoGroups.append(plain.pending)
                plain.pending = []
            }
            blackHole(plain.undoGroups.count)
            plain.undoGroups = []
        }
    })
}

/// A full cycle over `count` one-action groups: undo all then redo all (`undo_undo`), or redo
/// all then undo all (`undo_redo`). Each action re-registers its inverse. The harness times
/// whole bodies, so each line covers both directions; ns/op is per undo-or-redo step.
private func registerCycleBenchmark(in suite: BenchmarkSuite, name: String, count: Int,
                                    startWithRedo: Bool) {
    // The model is returned too: the history holds targets weakly.
    let fixture = LazyFixture { () -> (UndoHistory, UndoBenchModel, PlainUndoModel) in
        let history = UndoHistory(notificationCenter: nil)
        history.groupsByEvent = false
        let model = UndoBenchModel(history: history)
        let plain = PlainUndoModel()
        for value in 1...count {
            history.beginUndoGrouping()
            try? model.set(value)
            try? history.endUndoGrouping()
            plain.set(value)
            plain.undoGroups.append(plain.pending)
            plain.pending = []
        }
        if startWithRedo {
            while history.canUndo { try? history.undo() }
            plain.undoAll()
        }
        return (history, model, plain)
    }
    let order = startWithRedo ? "redo all, then undo all" : "undo all, then redo all"
    suite.add(name, baseline: "array_of_arrays_call", operationsPerIteration: 2 * count,
              target: .ratio(5), note: "\(order); notifications unobserved",
              body: { iterations in
        let history = fixture.wrapped.0
        for _ in 0..<iterations {
            if startWithRedo {
                while history.canRedo { try? history.redo() }
                while history.canUndo { try? history.undo() }
            } else {
                while history.canUndo { try? history.undo() }
                while history.canRedo { try? history.redo() }
            }
        }
        blackHole(fixture.wrapped.1.value)
    }, baseline: { iterations in
        let plain = fixture.wrapped.2
        for _ in 0..<iterations {
            if startWithRedo {
                plain.redoAll()
                plain.undoAll()
            } else {
                plain.undoAll()
                plain.redoAll()
            }
        }
        blackHole(plain.value)
    })
}
