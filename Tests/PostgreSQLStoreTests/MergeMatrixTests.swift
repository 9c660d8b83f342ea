import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import PostgreSQLStore

/// Merging and merge policies on the PostgreSQL store: the same bodies as the in-memory and
/// SQLite stores (TestSupport/MergeMatrix), each test on a schema of its own; every coordinator
/// of a test opens its own store (its own connection) on it.
@Suite struct PostgreSQLMergeMatrixTests {
    static func run(_ body: (TestStoreFactory) throws -> Void) throws {
        try TestDatabase.run { try body($0.factory) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func optimisticLocking(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.optimisticLocking(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func relationshipOnlyChange(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.relationshipOnlyChange(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func toOneMovedBothWays(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.toOneMovedBothWays(kind, $0) }
    }

    @Test(arguments: [MergePolicy.Kind.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump])
    func toManyMergedByMember(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.toManyMergedByMember(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func deletedInStore(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.deletedInStore(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func deletedInContext(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.deletedInContext(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func constraintWithStoredRow(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.constraintWithStoredRow(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func constraintByUpdate(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.constraintByUpdate(kind, $0) }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func constraintWithinContext(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.constraintWithinContext(kind, $0) }
    }

    @Test func constraintWithRegisteredObject() throws { try Self.run(MergeMatrix.constraintWithRegisteredObject) }
    @Test func customPolicy() throws { try Self.run(MergeMatrix.customPolicy) }
    @Test func mergeFromContextDidSave() throws { try Self.run(MergeMatrix.mergeFromContextDidSave) }
    @Test func mergeKeepsLocalChanges() throws { try Self.run(MergeMatrix.mergeKeepsLocalChanges) }
    @Test func refreshing() throws { try Self.run(MergeMatrix.refreshing) }
    @Test func remoteMergeAndStaleness() throws { try Self.run(MergeMatrix.remoteMergeAndStaleness) }
}
