import Foundation
import KeyValueCoding
import KeyValueObserving
import ObjectGraphInternals
import Testing
import TestSupport

/// A model of its own, so these tests do not depend on the shared fixtures.
private final class Gauge: KeyValueObservable {
    @Observed var level = 0
    @Observed var label = ""
}

/// The shared test helpers do what they promise: they are what other tests rely on to fail.
/// `@unchecked Sendable`: each thread of the concurrency test stores into its own gauge only;
/// the test reads them after every thread has finished.
extension Gauge: @unchecked Sendable {}

@Suite("Test support: change recorder, lifetime tracker, labelled loops")
struct TestSupportTests {
    @Test func recorderCollectsChangesFromManyThreads() throws {
        let recorder = ChangeRecorder()
        let gauges = (0..<4).map { _ in Gauge() }
        let tokens = try gauges.map { try $0.observe("level", options: [.new], changeHandler: recorder.handler("level")) }
        let perThread = 250
        DispatchQueue.concurrentPerform(iterations: gauges.count) { index in
            let gauge = gauges[index]   // one object per thread: each object's stores stay on one thread
            for value in 1...perThread { gauge.level = value }
        }
        #expect(recorder.wait(forCount: gauges.count * perThread))
        #expect(recorder.count == gauges.count * perThread)
        for gauge in gauges {
            let values = recorder.records.filter { $0.object == ObjectIdentifier(gauge) }.map { $0.change.newValue as? Int }
            #expect(values == (1...perThread).map { $0 }, "one gauge's changes, in order")
        }
        #expect(recorder.records(for: "level").count == recorder.count)
        withExtendedLifetime(tokens) {}
    }

    @Test func recorderServesAsObserverAndTypedHandler() throws {
        let gauge = Gauge()
        let recorder = ChangeRecorder()
        try gauge.addObserver(recorder, forKeyPath: "label", options: [.old, .new])
        let token = try gauge.observe(\.level, options: [.old, .new], changeHandler: recorder.typedHandler("level"))
        gauge.label = "hot"
        gauge.level = 3
        #expect(recorder.records.map(\.keyPath) == ["label", "level"])
        #expect(recorder.newValues(as: String.self) == ["hot", nil])
        #expect(recorder.oldValues(as: Int.self) == [nil, 0])
        #expect(recorder.removeAll().count == 2)
        #expect(recorder.count == 0)
        token.invalidate()
        try gauge.removeObserver(recorder, forKeyPath: "label")
        gauge.level = 4
        gauge.label = "cold"
        #expect(recorder.count == 0)
    }

    @Test func trackerSeesReleasedObjectsAndTokens() throws {
        let tracker = LifetimeTracker()
        do {
            let gauge = tracker.track(Gauge(), "gauge")
            let recorder = tracker.track(ChangeRecorder(), "recorder")
            let token = tracker.track(try gauge.observe("level", changeHandler: recorder.handler()), "token")
            gauge.level = 1
            #expect(recorder.count == 1)
            #expect(tracker.survivors == ["gauge", "recorder", "token"])
            withExtendedLifetime(token) {}
        }
        #expect(tracker.trackedCount == 3)
        tracker.expectAllReleased()
    }

    @Test func trackerNamesTheSurvivor() {
        let tracker = LifetimeTracker()
        let kept = tracker.track(Gauge(), "kept gauge")
        do { tracker.track(Gauge(), "dropped gauge") }
        #expect(tracker.survivors == ["kept gauge"])
        withKnownIssue {
            tracker.expectAllReleased()
        } matching: { issue in
            issue.description.contains("kept gauge")
        }
        withExtendedLifetime(kept) {}
    }

    @Test func loopsLabelFailuresWithTheirCase() {
        withKnownIssue {
            withEvery("x", in: [1, 2]) { x in
                withEvery("word", in: ["a"]) { _ in check(x == 1, "x is one") }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "x: 2, word: a: x is one" }
        }
        withKnownIssue {
            withEvery("text", in: ["1", "z"]) { text in
                _ = try #require(Int(text), TestCase.comment)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("text: z") }
        }
        var visited: [String] = []
        withEvery("n", in: 1...3) { n in visited.append(TestCase.label) }
        #expect(visited == ["n: 1", "n: 2", "n: 3"])
        #expect(TestCase.label.isEmpty)
    }

    /// `@Observed` finds its storage by the offset reflection gives for `_name`, and its value
    /// inside the storage by `keyValueWrappedValueOffset` (see `RuntimeLayout`).
    @Test func observedStorageLiesAtTheReflectedOffset() throws {
        let gauge = Gauge()
        gauge.level = 1234
        let field = try #require(StoredField.all(of: Gauge.self).first { $0.name == "_level" })
        #expect(ObjectIdentifier(field.type) == ObjectIdentifier(Observed<Int>.self))
        let valueOffset = try #require(Observed<Int>.keyValueWrappedValueOffset)
        let stored = withExtendedLifetime(gauge) {
            Unmanaged.passUnretained(gauge).toOpaque().load(fromByteOffset: field.offset + valueOffset, as: Int.self)
        }
        #expect(stored == 1234)
    }
}
