import Foundation
import Testing
import TestSupport
import ManagedObjects

/// Changes lost in silence (session 11's hostile trial, F5–F7) on the in-memory store and the
/// atomic file store (the shared bodies: TestSupport/LostChangeMatrix; SQLiteStoreTests runs
/// them on the SQLite store).
@Suite struct LostChangeMatrixTests {
    /// Each case on an in-memory store and on an atomic file store (one store per case: each
    /// call of `open` gives the same store).
    @Test(arguments: LostChangeMatrix.Case.allCases) func lostChange(case which: LostChangeMatrix.Case) throws {
        let memory = InMemoryStore()
        try LostChangeMatrix.run(which, TestStoreFactory("in-memory") { memory })
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("LostChange-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = AtomicFileStore(url: url)
        try LostChangeMatrix.run(which, TestStoreFactory("file") { file })
    }
}

/// One store, added once (session 11's hostile trial, F8): the same store, or a store on the
/// same file, cannot be added to a coordinator twice (its rows came back twice from every
/// fetch).
@Suite struct StoreAddedTwiceTests {
    @Test func theSameStoreTwiceThrows() throws {
        let store = InMemoryStore()
        let coordinator = try LostChangeMatrix.stocked(TestStoreFactory("in-memory") { store })
        #expect(throws: StoreManagementError.storeAlreadyAdded("the store \(store.identifier)")) { try coordinator.addStore(store) }
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
