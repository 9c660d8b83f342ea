import Foundation
import KeyValueCoding
import Observation
import Testing
@testable import KeyValueObserving

@Suite("Bad input")
struct BadInputTests {
    @Test(arguments: ["", ".", "a..b", ".name", "name."])
    func malformedKeyPathsThrow(_ keyPath: String) {
        let person = Person()
        #expect(throws: KeyValueObservingError.self) {
            _ = try person.observe(keyPath) { _, _ in }
        }
    }

    @Test func unknownKeyThrowsNamingIt() {
        let person = Person()
        #expect(throws: KeyValueObservingError.undefinedKey("salary", keyPath: "salary",
                                                            type: String(reflecting: Person.self))) {
            _ = try person.observe("salary") { _, _ in }
        }
    }

    @Test func unknownKeyDeeperInAChainThrows() {
        let person = Person()
        person.department = Department()
        #expect(throws: KeyValueObservingError.undefinedKey("budget", keyPath: "department.budget",
                                                            type: String(reflecting: Department.self))) {
            _ = try person.observe("department.budget") { _, _ in }
        }
    }

    @Test(arguments: ["tags.@max", "tags.@sum", "tags.@distinctUnionOfObjects", "tags.@avg"])
    func collectionOperatorsOtherThanCountAreRejected(_ keyPath: String) {
        let person = Person()
        let op = String(keyPath.dropFirst("tags.".count))
        #expect(throws: KeyValueObservingError.collectionOperatorNotObservable(op, keyPath: keyPath)) {
            _ = try person.observe(keyPath) { _, _ in }
        }
    }

    @Test(arguments: ["\u{0}", "💥", String(repeating: "x", count: 10_000), "name\n", "department.\u{FFFF}"])
    func hostileKeysThrowWithoutCrashing(_ keyPath: String) {
        let person = Person()
        person.department = Department()
        #expect(throws: KeyValueObservingError.self) {
            _ = try person.observe(keyPath) { _, _ in }
        }
    }

    @Test func errorsDescribeTheKey() {
        let error = KeyValueObservingError.undefinedKey("salary", keyPath: "salary", type: "Person")
        #expect(error.description.contains("salary"))
    }
}

@Suite("Observer objects")
struct ObserverObjectTests {
    @Test func addAndRemoveWithContext() throws {
        let person = Person()
        let inspector = Inspector()
        var contextA = 1
        var contextB = 2
        try withUnsafeMutablePointer(to: &contextA) { a in
            try withUnsafeMutablePointer(to: &contextB) { b in
                try person.addObserver(inspector, forKeyPath: "age", options: [.new], context: a)
                try person.addObserver(inspector, forKeyPath: "age", options: [.new], context: b)
                person.age = 1
                #expect(inspector.received.count == 2)
                #expect(inspector.received.map(\.0) == ["age", "age"])
                try person.removeObserver(inspector, forKeyPath: "age", context: a)
                person.age = 2
                #expect(inspector.received.count == 3)
                #expect(inspector.received.last?.2 == UnsafeMutableRawPointer(b))
                #expect(inspector.received.last?.1.newValue as? Int == 2)
                try person.removeObserver(inspector, forKeyPath: "age", context: b)
                person.age = 3
                #expect(inspector.received.count == 3)
            }
        }
    }

    @Test func removingTwiceThrows() throws {
        let person = Person()
        let inspector = Inspector()
        try person.addObserver(inspector, forKeyPath: "name")
        try person.removeObserver(inspector, forKeyPath: "name")
        #expect(throws: KeyValueObservingError.observerNotRegistered(keyPath: "name")) {
            try person.removeObserver(inspector, forKeyPath: "name")
        }
    }

    @Test func initialOptionCallsObserverImmediately() throws {
        let person = Person(name: "Ada")
        let inspector = Inspector()
        try person.addObserver(inspector, forKeyPath: "name", options: [.initial, .new])
        #expect(inspector.received.first?.1.newValue as? String == "Ada")
        try person.removeObserver(inspector, forKeyPath: "name")
    }

    @Test func releasedObserverIsNotCalled() throws {
        let person = Person()
        var inspector: Inspector? = Inspector()
        try person.addObserver(try #require(inspector), forKeyPath: "age")
        weak let weakInspector = inspector
        inspector = nil
        #expect(weakInspector == nil)
        person.age = 1   // must not crash
    }
}

@Suite("Lifetime")
struct LifetimeTests {
    @Test func objectReleasedBeforeToken() throws {
        var person: Person? = Person()
        weak let weakPerson = person
        let token = try #require(person).observe("age") { _, _ in }
        person = nil
        #expect(weakPerson == nil)
        token.invalidate()
        #expect(!token.isValid)
    }

    @Test func chainObjectsReleasedWhileObserved() throws {
        var person: Person? = Person()
        person?.department = Department(manager: Person(name: "Ada"))
        weak let weakDepartment = person?.department
        let token = try #require(person).observe("department.manager.name") { _, _ in }
        person = nil
        #expect(weakDepartment == nil)
        _ = token
    }

    @Test func handlerReleasedWithToken() throws {
        final class Probe: Sendable {}
        let person = Person()
        var probe: Probe? = Probe()
        weak let weakProbe = probe
        var token: KeyValueObservation? = try person.observe("age") { [probe] _, _ in _ = probe }
        probe = nil
        #expect(weakProbe != nil)
        token = nil
        #expect(weakProbe == nil)
        _ = token
    }

    @Test func tableForgetsReleasedObjects() throws {
        // Other tests use the same process-wide table at the same time, so this checks only
        // the entries of its own objects (addresses that another test's live object reuses
        // have a live entry and are not counted).
        var identifiers = Set<ObjectIdentifier>()
        for _ in 0..<200 {
            let person = Person()
            identifiers.insert(ObjectIdentifier(person))
            try person.setValue(1, forKey: "age")
            let token = try person.observe("age") { _, _ in }
            token.invalidate()
        }
        ObservationTable.shared.sweepNow()
        #expect(ObservationTable.shared.releasedEntryCount(among: identifiers) == 0)
    }

    @Test func observerRemovesItselfInsideCallback() throws {
        let person = Person()
        let recorder = Recorder()
        let holder = TokenHolder()
        holder.token = try person.observe("age") { _, c in
            recorder.record(c)
            holder.token?.invalidate()
        }
        person.age = 1
        person.age = 2
        #expect(recorder.count == 1)
    }

    @Test func observerRemovesAnotherInsideCallback() throws {
        let person = Person()
        let recorder = Recorder()
        let holder = TokenHolder()
        let first = try person.observe("age") { _, _ in holder.token?.invalidate() }
        holder.token = try person.observe("age") { _, c in recorder.record(c) }
        person.age = 1
        #expect(recorder.count == 0)
        _ = first
    }

    @Test func registeringInsideCallbackIsSafe() throws {
        let person = Person()
        let holder = TokenHolder()
        let recorder = Recorder()
        let token = try person.observe("age") { person, _ in
            if holder.token == nil {
                holder.token = try? person.observe("name") { _, c in recorder.record(c) }
            }
        }
        person.age = 1
        person.name = "x"
        #expect(recorder.count == 1)
        _ = token
    }
}

final class TokenHolder: @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    var token: KeyValueObservation?
}

@Suite("Swift-native extras")
struct ExtrasTests {
    @Test func changesAsAsyncSequence() async throws {
        let person = Person()
        let changes = try person.changes(forKeyPath: "age", options: [.new])
        person.age = 1
        person.age = 2
        changes.cancel()
        var values: [Int] = []
        for await change in changes { values.append(change.newValue as? Int ?? -1) }
        #expect(values == [1, 2])
    }

    @Test func valuesAsAsyncSequence() async throws {
        let person = Person(name: "Ada")
        let values = try person.values(for: \.name)
        person.name = "Grace"
        values.cancel()
        var seen: [String] = []
        for await value in values { seen.append(value) }
        #expect(seen == ["Ada", "Grace"])
    }

    @Test func observationTrackingSeesObservedProperties() throws {
        let thermometer = Thermometer()
        let recorder = Recorder()
        let token = try thermometer.observe("celsius", options: [.new]) { _, c in recorder.record(c) }
        let fired = Recorder()
        withObservationTracking { _ = thermometer.celsius } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        thermometer.celsius = 25
        #expect(fired.count == 1)
        #expect(recorder.all.first?.newValue as? Double == 25)
        thermometer.celsius = 26   // tracking is one-shot
        #expect(fired.count == 1)
        _ = token
    }
}
