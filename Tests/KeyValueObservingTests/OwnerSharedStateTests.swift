import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// A key-value object that keeps its own observation state, made when first needed, and can
/// share an owner's change sink (a managed object's shape).
final class OwnedRecord: KeyValueObject, KeepsOwnObservationStorage, @unchecked Sendable {
    // @unchecked: the concurrency test only observes it from several threads; its values are
    // changed on one thread at a time.
    var name = ""
    var rank = 0

    override init() {
        super.init()
        keepOwnObservationStorage()
    }

    // Changed through key-value coding only: exposed as computed keys (a plain stored `var`
    // cannot be observed).
    override class var computedKeys: [String: AnyKeyPath] { ["name": \OwnedRecord.name, "rank": \OwnedRecord.rank] }
}

@Suite("Observation state made when first needed, and an owner's shared state")
struct OwnerSharedStateTests {
    /// The log's lines without the values a sink's events may carry.
    static func phases(_ log: SharedLog) -> [String] {
        log.lines.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
    }

    @Test func noStateUntilFirstObservedThenTheSameOne() throws {
        let record = OwnedRecord()
        #expect(record.keyValueObservationStorage == nil && record.keyValueChangeSink == nil)
        // A change of an object nobody observes reaches nobody and makes no state.
        try record.setValue("a", forKey: "name")
        #expect(record.keyValueObservationStorage == nil)
        let recorder = Recorder()
        let token = try record.observe("name", options: [.new], changeHandler: recorder.handler)
        let storage = try #require(record.keyValueObservationStorage)
        #expect(record.keyValueObservationStorage === storage)
        try record.setValue("b", forKey: "name")
        #expect(recorder.all.map { $0.newValue as? String } == ["b"])
        token.invalidate()
        #expect(record.keyValueObservationStorage === storage, "kept for the object's life")
    }

    @Test func concurrentFirstObserversShareOneState() async throws {
        for _ in 0..<20 {
            let record = OwnedRecord()
            let recorder = Recorder()
            let tokens = await withTaskGroup(of: KeyValueObservation?.self) { group in
                for _ in 0..<4 {
                    group.addTask { try? record.observe("rank", options: [.new], changeHandler: recorder.handler) }
                }
                var made: [KeyValueObservation] = []
                for await token in group { if let token { made.append(token) } }
                return made
            }
            #expect(tokens.count == 4)
            try record.setValue(7, forKey: "rank")
            #expect(recorder.count == 4, "every observer registered in the one state")
            #expect(record.keyValueObservationStorage?.existingObservers(key: "rank")?.observerCount == 4)
            tokens.forEach { $0.invalidate() }
        }
    }

    @Test func anOwnersSinkHearsItsObjectsBeforeTheirObservers() throws {
        let log = SharedLog()
        let sink = LoggingSink(log)
        let shared = KeyValueObservationStorage(sharingSink: sink)
        let first = OwnedRecord(), second = OwnedRecord()
        first.setOwnerObservationStorage(shared)
        second.setOwnerObservationStorage(shared)
        #expect(first.keyValueObservationStorage === shared && first.keyValueChangeSink === sink)
        try second.setValue("x", forKey: "name")
        #expect(Self.phases(log) == ["sink will name", "sink did name"])
        log.lines = []
        // Observed: the object makes its own state, carrying the owner's sink; the shared
        // state gets no observer list.
        let token = try first.observe("name", options: [.new]) { _, change in
            log.append("observer name \(change.newValue ?? "nil")")
        }
        #expect(first.keyValueObservationStorage !== shared && first.keyValueChangeSink === sink)
        #expect(shared.existingObservers(key: "name") == nil)
        try first.setValue("y", forKey: "name")
        try second.setValue("z", forKey: "name")
        #expect(Self.phases(log) == ["sink will name", "sink did name", "observer name y", "sink will name", "sink did name"])
        // Leaving the owner takes the sink away from the object's own state too.
        first.setOwnerObservationStorage(nil)
        log.lines = []
        try first.setValue("w", forKey: "name")
        #expect(Self.phases(log) == ["observer name w"] && first.keyValueChangeSink == nil)
        token.invalidate()
    }

    @Test func anObjectOutlivingItsOwnerHasNoSink() throws {
        let record = OwnedRecord()
        weak var weakSink: LoggingSink?
        do {
            let sink = LoggingSink(SharedLog())
            weakSink = sink
            record.setOwnerObservationStorage(KeyValueObservationStorage(sharingSink: sink))
            #expect(record.keyValueChangeSink === sink)
        }
        #expect(weakSink == nil && record.keyValueChangeSink == nil)
        try record.setValue("a", forKey: "name")
        #expect(record.name == "a")
    }
}
