import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Manual notification")
struct ManualNotificationTests {
    @Test func manualWillDidNotifiesWithOldAndNew() throws {
        let account = Account()
        let recorder = Recorder()
        let token = try account.observe("balance", options: [.old, .new]) { _, c in recorder.record(c) }
        account.balance = 10
        #expect(recorder.count == 1)
        #expect(recorder.all.first?.oldValue as? Int == 0)
        #expect(recorder.all.first?.newValue as? Int == 10)
        _ = token
    }

    @Test func automaticOffSuppressesWrapperAndKeyValueCoding() throws {
        let account = Account()
        let recorder = Recorder()
        let token = try account.observe("owner") { _, c in recorder.record(c) }
        account.owner = "Ada"
        try account.setValue("Grace", forKey: "owner")
        #expect(recorder.count == 0)
        account.willChangeValue(forKey: "owner")
        account.owner = "Linus"
        account.didChangeValue(forKey: "owner")
        #expect(recorder.count == 1)
        _ = token
    }

    @Test func nestedPairsEachNotifyInnermostFirst() throws {
        let person = Person(age: 1)
        let recorder = Recorder()
        let token = try person.observe("age", options: [.old, .new]) { _, c in recorder.record(c) }
        person.willChangeValue(forKey: "age")
        person.willChangeValue(forKey: "age")
        person.age = 2            // automatic: a third notification
        person.didChangeValue(forKey: "age")
        person.didChangeValue(forKey: "age")
        #expect(recorder.count == 3)
        #expect(recorder.all.map { $0.newValue as? Int } == [2, 2, 2])
        #expect(recorder.all.map { $0.oldValue as? Int } == [1, 1, 1])
        _ = token
    }

    @Test func unmatchedDidChangeIsIgnored() throws {
        let person = Person()
        let recorder = Recorder()
        let token = try person.observe("age") { _, c in recorder.record(c) }
        person.didChangeValue(forKey: "age")
        #expect(recorder.count == 0)
        _ = token
    }

    @Test func arrayInsertionRemovalReplacement() throws {
        let person = TagSet()
        person.tags = ["a", "b", "c"]
        let recorder = Recorder()
        let token = try person.observe("tags", options: [.old, .new, .prior]) { _, c in recorder.record(c) }

        person.willChange(.insertion, valuesAt: IndexSet([1, 3]), forKey: "tags")
        person.tags.insert("x", at: 1)
        person.tags.insert("y", at: 3)
        person.didChange(.insertion, valuesAt: IndexSet([1, 3]), forKey: "tags")

        person.willChange(.removal, valuesAt: IndexSet([0]), forKey: "tags")
        person.tags.remove(at: 0)
        person.didChange(.removal, valuesAt: IndexSet([0]), forKey: "tags")

        person.willChange(.replacement, valuesAt: IndexSet([0]), forKey: "tags")
        person.tags[0] = "z"
        person.didChange(.replacement, valuesAt: IndexSet([0]), forKey: "tags")

        let changes = recorder.all
        #expect(changes.count == 6)
        #expect(changes.map(\.isPrior) == [true, false, true, false, true, false])
        #expect(changes.map(\.kind) == [.insertion, .insertion, .removal, .removal, .replacement, .replacement])
        #expect(changes[1].indexes == IndexSet([1, 3]))
        #expect(changes[1].newValue as? [String] == ["x", "y"])
        #expect(changes[1].oldValue == nil)
        #expect(changes[2].oldValue as? [String] == ["a"])
        #expect(changes[3].oldValue as? [String] == ["a"])
        #expect(changes[3].newValue == nil)
        #expect(changes[5].oldValue as? [String] == ["x"])
        #expect(changes[5].newValue as? [String] == ["z"])
        _ = token
    }

    @Test func setMutationReportsAddedAndRemovedMembers() throws {
        let box = TagSet()
        let recorder = Recorder()
        let token = try box.observe("members", options: [.old, .new]) { _, c in recorder.record(c) }
        box.willChangeValue(forKey: "members", withSetMutation: .union, using: ["a", "b"])
        box.members.formUnion(["a", "b"])
        box.didChangeValue(forKey: "members", withSetMutation: .union, using: ["a", "b"])
        box.willChangeValue(forKey: "members", withSetMutation: .minus, using: ["a", "q"])
        box.members.subtract(["a", "q"])
        box.didChangeValue(forKey: "members", withSetMutation: .minus, using: ["a", "q"])
        let changes = recorder.all
        #expect(changes.map(\.kind) == [.insertion, .removal])
        #expect(changes[0].newValue as? Set<AnyHashable> == ["a", "b"])
        #expect(changes[1].oldValue as? Set<AnyHashable> == ["a"])
        _ = token
    }
}

final class TagSet: KeyValueObservable {
    var members: Set<String> = []
    var tags: [String] = []

    // Changed between manual will/did pairs: automatic notification is off for both.
    static func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "members" && key != "tags" }
}
