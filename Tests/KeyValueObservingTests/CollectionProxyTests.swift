import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// A model with to-many properties, both plain stored and `@Observed`.
final class Playlist: KeyValueObservable {
    var items: [Int] = [10, 20, 30]
    @Observed var observedItems: [Int] = [10, 20, 30]
    var tags: Set<String> = ["a", "b"]
    @Observed var observedTags: Set<String> = ["a", "b"]

    // Edited through the proxies only: exposed as computed keys, since a plain stored `var`
    // cannot be observed (an assignment to it would not notify).
    static var computedKeys: [String: AnyKeyPath] { ["items": \Playlist.items, "tags": \Playlist.tags] }
}

/// The integers of a to-many change value (`[Any]`), or nil when there is none.
private func integers(_ value: Any?) -> [Int]? {
    (value as? [Any])?.compactMap { $0 as? Int }
}

private func strings(_ value: Any?) -> Set<String>? {
    (value as? Set<AnyHashable>).map { Set($0.compactMap { $0 as? String }) }
}

@Suite("Mutable collection proxies")
struct CollectionProxyTests {
    static let arrayKeys = ["items", "observedItems"]
    static let setKeys = ["tags", "observedTags"]

    /// Registers an [.old, .new] observer of `key` on a new playlist.
    private func observed(_ key: String, options: KeyValueObservingOptions = [.old, .new])
        throws -> (Playlist, Recorder, KeyValueObservation) {
        let playlist = Playlist()
        let recorder = Recorder()
        let token = try playlist.observe(key, options: options) { _, change in recorder.record(change) }
        return (playlist, recorder, token)
    }

    private func array(_ playlist: Playlist, _ key: String) -> [Int] {
        key == "items" ? playlist.items : playlist.observedItems
    }

    private func set(_ playlist: Playlist, _ key: String) -> Set<String> {
        key == "tags" ? playlist.tags : playlist.observedTags
    }

    @Test(arguments: arrayKeys)
    func insertionReportsIndexesAndOnlyTheNewElements(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableArrayValue(forKey: key).insert([1, 2], at: IndexSet([1, 3]))
        #expect(array(playlist, key) == [10, 1, 20, 2, 30])
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .insertion)
        #expect(change.indexes == IndexSet([1, 3]))
        #expect(integers(change.newValue) == [1, 2])
        #expect(change.oldValue == nil)
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func appendReportsTheLastIndex(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableArrayValue(forKey: key).append(40)
        let change = try #require(recorder.all.first)
        #expect(change.kind == .insertion)
        #expect(change.indexes == IndexSet(integer: 3))
        #expect(integers(change.newValue) == [40])
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func removalReportsIndexesAndOnlyTheRemovedElements(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableArrayValue(forKey: key).remove(at: IndexSet([0, 2]))
        #expect(array(playlist, key) == [20])
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .removal)
        #expect(change.indexes == IndexSet([0, 2]))
        #expect(integers(change.oldValue) == [10, 30])
        #expect(change.newValue == nil)
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func replacementReportsOldAndNewElements(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableArrayValue(forKey: key).replace(at: 1, with: 99)
        #expect(array(playlist, key) == [10, 99, 30])
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .replacement)
        #expect(change.indexes == IndexSet(integer: 1))
        #expect(integers(change.oldValue) == [20])
        #expect(integers(change.newValue) == [99])
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func moveIsARemovalThenAnInsertion(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableArrayValue(forKey: key).move(from: 0, to: 2)
        #expect(array(playlist, key) == [20, 30, 10])
        #expect(recorder.all.map(\.kind) == [.removal, .insertion])
        #expect(recorder.all.map(\.indexes) == [IndexSet(integer: 0), IndexSet(integer: 2)])
        #expect(integers(recorder.all.first?.oldValue) == [10])
        #expect(integers(recorder.all.last?.newValue) == [10])
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func priorRecordCarriesIndexesAndOldElements(key: String) throws {
        let (playlist, recorder, token) = try observed(key, options: [.old, .new, .prior])
        try playlist.mutableArrayValue(forKey: key).remove(at: 1)
        #expect(recorder.count == 2)
        let prior = try #require(recorder.all.first)
        #expect(prior.isPrior)
        #expect(prior.kind == .removal)
        #expect(prior.indexes == IndexSet(integer: 1))
        #expect(integers(prior.oldValue) == [20])
        #expect(prior.newValue == nil)
        #expect(recorder.all.last?.isPrior == false)
        token.invalidate()
    }

    @Test(arguments: arrayKeys)
    func wrongElementTypeThrowsAndSendsNothing(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        #expect(throws: KeyValueCodingError.self) {
            try playlist.mutableArrayValue(forKey: key).append("not a number")
        }
        #expect(recorder.count == 0)
        #expect(array(playlist, key) == [10, 20, 30])
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func unionReportsOnlyTheAddedMembers(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableSetValue(forKey: key).union(["b", "c"])
        #expect(set(playlist, key) == ["a", "b", "c"])
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .insertion)
        #expect(strings(change.newValue) == ["c"])
        #expect(change.oldValue == nil)
        #expect(change.indexes == nil)
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func minusReportsOnlyTheRemovedMembers(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableSetValue(forKey: key).subtract(["b", "z"])
        #expect(set(playlist, key) == ["a"])
        let change = try #require(recorder.all.first)
        #expect(change.kind == .removal)
        #expect(strings(change.oldValue) == ["b"])
        #expect(change.newValue == nil)
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func intersectReportsTheMembersLeftOut(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        try playlist.mutableSetValue(forKey: key).formIntersection(["a", "z"])
        #expect(set(playlist, key) == ["a"])
        let change = try #require(recorder.all.first)
        #expect(change.kind == .removal)
        #expect(strings(change.oldValue) == ["b"])
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func setReportsAddedAndRemovedMembers(key: String) throws {
        let (playlist, recorder, token) = try observed(key, options: [.old, .new, .prior])
        try playlist.mutableSetValue(forKey: key).replaceAll(with: ["b", "c"])
        #expect(set(playlist, key) == ["b", "c"])
        #expect(recorder.count == 2)
        let prior = try #require(recorder.all.first)
        #expect(prior.isPrior && prior.kind == .replacement)
        #expect(strings(prior.oldValue) == ["a"])
        let change = try #require(recorder.all.last)
        #expect(change.kind == .replacement)
        #expect(strings(change.oldValue) == ["a"])
        #expect(strings(change.newValue) == ["c"])
        token.invalidate()
    }

    @Test(arguments: setKeys)
    func insertAndRemoveOfOneMember(key: String) throws {
        let (playlist, recorder, token) = try observed(key)
        let proxy = try playlist.mutableSetValue(forKey: key)
        try proxy.insert("q")
        try proxy.remove("a")
        #expect(set(playlist, key) == ["b", "q"])
        #expect(recorder.all.map(\.kind) == [.insertion, .removal])
        #expect(strings(recorder.all.first?.newValue) == ["q"])
        #expect(strings(recorder.all.last?.oldValue) == ["a"])
        token.invalidate()
    }

    @Test func chainObserverSeesTheToManyChangeOfItsLastKey() throws {
        let holder = PlaylistHolder()
        let recorder = Recorder()
        let token = try holder.observe("playlist.observedItems", options: [.new]) { _, c in recorder.record(c) }
        try holder.playlist.mutableArrayValue(forKey: "observedItems").append(40)
        let change = try #require(recorder.all.first)
        #expect(recorder.count == 1)
        #expect(change.kind == .insertion)
        #expect(change.indexes == IndexSet(integer: 3))
        #expect(integers(change.newValue) == [40])
        token.invalidate()
    }
}

final class PlaylistHolder: KeyValueObservable {
    @Observed var playlist = Playlist()
}
