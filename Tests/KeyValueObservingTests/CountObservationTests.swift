import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// A key path ending in `@count` after a to-many key reports the number of elements as a
/// `.setting` change on every change of the collection, however it is made.
@Suite("Observing @count")
struct CountObservationTests {
    static let arrayKeys = ["items", "observedItems"]
    static let setKeys = ["tags", "observedTags"]

    private func observeCount(_ key: String, options: KeyValueObservingOptions = [.old, .new])
        throws -> (Playlist, Recorder, KeyValueObservation) {
        let playlist = Playlist()
        let recorder = Recorder()
        let token = try playlist.observe("\(key).@count", options: options) { _, change in recorder.record(change) }
        return (playlist, recorder, token)
    }

    private func counts(_ recorder: Recorder) -> [[Int?]] {
        recorder.all.map { [$0.oldValue as? Int, $0.newValue as? Int] }
    }

    @Test(arguments: arrayKeys)
    func proxyEditsOfAnArrayReportOldAndNewCounts(key: String) throws {
        let (playlist, recorder, token) = try observeCount(key)
        let proxy = try playlist.mutableArrayValue(forKey: key)
        try proxy.append(40)
        try proxy.remove(at: IndexSet([0, 1]))
        try proxy.replace(at: 0, with: 99)
        #expect(counts(recorder) == [[3, 4], [4, 2], [2, 2]])
        #expect(recorder.all.allSatisfy { $0.kind == .setting && $0.indexes == nil && !$0.isPrior })
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func proxyEditsOfASetReportOldAndNewCounts(key: String) throws {
        let (playlist, recorder, token) = try observeCount(key)
        let proxy = try playlist.mutableSetValue(forKey: key)
        try proxy.union(["c", "d"])
        try proxy.subtract(["a"])
        #expect(counts(recorder) == [[2, 4], [4, 3]])
        #expect(recorder.all.allSatisfy { $0.kind == .setting })
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func setValueReportsTheCounts(key: String) throws {
        let (playlist, recorder, token) = try observeCount(key)
        try playlist.setValue([1], forKey: key)
        #expect(counts(recorder) == [[3, 1]])
        token.invalidate()
    }

    @Test func observedStoresReportTheCounts() throws {
        let (playlist, recorder, token) = try observeCount("observedItems")
        playlist.observedItems.append(4)
        playlist.observedItems = []
        #expect(counts(recorder) == [[3, 4], [4, 0]])
        token.invalidate()
    }

    @Test func manualToManyNotificationsReportTheCounts() throws {
        let (playlist, recorder, token) = try observeCount("items")
        playlist.willChange(.insertion, valuesAt: IndexSet([3]), forKey: "items")
        playlist.items.append(4)
        playlist.didChange(.insertion, valuesAt: IndexSet([3]), forKey: "items")
        playlist.willChangeValue(forKey: "tags", withSetMutation: .union, using: ["z"])
        playlist.tags.insert("z")
        playlist.didChangeValue(forKey: "tags", withSetMutation: .union, using: ["z"])
        playlist.willChangeValue(forKey: "items")
        playlist.items = [1]
        playlist.didChangeValue(forKey: "items")
        #expect(counts(recorder) == [[3, 4], [4, 1]])
        token.invalidate()
    }

    @Test func priorAndInitialNotificationsCarryCounts() throws {
        let (playlist, recorder, token) = try observeCount("observedItems", options: [.initial, .prior, .old, .new])
        playlist.observedItems.append(4)
        let all = recorder.all
        #expect(all.count == 3)
        #expect(all[0].newValue as? Int == 3)
        #expect(all[1].isPrior && all[1].oldValue as? Int == 3 && all[1].kind == .setting)
        #expect(all[2].oldValue as? Int == 3 && all[2].newValue as? Int == 4)
        token.invalidate()
    }

    @Test func countThroughAChainFollowsTheMiddleObject() throws {
        let person = Person()
        person.department = Department()
        let first = Person()
        first.tags = ["a"]
        person.department?.manager = first
        let recorder = Recorder()
        let token = try person.observe("department.manager.tags.@count", options: [.old, .new]) { _, change in
            recorder.record(change)
        }
        first.tags.append("b")
        let second = Person()
        second.tags = ["x", "y", "z"]
        person.department?.manager = second
        first.tags.append("c")     // no longer on the path
        second.tags.removeAll()
        #expect(counts(recorder) == [[1, 2], [2, 3], [3, 0]])
        token.invalidate()
    }

    @Test func observerObjectsCanAddAndRemoveCountObservations() throws {
        let playlist = Playlist()
        let inspector = Inspector()
        try playlist.addObserver(inspector, forKeyPath: "items.@count", options: [.new])
        try playlist.mutableArrayValue(forKey: "items").append(1)
        #expect(inspector.received.first?.0 == "items.@count")
        #expect(inspector.received.first?.1.newValue as? Int == 4)
        try playlist.removeObserver(inspector, forKeyPath: "items.@count")
        try playlist.mutableArrayValue(forKey: "items").append(2)
        #expect(inspector.received.count == 1)
        #expect(throws: KeyValueObservingError.observerNotRegistered(keyPath: "items.@count")) {
            try playlist.removeObserver(inspector, forKeyPath: "items.@count")
        }
    }

    @Test func otherObserversOfTheKeyStillSeeToManyChanges() throws {
        let (playlist, recorder, token) = try observeCount("observedItems")
        let whole = Recorder()
        let wholeToken = try playlist.observe("observedItems", options: [.new]) { _, change in whole.record(change) }
        try playlist.mutableArrayValue(forKey: "observedItems").append(5)
        #expect(whole.all.first?.kind == .insertion)
        #expect(recorder.all.first?.kind == .setting)
        #expect(recorder.all.first?.newValue as? Int == 4)
        token.invalidate()
        wholeToken.invalidate()
    }

    @Test(arguments: ["@count", "name.@count", "tags.@count.x", "tags.@count.@count", "@count.tags"])
    func misplacedCountIsRejected(_ keyPath: String) {
        let person = Person()
        #expect(throws: KeyValueObservingError.self) {
            _ = try person.observe(keyPath) { _, _ in }
        }
    }

    @Test func keysThroughAToManyStayRejected() {
        let department = Department()
        let team = Team(members: [Person(name: "a")])
        #expect(throws: KeyValueObservingError.notObservableThroughCollection("members", keyPath: "members.name")) {
            _ = try team.observe("members.name") { _, _ in }
        }
        _ = department
    }

    @Test func countOfANilCollectionIsNil() throws {
        let holder = OptionalList()
        let recorder = Recorder()
        let token = try holder.observe("values.@count", options: [.old, .new]) { _, change in recorder.record(change) }
        holder.values = [1, 2]
        holder.values = nil
        #expect(recorder.all.map { $0.oldValue as? Int } == [nil, 2])
        #expect(recorder.all.map { $0.newValue as? Int } == [2, nil])
        token.invalidate()
    }
}

final class Inventory: KeyValueObservable {
    @Observed var stock: [String: Int] = ["a": 1]
}

@Suite("Observing @count of a dictionary")
struct DictionaryCountTests {
    @Test func dictionaryCountsAreReported() throws {
        let inventory = Inventory()
        let recorder = Recorder()
        let token = try inventory.observe("stock.@count", options: [.old, .new]) { _, change in
            recorder.record(change)
        }
        inventory.stock["b"] = 2
        #expect(recorder.all.first?.oldValue as? Int == 1)
        #expect(recorder.all.first?.newValue as? Int == 2)
        token.invalidate()
    }
}

final class Team: KeyValueObservable {
    @Observed var members: [Person]
    init(members: [Person]) { self.members = members }
}

final class OptionalList: KeyValueObservable {
    @Observed var values: [Int]?
}
