import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// Records the keys a change sink hears, in order, with the phase.
private final class KeyLog: KeyValueChangeSink, @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    var heard: [String] = []

    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {
        heard.append("will " + event.key)
    }

    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        heard.append("did " + event.key)
    }
}

@Suite("Change sink with observers")
struct ChangeSinkTests {
    @Test func sinkInstalledAfterAnObserverHearsObservedStores() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("age", options: [.new]) { _, change in recorder.record(change) }
        let log = KeyLog()
        person.setKeyValueChangeSink(log)
        person.age = 1
        #expect(log.heard == ["will age", "did age"])
        #expect(recorder.count == 1)
        person.setKeyValueChangeSink(nil)
        person.age = 2
        #expect(log.heard.count == 2)
        #expect(recorder.count == 2)
        token.invalidate()
    }

    @Test func keysObservedAfterTheSinkIsInstalledReachIt() throws {
        let person = Person()
        let log = KeyLog()
        person.setKeyValueChangeSink(log)
        let token = try person.observe("nickname") { _, _ in }
        try person.setValue("Ada", forKey: "nickname")
        #expect(log.heard == ["will nickname", "did nickname"])
        token.invalidate()
        withExtendedLifetime(log) {}
    }
}

@Suite("Change sink replaced, reinstalled and released")
struct ChangeSinkReplacementTests {
    @Test func onlyTheInstalledSinkHearsAndAReinstalledOneHearsAgain() throws {
        let person = Person()
        let first = KeyLog(), second = KeyLog()
        person.setKeyValueChangeSink(first)
        person.age = 1
        person.setKeyValueChangeSink(second)
        person.age = 2
        person.setKeyValueChangeSink(nil)
        person.age = 3
        person.setKeyValueChangeSink(first)
        person.age = 4
        #expect(first.heard == ["will age", "did age", "will age", "did age"])
        #expect(second.heard == ["will age", "did age"])
        #expect(person.keyValueChangeSink === first)
        person.setKeyValueChangeSink(nil)
        #expect(person.keyValueChangeSink == nil)
    }

    @Test func aReleasedSinkIsNotCalled() throws {
        let person = Person()
        var sink: KeyLog? = KeyLog()
        weak let released = sink
        person.setKeyValueChangeSink(sink)
        sink = nil
        #expect(released == nil, "the object holds its sink weakly")
        person.age = 5
        #expect(person.keyValueChangeSink == nil)
    }
}

@Suite("Registering again")
struct ReRegistrationTests {
    @Test func aKeyObservedBeforeIsObservedAgainWithTheSameOptions() throws {
        let person = Person(name: "a")
        for round in 1...3 {
            let recorder = Recorder()
            let token = try person.observe("name", options: [.initial, .old, .new]) { _, change in
                recorder.record(change)
            }
            person.name = "n\(round)"
            #expect(recorder.count == 2)
            #expect(recorder.all.last?.newValue as? String == "n\(round)")
            token.invalidate()
        }
    }

    @Test func unknownKeysStillThrowAfterOtherKeysWereObserved() throws {
        let person = Person()
        let token = try person.observe("age") { _, _ in }
        token.invalidate()
        #expect(throws: KeyValueObservingError.undefinedKey("agee", keyPath: "agee",
                                                            type: String(reflecting: Person.self))) {
            _ = try person.observe("agee") { _, _ in }
        }
    }

    @Test func dependentKeysAreObservedOnEveryRegistration() throws {
        let person = Person()
        for round in 1...2 {
            let recorder = Recorder()
            let token = try person.observe("fullName", options: [.new]) { _, change in recorder.record(change) }
            person.firstName = "F\(round)"
            #expect(recorder.all.last?.newValue as? String == "F\(round) ")
            token.invalidate()
        }
    }
}
