import Foundation
import Testing
import TestSupport
import ManagedObjects

/// Undoing a delete keeps the object's earlier changes (session 12's hostile trial, N1) on the
/// in-memory store (the shared bodies: TestSupport/UndoDeleteMatrix; SQLiteStoreTests runs them
/// on the SQLite store).
@Suite struct UndoDeleteMatrixTests {
    @Test(arguments: UndoDeleteMatrix.Case.allCases) func undoneDelete(case which: UndoDeleteMatrix.Case) throws {
        let memory = InMemoryStore()
        try UndoDeleteMatrix.run(which, TestStoreFactory("in-memory") { memory })
    }
}
