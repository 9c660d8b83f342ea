import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// Changes lost in silence (session 11's hostile trial, F5–F7) on the SQLite store: the same
/// bodies as ManagedObjectsTests/LostChangeMatrixTests (TestSupport/LostChangeMatrix), on a
/// temporary file (SQLiteMergeMatrixTests' factory: every coordinator of a test opens its own
/// store on that file).
@Suite struct SQLiteLostChangeMatrixTests {
    @Test(arguments: LostChangeMatrix.Case.allCases) func lostChange(case which: LostChangeMatrix.Case) throws {
        try SQLiteMergeMatrixTests.run { try LostChangeMatrix.run(which, $0) }
    }
}
