import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// A refused change (a to-many mutator or an accessor setter that throws) must not reach
/// observers as if it happened: Apple's observers hear only of changes made.
private final class RefusingShelf: KeyValueObservable, @unchecked Sendable {
    // @unchecked: used on one thread.
    var tags: [String] = []
    var limit: Int { 3 }

    class func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "tags" }

    class var toManyMutators: [String: KeyValueToManyMutators] {
        ["tags": .array(KeyValueArrayMutators(RefusingShelf.self, String.self,
            insert: { shelf, tag, index in
                guard tag.count <= shelf.limit else { throw TooLong() }
                shelf.tags.insert(tag, at: index)
            },
            remove: { shelf, index in shelf.tags.remove(at: index) }))]
    }

    struct TooLong: Error {}
}

@Suite("Refused changes are not reported as made")
struct RefusedChangeTests {
    @Test func aRefusedInsertionReachesNoObserver() throws {
        let shelf = RefusingShelf()
        let recorder = Recorder()
        let token = try shelf.observe("tags", options: [.new], changeHandler: recorder.handler)
        defer { token.invalidate() }
        try shelf.insertValue("ok", at: 0, inPropertyWithKey: "tags")
        #expect(throws: RefusingShelf.TooLong.self) { try shelf.insertValue("far too long", at: 0, inPropertyWithKey: "tags") }
        #expect(shelf.tags == ["ok"])
        #expect(recorder.count == 1)
        #expect(recorder.all.first?.newValue as? [String] == ["ok"])
    }

    @Test func aBatchStopsAtTheRefusedElementAndReportsOnlyWhatHappened() throws {
        let shelf = RefusingShelf()
        let recorder = Recorder()
        let token = try shelf.observe("tags", options: [.new], changeHandler: recorder.handler)
        defer { token.invalidate() }
        #expect(throws: RefusingShelf.TooLong.self) {
            try shelf.mutableArrayValue(forKey: "tags").insert(["a", "bbbbbb", "c"], at: IndexSet([0, 1, 2]))
        }
        #expect(shelf.tags == ["a"])
        #expect(recorder.all.map { $0.indexes.map { Array($0) } ?? [] } == [[0]])
        #expect(recorder.all.map { $0.newValue as? [String] ?? [] } == [["a"]])
    }

    @Test func aRefusingAccessorSetterIsCancelledForObserversAndTheSink() throws {
        struct Refused: Error {}
        final class Gate: KeyValueObservable, KeyValueKeyTableProviding, @unchecked Sendable {
            // @unchecked: used on one thread.
            var value = 1
            let keyValueObservationStorage: KeyValueObservationStorage? = KeyValueObservationStorage()
            var keyValueKeyTable: KeyValueKeyTable { Self.table }
            static let table = KeyValueKeyTable(properties: [
                KeyValueProperty(key: "value", type: Int.self, get: { ($0 as! Gate).value },
                                 set: { gate, new in
                                     if new < 0 { throw Refused() }
                                     (gate as! Gate).value = new
                                 }),
            ])
        }
        let gate = Gate()
        let recorder = Recorder()
        let token = try gate.observe("value", options: [.prior, .new], changeHandler: recorder.handler)
        defer { token.invalidate() }
        let log = SharedLog()
        let sink = CancellationLog(log)
        gate.setKeyValueChangeSink(sink)
        #expect(throws: Refused.self) { try gate.setValue(-1, forKey: "value") }
        #expect(gate.value == 1)
        #expect(recorder.all.filter { !$0.isPrior }.isEmpty)
        #expect(log.lines == ["will value", "cancelled value"])
        try gate.setValue(5, forKey: "value")
        #expect(recorder.all.filter { !$0.isPrior }.map { $0.newValue as? Int } == [5])
    }
}

private final class CancellationLog: KeyValueChangeSink {
    let log: SharedLog
    init(_ log: SharedLog) { self.log = log }
    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {
        log.append("will \(event.key)")
    }
    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        log.append((event.isCancelled ? "cancelled " : "did ") + event.key)
    }
}

/// A sink that changes the object it hears about must be bounded like observers are.
private final class EchoSink: KeyValueChangeSink {
    var calls = 0
    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {}
    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        calls += 1
        let account = object as! Account
        account.balance += 1  // notifies manually (willSet/didSet): re-enters the sink
    }
}

@Suite("Change sinks under hostile use")
struct HostileSinkTests {
    @Test func anOwnStorageMadeOnEachAccessIsAClearFailure() async {
        await #expect(processExitsWith: .failure) {
            final class Fickle: KeyValueObservable {
                @Observed var v = 0
                var keyValueObservationStorage: KeyValueObservationStorage? { KeyValueObservationStorage() }
            }
            _ = try? Fickle().observe("v") { _, _ in }
        }
    }
}

// In the serialized recursion-guard suite: it hits the nesting limit, whose counters are global.
extension RecursionGuardTests {
    @Test func aSinkThatChangesItsObjectIsBoundedByTheNestingLimit() throws {
        let account = Account()
        let sink = EchoSink()
        account.setKeyValueChangeSink(sink)
        let before = KeyValueObservingDiagnostics.suppressedNotificationCount
        account.balance = 1
        #expect(sink.calls > 1)
        #expect(sink.calls <= KeyValueObservingDiagnostics.maximumNestingDepth + 1)
        #expect(KeyValueObservingDiagnostics.suppressedNotificationCount > before)
    }

}
