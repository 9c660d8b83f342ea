import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// An observer that removes its own registration in `deinit`, as Apple's guide tells observers
/// to do (`removeObserver:forKeyPath:` in `dealloc`).
private final class SelfRemovingObserver: KeyValueObserver, @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    let person: Person
    let keyPath: String
    var removalError: (any Error)?
    let onDeinit: (SelfRemovingObserver) -> Void

    init(person: Person, keyPath: String, onDeinit: @escaping (SelfRemovingObserver) -> Void) throws {
        self.person = person
        self.keyPath = keyPath
        self.onDeinit = onDeinit
        try person.addObserver(self, forKeyPath: keyPath, options: [.new])
    }

    func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                      context: UnsafeMutableRawPointer?) {}

    deinit {
        do { try person.removeObserver(self, forKeyPath: keyPath) } catch { removalError = error }
        onDeinit(self)
    }
}

/// An observed object that owns its observer and removes it in its own `deinit`.
private final class OwningModel: KeyValueObservable, @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    @Observed var value = 0
    let inspector = Inspector()
    let errors: ErrorBox

    init(errors: ErrorBox) throws {
        self.errors = errors
        try addObserver(inspector, forKeyPath: "value", options: [.new])
    }

    deinit {
        do { try removeObserver(inspector, forKeyPath: "value") } catch { errors.error = error }
    }
}

private final class ErrorBox: @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    var error: (any Error)?
    var removed = false
}

private final class Payload: Sendable {}

@Suite("Release orders")
struct ReleaseOrderTests {
    @Test func observerRemovesItselfInItsDeinit() throws {
        let person = Person()
        let box = ErrorBox()
        var observer: SelfRemovingObserver? = try SelfRemovingObserver(person: person, keyPath: "age") { me in
            box.error = me.removalError
            box.removed = true
        }
        weak let weakObserver = observer
        observer = nil
        #expect(weakObserver == nil)
        #expect(box.removed)
        #expect(box.error == nil)
        // The registration is gone: removing again throws, and stores notify no one.
        person.age = 3
        let storage = ObservationCenter.existingStorage(of: person)
        #expect(storage?.state.withLock { $0.observerRegistrations.isEmpty } ?? true)
    }

    @Test func observerRemovesItselfInItsDeinitFromAChain() throws {
        let person = Person()
        person.department = Department(name: "R&D")
        let box = ErrorBox()
        var observer: SelfRemovingObserver? = try SelfRemovingObserver(person: person,
                                                                       keyPath: "department.name") { me in
            box.error = me.removalError
        }
        observer = nil
        #expect(box.error == nil)
        person.department?.name = "Sales"
        _ = observer
    }

    @Test func observedObjectRemovesItsObserverInItsDeinit() throws {
        let box = ErrorBox()
        var model: OwningModel? = try OwningModel(errors: box)
        model?.value = 1
        #expect(model?.inspector.received.count == 1)
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil)
        #expect(box.error == nil)
    }

    @Test func observedObjectReleasedWithObserverStillRegistered() throws {
        let inspector = Inspector()
        var person: Person? = Person()
        weak let weakPerson = person
        try person?.addObserver(inspector, forKeyPath: "age")
        person = nil
        #expect(weakPerson == nil)
        #expect(inspector.received.isEmpty)
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func everyReleaseOrderOfTokenObjectAndCapture(order: Int) throws {
        var person: Person? = Person()
        var payload: Payload? = Payload()
        weak let weakPerson = person
        weak let weakPayload = payload
        var token: KeyValueObservation? = try #require(person).observe("age") { [payload] _, _ in _ = payload }
        let releases: [() -> Void] = [{ person = nil }, { payload = nil }, { token = nil }]
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for step in permutations[order] { releases[step]() }
        #expect(weakPerson == nil)
        #expect(weakPayload == nil)
        _ = token
    }

    @Test func invalidateReleasesWhatTheHandlerCaptures() throws {
        var person: Person? = Person()
        weak let weakPerson = person
        var payload: Payload? = Payload()
        weak let weakPayload = payload
        let observed = try #require(person)
        let token = try observed.observe("age") { [payload, observed] _, _ in _ = (payload, observed) }
        payload = nil
        person = nil
        #expect(weakPayload != nil)
        token.invalidate()
        #expect(weakPayload == nil)
        #expect(!token.isValid)
        _ = weakPerson
    }

    @Test func invalidateReleasesTheObservedObjectCapturedByItsHandler() throws {
        var person: Person? = Person()
        weak let weakPerson = person
        let token = try #require(person).observe("age") { [person] _, _ in _ = person }
        person = nil
        #expect(weakPerson != nil)   // the handler keeps it, as Apple's does, until invalidated
        token.invalidate()
        #expect(weakPerson == nil)
    }

    @Test func aHandlerThatInvalidatesItselfKeepsItsCapturesUntilItReturns() throws {
        final class Counter: @unchecked Sendable {
            // @unchecked: used on one thread in tests.
            var value = 0
        }
        let person = Person()
        let holder = TokenHolder()
        var counter: Counter? = Counter()
        weak let weakCounter = counter
        holder.token = try person.observe("age") { [counter] _, _ in
            holder.token?.invalidate()
            holder.token = nil
            counter?.value += 1          // still alive while the handler runs
        }
        counter = nil                    // now only the handler holds it
        #expect(weakCounter != nil)
        person.age = 1                   // invalidates, then uses the capture
        #expect(weakCounter == nil)      // released once the call returned
        person.age = 2                   // not called again
    }

    @Test func removeObserverReleasesTheRegistrationsHandler() throws {
        let person = Person()
        let inspector = Inspector()
        try person.addObserver(inspector, forKeyPath: "age")
        try person.removeObserver(inspector, forKeyPath: "age")
        #expect(throws: KeyValueObservingError.observerNotRegistered(keyPath: "age")) {
            try person.removeObserver(inspector, forKeyPath: "age")
        }
    }
}

/// An object observing its own key, removing itself in `deinit` (a common Apple pattern).
private final class SelfObservingModel: KeyValueObservable, KeyValueObserver, @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    @Observed var value = 0
    var seen = 0
    let errors: ErrorBox

    init(errors: ErrorBox) throws {
        self.errors = errors
        try addObserver(self, forKeyPath: "value", options: [.new])
    }

    func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                      context: UnsafeMutableRawPointer?) {
        seen += 1
    }

    deinit {
        do { try removeObserver(self, forKeyPath: "value") } catch { errors.error = error }
    }
}

@Suite("Release orders: self-observation")
struct SelfObservationReleaseTests {
    @Test func objectObservingItselfRemovesItselfInDeinit() throws {
        let box = ErrorBox()
        var model: SelfObservingModel? = try SelfObservingModel(errors: box)
        model?.value = 1
        #expect(model?.seen == 1)
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil)
        #expect(box.error == nil)
    }

    @Test func removingANeverAddedObserverInDeinitStillThrows() throws {
        final class Lonely: KeyValueObservable, @unchecked Sendable {
            // @unchecked: used on one thread in tests.
            @Observed var value = 0
            let box: ErrorBox
            let inspector = Inspector()
            init(box: ErrorBox) { self.box = box }
            deinit {
                do { try removeObserver(inspector, forKeyPath: "value") } catch { box.error = error }
            }
        }
        let box = ErrorBox()
        var lonely: Lonely? = Lonely(box: box)
        lonely = nil
        #expect(box.error as? KeyValueObservingError == .observerNotRegistered(keyPath: "value"))
        _ = lonely
    }
}

/// A computed key whose getter counts its reads.
private final class Gauge: KeyValueObservable, @unchecked Sendable {
    // @unchecked: used on one thread in tests.
    var reads = 0
    @Observed var level = 0
    var reading: Int {
        reads += 1
        return level
    }

    class var computedKeys: [String: AnyKeyPath] { ["reading": \Gauge.reading] }

    class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        key == "reading" ? ["level"] : []
    }
}

@Suite("Registration checks")
struct RegistrationCheckTests {
    @Test func registeringALastKeyDoesNotReadIt() throws {
        let gauge = Gauge()
        let recorder = Recorder()
        let token = try gauge.observe("reading", options: [.new]) { _, change in recorder.record(change) }
        #expect(gauge.reads == 0)
        gauge.level = 3
        #expect(recorder.all.first?.newValue as? Int == 3)
        token.invalidate()
    }
}
