import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// Logs what a change sink hears, in order, into a shared log.
final class LoggingSink: KeyValueChangeSink {
    let log: SharedLog
    init(_ log: SharedLog) { self.log = log }

    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {
        log.append("sink will \(event.key)" + describe(event))
    }

    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        log.append("sink did \(event.key)" + describe(event))
    }

    private func describe(_ event: KeyValueChangeEvent) -> String {
        if let mutation = event.setMutation { return " \(mutation.kind) \(mutation.objects.count)" }
        if let indexes = event.indexes { return " \(event.kind) \(Array(indexes))" }
        guard event.suppliesValues else { return "" }
        return " \(String(describing: event.oldValue ?? "nil")) -> \(String(describing: event.newValue ?? "nil"))"
    }
}

/// A log appended to from sinks, hooks and observers (single-threaded tests).
final class SharedLog: @unchecked Sendable {
    // @unchecked: each test uses its log on one thread.
    var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}

/// A model with hooks: it is told of every notified change, and cannot silence observers.
final class HookedModel: KeyValueObservable {
    @Observed var title = ""
    var count = 0
    var items: [Int] = []
    var labels: Set<String> = []
    let log: SharedLog

    init(log: SharedLog) { self.log = log }

    // `count` is changed through key-value coding or between manual pairs only: exposed as a
    // computed key, since a plain stored `var` cannot be observed.
    static var computedKeys: [String: AnyKeyPath] { ["count": \HookedModel.count] }

    func keyValueWillChange(_ event: KeyValueChangeEvent) { log.append("hook will \(event.key)") }
    func keyValueDidChange(_ event: KeyValueChangeEvent) { log.append("hook did \(event.key)") }

    /// Shadows the notifying method: it is not a customisation point, so observers are still told.
    func didChangeValue(forKey key: String) { log.append("shadow did \(key)") }
}

/// A record that keeps its own observation state and supplies its own keys (a managed
/// object's shape): values in an array, reached through accessor properties.
final class StoredRecord: KeyValueObservable, KeyValueKeyTableProviding {
    var values: [Any?] = ["", 0]
    let keyValueObservationStorage: KeyValueObservationStorage? = KeyValueObservationStorage()
    var keyValueKeyTable: KeyValueKeyTable { Self.table }

    static let table = KeyValueKeyTable(properties: [
        KeyValueProperty(key: "name", type: String.self,
                         get: { ($0 as! StoredRecord).values[0] as! String },
                         set: { ($0 as! StoredRecord).values[0] = $1 }),
        KeyValueProperty(key: "rank", type: Int.self,
                         get: { ($0 as! StoredRecord).values[1] as! Int },
                         set: { ($0 as! StoredRecord).values[1] = $1 }),
    ])
}

@Suite("The change seam: hooks, change sink, per-object observation state")
struct ChangeSeamTests {
    @Test func theSinkHearsEveryStorePathBeforeObservers() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        let sink = LoggingSink(log)
        model.setKeyValueChangeSink(sink)
        let token = try model.observe("title", options: [.new]) { _, change in
            log.append("observer title \(change.newValue ?? "nil")")
        }
        defer { token.invalidate() }

        model.title = "A"                              // property syntax on @Observed
        #expect(log.lines == ["hook will title", "sink will title  -> A", "sink did title  -> A",
                              "observer title A", "hook did title"])
        log.lines = []
        try model.setValue("B", forKey: "title")       // key-value coding
        try model.setValue(3, forKey: "count")         // a stored property exposed as a computed key
        #expect(log.lines == ["hook will title", "sink will title A -> B", "sink did title A -> B",
                              "observer title B", "hook did title",
                              "hook will count", "sink will count", "sink did count", "hook did count"])
    }

    @Test func theSinkHearsProxiesAndManualNotifications() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        let sink = LoggingSink(log)
        model.setKeyValueChangeSink(sink)
        try model.mutableArrayValue(forKey: "items").append(7)
        try model.mutableSetValue(forKey: "labels").insert("x")
        model.willChangeValue(forKey: "count")
        model.count = 9
        (model as any KeyValueCodable).didChangeValue(forKey: "count")
        #expect(log.lines.filter { $0.hasPrefix("sink") } == [
            "sink will items insertion [0]", "sink did items insertion [0]",
            "sink will labels union 1", "sink did labels union 1",
            "sink will count", "sink did count",
        ])
    }

    @Test func aShadowingMethodCannotSilenceObservers() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        let recorder = Recorder()
        let token = try model.observe("count", options: [.new], changeHandler: recorder.handler)
        defer { token.invalidate() }
        try model.setValue(5, forKey: "count")
        #expect(recorder.count == 1)
        #expect(recorder.all.first?.newValue as? Int == 5)
        #expect(!log.lines.contains("shadow did count"))
        #expect(log.lines.contains("hook did count"))
    }

    @Test func hooksRunWithoutObserversForKeyValueCodingStores() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        try model.setValue(1, forKey: "count")
        #expect(log.lines == ["hook will count", "hook did count"])
    }

    @Test func theSinkIsHeldWeaklyAndCanBeRemoved() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        weak var released: LoggingSink?
        do {
            let sink = LoggingSink(log)
            released = sink
            model.setKeyValueChangeSink(sink)
            #expect(model.keyValueChangeSink === sink)
        }
        #expect(released == nil)
        #expect(model.keyValueChangeSink == nil)
        model.title = "no sink"
        #expect(!log.lines.contains { $0.hasPrefix("sink") })

        let sink = LoggingSink(log)
        model.setKeyValueChangeSink(sink)
        model.setKeyValueChangeSink(nil)
        try model.setValue(2, forKey: "count")
        #expect(!log.lines.contains { $0.hasPrefix("sink") })
    }

    @Test func objectsWithTheirOwnStateStayOutOfTheTable() throws {
        let record = StoredRecord()
        let recorder = Recorder()
        let token = try record.observe("name", options: [.old, .new], changeHandler: recorder.handler)
        try record.setValue("Ada", forKey: "name")
        #expect(recorder.all.map { $0.newValue as? String } == ["Ada"])
        #expect(recorder.all.map { $0.oldValue as? String } == [""])
        #expect(ObservationTable.shared.existingStorage(of: record) == nil)
        #expect(record.keyValueObservationStorage?.existingObservers(key: "name")?.observerCount == 1)
        token.invalidate()
        #expect(record.keyValueObservationStorage?.existingObservers(key: "name")?.observerCount == 0)
    }

    @Test func recordsWithTheirOwnStateTellTheirSink() throws {
        let log = SharedLog()
        let record = StoredRecord()
        let sink = LoggingSink(log)
        record.setKeyValueChangeSink(sink)
        try record.setValue(4, forKey: "rank")
        try record.setValue("Grace", forKey: "name")
        #expect(log.lines == ["sink will rank", "sink did rank", "sink will name", "sink did name"])
        #expect(ObservationTable.shared.existingStorage(of: record) == nil)
    }

    @Test func observerObjectsOfRecordsWithTheirOwnState() throws {
        final class Watcher: KeyValueObserver, @unchecked Sendable {
            // @unchecked: used on one thread.
            var keys: [String] = []
            func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                              context: UnsafeMutableRawPointer?) {
                keys.append(keyPath)
            }
        }
        let record = StoredRecord()
        let watcher = Watcher()
        try record.addObserver(watcher, forKeyPath: "rank")
        try record.setValue(1, forKey: "rank")
        try record.removeObserver(watcher, forKeyPath: "rank")
        try record.setValue(2, forKey: "rank")
        #expect(watcher.keys == ["rank"])
        #expect(throws: KeyValueObservingError.self) { try record.removeObserver(watcher, forKeyPath: "rank") }
    }
}

@Suite("Hooks on key-value coding stores")
struct HookOnCodingStoreTests {
    @Test func aStoreThroughKeyValueCodingIntoAnUnobservedObservedPropertyTellsTheHooks() throws {
        let log = SharedLog()
        let model = HookedModel(log: log)
        try model.setValue("x", forKey: "title")
        #expect(log.lines == ["hook will title", "hook did title"])
        #expect(model.title == "x")
    }
}
