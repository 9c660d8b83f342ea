import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// Merging and merge policies on the SQLite store: the same bodies as
/// ManagedObjectsTests/MergeMatrixTests (TestSupport/MergeMatrix), on a temporary file; every
/// coordinator of a test opens its own store on that file.
@Suite struct SQLiteMergeMatrixTests {
    static func run(_ body: (TestStoreFactory) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Merge.sqlite")
        try body(TestStoreFactory("sqlite") { SQLitePersistentStore(url: url) })
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

    @Test(arguments: MergePolicy.Kind.allCases) func toOneMovedBothWaysAgainstStaleShelves(kind: MergePolicy.Kind) throws {
        try Self.run { try MergeMatrix.toOneMovedBothWays(kind, $0, staleShelves: true) }
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
