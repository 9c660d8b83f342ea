import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Automatic notifications")
struct AutomaticNotificationTests {
    @Test func plainPropertySetNotifies() throws {
        let person = Person(name: "Ada")
        let recorder = Recorder()
        let token = try person.observe("name", options: [.old, .new]) { _, change in recorder.record(change) }
        person.name = "Grace"
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .setting)
        #expect(change.oldValue as? String == "Ada")
        #expect(change.newValue as? String == "Grace")
        #expect(change.indexes == nil)
        #expect(change.isPrior == false)
        token.invalidate()
    }

    @Test func setValueForKeyNotifiesThroughWrapper() throws {
        let person = Person(age: 3)
        let recorder = Recorder()
        let token = try person.observe("age", options: [.old, .new]) { _, change in recorder.record(change) }
        try person.setValue(4, forKey: "age")
        #expect(person.age == 4)
        #expect(recorder.all.map { $0.newValue as? Int } == [4])
        #expect(recorder.all.map { $0.oldValue as? Int } == [3])
        _ = token
    }

    /// A plain stored `var` would not notify on assignment: observing it is refused, with a
    /// message that says what to do (issue 11).
    @Test func plainStoredPropertyIsNotObservable() throws {
        let person = Person()
        let error = #expect(throws: KeyValueObservingError.self) {
            _ = try person.observe("plain") { _, _ in }
        }
        #expect(error == .assignmentNotObservable("plain", keyPath: "plain",
                                                  type: String(reflecting: Person.self)))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("'plain'"))
        #expect(message.contains("@Observed"))
        #expect(message.contains("automaticallyNotifiesObservers"))
        #expect(message.contains("willChangeValue(forKey:)"))
    }

    @Test func plainStoredLinkOfAKeyPathIsNotObservable() throws {
        let holder = PlainLinkHolder()
        #expect(throws: KeyValueObservingError.assignmentNotObservable(
            "person", keyPath: "person.name", type: String(reflecting: PlainLinkHolder.self))) {
            _ = try holder.observe("person.name") { _, _ in }
        }
    }

    @Test func letConstantsComputedKeysAndManualKeysStayObservable() throws {
        let holder = PlainLinkHolder()
        _ = try holder.observe("id") { _, _ in }                  // a let constant
        _ = try Person().observe("fullName") { _, _ in }          // a computed key
        _ = try Account().observe("balance") { _, _ in }          // notified manually
    }

    @Test func equalValueStillNotifies() throws {
        let person = Person(name: "Ada")
        let recorder = Recorder()
        let token = try person.observe("name", options: [.new]) { _, change in recorder.record(change) }
        person.name = "Ada"
        #expect(recorder.count == 1)
        _ = token
    }

    @Test func optionalValuesAreFlattened() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("nickname", options: [.old, .new]) { _, change in recorder.record(change) }
        person.nickname = "Countess"
        person.nickname = nil
        let changes = recorder.all
        #expect(changes.count == 2)
        #expect(changes[0].oldValue == nil)
        #expect(changes[0].newValue as? String == "Countess")
        #expect(changes[1].oldValue as? String == "Countess")
        #expect(changes[1].newValue == nil)
        _ = token
    }

    @Test func withoutOptionsValuesAreAbsent() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("age") { _, change in recorder.record(change) }
        person.age = 5
        let change = try #require(recorder.all.first)
        #expect(change.oldValue == nil && change.newValue == nil)
        _ = token
    }

    @Test func handlerReceivesTheObservedObject() throws {
        let person = Person()
        let seen = Recorder()
        let identifier = ObjectIdentifier(person)
        let token = try person.observe("age") { object, change in
            if ObjectIdentifier(object) == identifier { seen.record(change) }
        }
        person.age = 1
        #expect(seen.count == 1)
        _ = token
    }

    @Test func otherObjectsAndKeysDoNotNotify() throws {
        let person = Person()
        let other = Person()
        let recorder = Recorder()
        let token = try person.observe("age") { _, change in recorder.record(change) }
        other.age = 2
        person.name = "x"
        #expect(recorder.count == 0)
        _ = token
    }
}

@Suite("Tokens")
struct TokenTests {
    @Test func invalidateStopsNotifications() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("age") { _, change in recorder.record(change) }
        person.age = 1
        token.invalidate()
        #expect(!token.isValid)
        person.age = 2
        token.invalidate()
        #expect(recorder.count == 1)
    }

    @Test func releasingTheTokenStopsNotifications() throws {
        let person = Person()
        let recorder = Recorder()
        var token: KeyValueObservation? = try person.observe("age") { _, change in recorder.record(change) }
        person.age = 1
        #expect(token?.keyPath == "age")
        token = nil
        person.age = 2
        #expect(recorder.count == 1)
    }
}

/// A class whose `person` link is a plain stored `var`.
final class PlainLinkHolder: KeyValueObservable {
    let id = 1
    var person = Person()
}
