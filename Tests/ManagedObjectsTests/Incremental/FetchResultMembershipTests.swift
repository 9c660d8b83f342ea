import Foundation
import Testing
@testable import ManagedObjects
import TestSupport

/// Each object is in a fetch's result once, whichever way it came: made from a row, a
/// registered fault filled by a row, an object already loaded, a row repeated by the store,
/// or an unsaved insert. (A fetch appends the objects it makes without a set look-up; these
/// cases are the ones where the result must still be checked for the object.)
@Suite struct FetchResultMembershipTests {
    static func apple(_ key: Int64, radius: Double) -> StoreRow {
        StoreRow(objectID: StoreAnswerCheckTests.id("Apple", key), version: 1, attributes: ["radius": .double(radius)])
    }

    static func fetchApples(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(EntityFetchRequest(entityName: "Apple"))
    }

    @Test func aRowRepeatedByTheStoreMakesOneObjectAndTheFirstRowWins() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [Self.apple(1, radius: 2), Self.apple(2, radius: 3), Self.apple(1, radius: 9)]
        let context = try StoreAnswerCheckTests.context(script)
        let apples = try Self.fetchApples(context)
        #expect(apples.map(\.objectID) == [StoreAnswerCheckTests.id("Apple", 1), StoreAnswerCheckTests.id("Apple", 2)])
        #expect(try apples[0].value(forKey: "radius") as? Double == 2)
        #expect(Set(apples.map(ObjectIdentifier.init)).count == 2)
    }

    @Test func aRegisteredFaultIsFilledAndListedOnce() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [Self.apple(1, radius: 2), Self.apple(2, radius: 3), Self.apple(2, radius: 4)]
        let context = try StoreAnswerCheckTests.context(script)
        let fault = try context.object(with: StoreAnswerCheckTests.id("Apple", 2))
        #expect(fault.isFault)
        let apples = try Self.fetchApples(context)
        #expect(apples.count == 2)
        #expect(apples[1] === fault)
        #expect(!fault.isFault)
        #expect(try fault.value(forKey: "radius") as? Double == 3)
    }

    @Test func aSecondFetchListsTheLoadedObjectsOnceMore() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [Self.apple(1, radius: 2), Self.apple(2, radius: 3)]
        let context = try StoreAnswerCheckTests.context(script)
        let first = try Self.fetchApples(context)
        script.rows.append(Self.apple(3, radius: 5))
        let store = try #require(context.coordinator?.stores.first as? ScriptedAnswerStore)
        store.script.withLock { $0 = script }
        let second = try Self.fetchApples(context)
        #expect(second.count == 3)
        #expect(second[0] === first[0] && second[1] === first[1])
        #expect(Set(second.map(ObjectIdentifier.init)).count == 3)
    }

    @Test func unsavedInsertsAndDeletesAreMergedOnce() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [Self.apple(1, radius: 2), Self.apple(2, radius: 3)]
        let context = try StoreAnswerCheckTests.context(script)
        let loaded = try Self.fetchApples(context)
        let inserted = try context.insertNewObject(forEntityNamed: "Apple")
        context.delete(loaded[0])
        let apples = try Self.fetchApples(context)
        #expect(apples.count == 2)
        #expect(apples.contains { $0 === inserted })
        #expect(apples.contains { $0 === loaded[1] })
        #expect(!apples.contains { $0 === loaded[0] })
    }
}
