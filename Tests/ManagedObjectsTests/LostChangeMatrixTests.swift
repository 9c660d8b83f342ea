import Foundation
import Testing
import TestSupport
import ManagedObjects

/// Changes lost in silence (session 11's hostile trial, F5–F7) on the in-memory store and the
/// atomic file store (the shared bodies: TestSupport/LostChangeMatrix; SQLiteStoreTests runs
/// them on the SQLite store).
@Suite struct LostChangeMatrixTests {
    /// One store per test (each call of `open` gives the same store).
    static func factories() -> [TestStoreFactory] {
        let memory = InMemoryStore()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("LostChange-\(UUID().uuidString).store")
        let file = AtomicFileStore(url: url)
        return [TestStoreFactory("in-memory") { memory }, TestStoreFactory("file") { file }]
    }

    static func run(_ body: (TestStoreFactory) throws -> Void) throws {
        for factory in factories() { try body(factory) }
    }

    @Test(arguments: [false, true]) func childSaveOntoAnObjectItsParentDeleted(parentSaves: Bool) throws {
        try Self.run { try LostChangeMatrix.childSaveOntoAnObjectItsParentDeleted($0, parentSaves: parentSaves) }
    }

    @Test func childRelatesToAnObjectItsParentDeleted() throws {
        try Self.run(LostChangeMatrix.childRelatesToAnObjectItsParentDeleted)
    }

    @Test func childSaveOntoLiveObjects() throws { try Self.run(LostChangeMatrix.childSaveOntoLiveObjects) }

    @Test(arguments: [false, true]) func changeOfAMissingRowThrows(neverStored: Bool) throws {
        try Self.run { try LostChangeMatrix.changeOfAMissingRowThrows($0, neverStored: neverStored) }
    }

    @Test func storeRefusesAnUpdateOfAMissingRow() throws { try Self.run(LostChangeMatrix.storeRefusesAnUpdateOfAMissingRow) }

    @Test(arguments: [false, true]) func faultOfAMissingRowThrows(neverStored: Bool) throws {
        try Self.run { try LostChangeMatrix.faultOfAMissingRowThrows($0, neverStored: neverStored) }
    }

    @Test func faultOfAReleasedContextThrows() throws { try Self.run(LostChangeMatrix.faultOfAReleasedContextThrows) }
}

/// One store, added once (session 11's hostile trial, F8): the same store, or a store on the
/// same file, cannot be added to a coordinator twice (its rows came back twice from every
/// fetch).
@Suite struct StoreAddedTwiceTests {
    @Test func theSameStoreTwiceThrows() throws {
        let store = InMemoryStore()
        let coordinator = try LostChangeMatrix.stocked(TestStoreFactory("in-memory") { store })
        #expect(throws: (any Error).self) { try coordinator.addStore(store) }
        #expect(coordinator.stores.count == 1)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: EntityFetchRequest(entityName: "Author")) == 2)
    }

    @Test func theSameFileTwiceThrows() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("Twice-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        let coordinator = try LostChangeMatrix.stocked(TestStoreFactory("file") { AtomicFileStore(url: url) })
        #expect { try coordinator.addStore(AtomicFileStore(url: url)) } throws: { error in
            ((error as? any LocalizedError)?.errorDescription ?? "").contains(url.path)
        }
        #expect(coordinator.stores.count == 1)
    }
}
