import Foundation
import Testing
import ManagedObjects

/// A save's updated rows that name their changed slots (packed rows kept as slot values
/// alone, with ``StoreSaveChanges/updatedSlotMasks``) are written into the cached row in place
/// when the cache holds the object's row on its own at the version the save started from:
/// the cached row then holds the changed slots' new values and keeps its own values array,
/// not the saved row's. Any other case takes the saved row whole, as before.
@Suite struct RowCacheInPlaceUpdateTests {
    static let entity = EntityDescription(name: "Item", properties: [
        .attribute("name", .string), .attribute("count", .integer64), .attribute("note", .string),
    ])
    static let shape = StoreRowShape(entity: entity, names: ["name", "count", "note"])
    static let id = ManagedObjectID(entityName: "Item", storeIdentifier: "S", primaryKey: 1)

    /// A packed row of `values` (slot order: name, count, note).
    static func row(version: Int64, _ values: ContiguousArray<Any?>) -> StoreRow {
        StoreRow(objectID: id, version: version, columns: StoreRowColumns(shape: shape, exactSlotValues: values))
    }

    /// Saves `row` as an update whose changed slots are `slots`, each version one more.
    static func save(_ row: StoreRow, slots: UInt64, in cache: RowCache) {
        var changes = StoreSaveChanges(updated: [row])
        changes.updatedSlotMasks = [slots]
        cache.store(saved: &changes, versions: [:], updatedByOne: true)
    }

    /// The address of the buffer of a row's slot values.
    static func buffer(of row: StoreRow) -> UnsafeRawPointer? {
        row.columns?.slotValues.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// A cached row of its own at the version the save started from (1) takes only the changed
    /// slot, and keeps its own values array; one at another version (3) is replaced whole.
    @Test(arguments: [(Int64(1), "kept"), (Int64(3), "unwritten")])
    func aSavedRowOverACachedRowOfItsOwn(cachedVersion: Int64, note: String) throws {
        let cache = RowCache()
        cache.store([Self.row(version: cachedVersion, ["a", Int64(1), "kept"])][...])
        // The saved row's `note` differs but is not among the changed slots: a row updated in
        // place keeps its own (a store writing only the changed columns keeps it too).
        let saved = Self.row(version: 1, ["b", Int64(1), "unwritten"])
        Self.save(saved, slots: 1 << 0, in: cache)
        let cached = try #require(cache.row(for: Self.id, maximumAge: -1))
        #expect(cached.version == 2)
        #expect(cached.attributes == ["name": .string("b"), "count": .integer(1), "note": .string(note)])
        // In place, the cache keeps its own values array; replaced, it holds the saved row's.
        #expect((Self.buffer(of: cached) == Self.buffer(of: saved)) == (cachedVersion != 1))
    }

    @Test func everySlotChangedOrNoMaskTakesTheSavedRowWhole() throws {
        let cache = RowCache()
        cache.store([Self.row(version: 1, ["a", Int64(1), "old"])][...])
        Self.save(Self.row(version: 1, ["b", Int64(2), "all"]), slots: .max, in: cache)
        #expect(cache.row(for: Self.id, maximumAge: -1)?.attributes["note"] == .string("all"))
        // A save made by hand, without masks: the row is taken whole too.
        var changes = StoreSaveChanges(updated: [Self.row(version: 2, ["c", Int64(3), "hand"])])
        cache.store(saved: &changes, versions: [:], updatedByOne: true)
        let cached = try #require(cache.row(for: Self.id, maximumAge: -1))
        #expect(cached.version == 3)
        #expect(cached.attributes == ["name": .string("c"), "count": .integer(3), "note": .string("hand")])
    }

    @Test func aFetchedRowIsReplacedThenTheNextSaveWritesInPlace() throws {
        let cache = RowCache()
        let other = ManagedObjectID(entityName: "Item", storeIdentifier: "S", primaryKey: 2)
        // A fetch's rows, kept as one shared array.
        cache.store([Self.row(version: 1, ["a", Int64(1), "x"]),
                     StoreRow(objectID: other, version: 1, columns: StoreRowColumns(shape: Self.shape, exactSlotValues: ["o", nil, nil]))])
        let first = Self.row(version: 1, ["b", Int64(1), "x"])
        Self.save(first, slots: 1 << 0, in: cache)
        // Taken whole: the entry now holds the saved row (sharing its values).
        #expect(Self.buffer(of: try #require(cache.row(for: Self.id, maximumAge: -1))) == Self.buffer(of: first))
        let second = Self.row(version: 2, ["b", Int64(7), "x"])
        Self.save(second, slots: 1 << 1, in: cache)
        let cached = try #require(cache.row(for: Self.id, maximumAge: -1))
        #expect(cached.version == 3)
        #expect(cached.attributes == ["name": .string("b"), "count": .integer(7), "note": .string("x")])
        #expect(Self.buffer(of: cached) != Self.buffer(of: second))
        // The fetch's other row is still cached.
        #expect(cache.row(for: other, maximumAge: -1)?.attributes == ["name": .string("o")])
    }

    @Test func aRowReadBeforeTheSaveKeepsItsValues() throws {
        let cache = RowCache()
        cache.store([Self.row(version: 1, ["a", Int64(1), "x"])][...])
        let before = try #require(cache.row(for: Self.id, maximumAge: -1))
        Self.save(Self.row(version: 1, ["b", Int64(1), "x"]), slots: 1 << 0, in: cache)
        // Rows are values: the one handed out before the save is unchanged.
        #expect(before.version == 1)
        #expect(before.attributes["name"] == .string("a"))
        #expect(cache.row(for: Self.id, maximumAge: -1)?.attributes["name"] == .string("b"))
    }

    @Test func listedVersionsAreCheckedAndSetInPlace() throws {
        let cache = RowCache()
        cache.store([Self.row(version: 4, ["a", Int64(1), "x"])][...])
        var changes = StoreSaveChanges(updated: [Self.row(version: 4, ["a", Int64(9), "x"])])
        changes.updatedSlotMasks = [1 << 1]
        cache.store(saved: &changes, versions: [Self.id: 11])
        let cached = try #require(cache.row(for: Self.id, maximumAge: -1))
        #expect(cached.version == 11)
        #expect(cached.attributes["count"] == .integer(9))
    }

    @Test func aRowOfAnotherShapeIsReplacedWhole() throws {
        let cache = RowCache()
        // A dictionary row cached: not of the packed form.
        cache.store([StoreRow(objectID: Self.id, version: 1, attributes: ["name": .string("a"), "note": .string("d")])][...])
        Self.save(Self.row(version: 1, ["b", Int64(1), nil]), slots: 1 << 0, in: cache)
        let cached = try #require(cache.row(for: Self.id, maximumAge: -1))
        #expect(cached.version == 2)
        #expect(cached.attributes == ["name": .string("b"), "count": .integer(1)])
    }
}
