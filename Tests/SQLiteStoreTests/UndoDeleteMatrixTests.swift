import Foundation
import Testing
import TestSupport
import ManagedObjects

/// Undoing a delete keeps the object's earlier changes (session 12's hostile trial, N1) on the
/// SQLite store: the same bodies as ManagedObjectsTests/UndoDeleteMatrixTests
/// (TestSupport/UndoDeleteMatrix), on a temporary file.
@Suite struct SQLiteUndoDeleteMatrixTests {
    @Test(arguments: UndoDeleteMatrix.Case.allCases) func undoneDelete(case which: UndoDeleteMatrix.Case) throws {
        try SQLiteMergeMatrixTests.run { try UndoDeleteMatrix.run(which, $0) }
    }
}
