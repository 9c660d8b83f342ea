import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// Changes lost in silence (session 11's hostile trial, F5–F7) on the SQLite store: the same
/// bodies as ManagedObjectsTests/LostChangeMatrixTests (TestSupport/LostChangeMatrix), on a
/// temporary file; every coordinator of a test opens its own store on that file.
@Suite struct SQLiteLostChangeMatrixTests {
    static func run(_ body: (TestStoreFactory) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Lost.sqlite")
        try body(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) })
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
