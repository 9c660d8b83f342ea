import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile values and orders through the rewritten insert, update and delete paths (session 8):
// extreme values inserted and then updated one by one, a unique value freed by a delete and
// taken by an insert in the same save, new objects related to saved ones, the history's record
// of the columns an update changed.
@Suite struct HostileSession8EdgeTests {
    /// Extreme values per key, each checked after an insert and after an update.
    static var extremes: [(String, Any?)] { [
        ("name", "a\u{0}b"), ("name", String(repeating: "é", count: 100_000)), ("name", "\u{1F600}\r\n"),
        ("bytes", Data()), ("bytes", Data(repeating: 0, count: 70_000)),
        ("large", Int64.min), ("medium", Int32.max), ("small", Int16.min),
        ("ratio", Double.infinity), ("ratio", -Double.infinity), ("ratio", -0.0), ("ratio", Double.leastNonzeroMagnitude),
        ("weight", Float.nan), ("weight", -Float.greatestFiniteMagnitude),
        ("when", Date.distantPast), ("when", Date(timeIntervalSinceReferenceDate: 0.000_001)),
        ("link", URL(string: "https://例え.jp/パス?q=%E2%9C%93#frag")!), ("payload", [String]()),
        ("price", Decimal(string: "-0.5")!), ("flag", false),
    ] }

    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x as String, let y as String): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (let x as Data, let y as Data): return x == y
        case (let x as Int64, let y as Int64): return x == y
        case (let x as Int32, let y as Int32): return x == y
        case (let x as Int16, let y as Int16): return x == y
        // -0.0 may come back as 0.0 (SQLite stores an integral REAL as an integer): equal, as
        // for Apple's isEqual.
        case (let x as Double, let y as Double): return x == y || (x.isNaN && y.isNaN)
        case (let x as Float, let y as Float): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (let x as Date, let y as Date): return x == y
        case (let x as URL, let y as URL): return x == y
        case (let x as Decimal, let y as Decimal): return x == y
        case (let x as Bool, let y as Bool): return x == y
        case (let x as [Any], let y as [String]): return x.compactMap { $0 as? String } == y && x.count == y.count
        default: return false
        }
    }

    @Test(arguments: H8Kind.allCases)
    func extremeValuesSurviveAnInsertAndAnUpdate(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        for (index, (key, value)) in Self.extremes.enumerated() {
            let fresh = try stack.context.insertNewObject(forEntityNamed: "Thing")
            try H8.fill(fresh, 0)
            try fresh.setValue(value, forKey: key)
            try fresh.setValue(Int64(index), forKey: "serial")
            inserted.append(fresh)
            let old = try stack.context.insertNewObject(forEntityNamed: "SubThing")
            try H8.fill(old, 1)
            try old.setValue(Int64(1000 + index), forKey: "serial")
            updated.append(old)
        }
        try stack.context.save()
        for (index, (key, value)) in Self.extremes.enumerated() { try updated[index].setValue(value, forKey: key) }
        try stack.context.save()
        let reader = try stack.fresh()
        for (index, (key, value)) in Self.extremes.enumerated() {
            let a = try reader.existingObject(with: inserted[index].objectID)
            let b = try reader.existingObject(with: updated[index].objectID)
            #expect(Self.same(try a.value(forKey: key), value), "inserted \(key) #\(index): \(String(describing: try? a.value(forKey: key)).prefix(80))")
            #expect(Self.same(try b.value(forKey: key), value), "updated \(key) #\(index): \(String(describing: try? b.value(forKey: key)).prefix(80))")
            H8.expect(a, 0, [:], "inserted #\(index)", except: [key])
            H8.expect(b, 1, [:], "updated #\(index)", except: [key])
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aUniqueValueFreedByADeleteIsTakenInTheSameSave(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let old = try stack.context.insertNewObject(forEntityNamed: "Code")
        try old.setValue("k", forKey: "code")
        let renamed = try stack.context.insertNewObject(forEntityNamed: "Code")
        try renamed.setValue("r", forKey: "code")
        try stack.context.save()
        stack.context.delete(old)
        let new = try stack.context.insertNewObject(forEntityNamed: "Code")
        try new.setValue("k", forKey: "code")
        // And a value freed by an update, taken by an insert.
        try renamed.setValue("r2", forKey: "code")
        let taker = try stack.context.insertNewObject(forEntityNamed: "Code")
        try taker.setValue("r", forKey: "code")
        try stack.context.save()
        let codes = try stack.fresh().fetch(EntityFetchRequest(entityName: "Code", sortDescriptors: [KeyValueSortDescriptor(key: "code")]))
        #expect(codes.map { try? $0.value(forKey: "code") as? String } == ["k", "r", "r2"])
        #expect(Set(codes.map(\.objectID)) == [new.objectID, taker.objectID, renamed.objectID])
        #expect(try stack.storedRow(old.objectID) == nil)
    }

    @Test(arguments: H8Kind.allCases)
    func newObjectsRelatedToSavedOnesWriteBothSides(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let box = try stack.context.insertNewObject(forEntityNamed: "Box")
        let tag = try stack.context.insertNewObject(forEntityNamed: "Tag")
        let first = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try first.setValue(Int64(0), forKey: "serial")
        try box.setValue([first], forKey: "things")
        try stack.context.save()
        // A fresh context, where box and tag are faults with unloaded to-manys.
        let context = try stack.fresh()
        let boxFault = try context.object(with: box.objectID)
        let tagFault = try context.object(with: tag.objectID)
        var added: [ManagedObject] = []
        for index in 1...3 {
            let thing = try context.insertNewObject(forEntityNamed: index == 2 ? "SubThing" : "Thing")
            try thing.setValue(Int64(index), forKey: "serial")
            try thing.setValue(boxFault, forKey: "box")
            try thing.setValue(Set([tagFault]), forKey: "tags")
            added.append(thing)
        }
        try context.save()
        let reader = try stack.fresh()
        let savedBox = try reader.existingObject(with: box.objectID)
        #expect(try (savedBox.value(forKey: "things") as? [ManagedObject])?.map { try $0.value(forKey: "serial") as? Int64 } == [0, 1, 2, 3])
        let savedTag = try reader.existingObject(with: tag.objectID)
        #expect(try (savedTag.value(forKey: "things") as? Set<ManagedObject>)?.count == 3)
        #expect(try stack.version(box.objectID) == 2 && stack.version(tag.objectID) == 2)
        #expect(try stack.version(first.objectID) == 1, "the first thing did not change")
        #expect(try added.allSatisfy { try stack.version($0.objectID) == 1 })
    }

    @Test func historyRecordsExactlyTheChangedColumns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: try H8.model())
        let store = SQLitePersistentStore(url: directory.file("H8.sqlite"), tracksPersistentHistory: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let things = try (0..<3).map { index in
            let thing = try context.insertNewObject(forEntityNamed: index == 1 ? "SubThing" : "Thing")
            try H8.fill(thing, 0)
            return thing
        }
        try context.save()
        try things[0].setValue("new", forKey: "name")
        try things[1].setValue("x", forKey: "extra")
        try things[1].setValue(nil, forKey: "payload")
        try things[2].setValue(Int64(3), forKey: "large")
        try things[2].setValue(Int64.max, forKey: "large")   // back: no change
        try things[2].setValue(Int16(3), forKey: "small")
        try context.save()
        let transactions = try store.executeHistoryRequest(.fetchHistory(after: PersistentHistoryToken?.none)).transactions
        #expect(transactions.count == 2)
        let changes = try #require(transactions.last?.changes)
        var names: [ManagedObjectID: Set<String>] = [:]
        for change in changes { names[change.changedObjectID] = change.updatedPropertyNames }
        #expect(names[things[0].objectID] == ["name"])
        #expect(names[things[1].objectID] == ["extra", "payload"])
        #expect(names[things[2].objectID] == ["small"])
    }
}
