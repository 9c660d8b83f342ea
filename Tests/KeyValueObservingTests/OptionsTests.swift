import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Options")
struct OptionsTests {
    @Test func initialSendsCurrentValueOnlyAsNew() throws {
        let person = Person(name: "Ada")
        let recorder = Recorder()
        let token = try person.observe("name", options: [.initial, .new, .old]) { _, c in recorder.record(c) }
        let initial = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(initial.kind == .setting)
        #expect(initial.newValue as? String == "Ada")
        #expect(initial.oldValue == nil)
        #expect(!initial.isPrior)
        _ = token
    }

    @Test func initialWithoutNewCarriesNoValue() throws {
        let person = Person(name: "Ada")
        let recorder = Recorder()
        let token = try person.observe("name", options: [.initial]) { _, c in recorder.record(c) }
        #expect(recorder.count == 1)
        #expect(recorder.all.first?.newValue == nil)
        _ = token
    }

    @Test func priorSendsOldBeforeAndNormalAfter() throws {
        let person = Person(age: 1)
        let recorder = Recorder()
        let seenDuringPrior = Recorder()
        let token = try person.observe("age", options: [.prior, .old, .new]) { person, change in
            if change.isPrior { seenDuringPrior.record(KeyValueChange(kind: .setting, newValue: person.age)) }
            recorder.record(change)
        }
        person.age = 2
        let changes = recorder.all
        #expect(changes.count == 2)
        #expect(changes[0].isPrior)
        #expect(changes[0].oldValue as? Int == 1)
        #expect(changes[0].newValue == nil)
        #expect(!changes[1].isPrior)
        #expect(changes[1].oldValue as? Int == 1)
        #expect(changes[1].newValue as? Int == 2)
        // The prior notification arrives before the store.
        #expect(seenDuringPrior.all.first?.newValue as? Int == 1)
        _ = token
    }

    @Test func priorWithoutOldCarriesNoValues() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("age", options: [.prior]) { _, c in recorder.record(c) }
        person.age = 9
        #expect(recorder.all.map(\.isPrior) == [true, false])
        #expect(recorder.all.allSatisfy { $0.oldValue == nil && $0.newValue == nil })
        _ = token
    }

    @Test func typedObserveReportsTypedValues() throws {
        let person = Person(age: 40)
        let olds = Recorder()
        let token = try person.observe(\.age, options: [.old, .new]) { _, change in
            olds.record(KeyValueChange(kind: change.kind, oldValue: change.oldValue, newValue: change.newValue))
        }
        person.age = 41
        #expect(token.keyPath == "age")
        #expect(olds.all.first?.oldValue as? Int == 40)
        #expect(olds.all.first?.newValue as? Int == 41)
    }

    @Test func typedObserveOfStoredProperty() throws {
        let holder = PlainLinkHolder()   // `id`: a stored `let`
        let token = try holder.observe(\.id) { _, _ in }
        #expect(token.keyPath == "id")
    }

    @Test func typedObserveOfUnnamedComputedPropertyThrows() throws {
        let person = Person()
        #expect(throws: KeyValueObservingError.self) {
            _ = try person.observe(\.description2) { _, _ in }
        }
    }
}

extension Person {
    var description2: String { name + "!" }
}
