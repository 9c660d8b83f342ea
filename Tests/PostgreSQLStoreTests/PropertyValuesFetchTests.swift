import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates
@testable import PostgreSQLStore

/// `includesPropertyValues = false` on the PostgreSQL store: the shared bodies of
/// TestSupport/PropertyValuesFetch, each test on a schema of its own (every coordinator opens
/// its own store), and the store's answer of keys and versions.
@Suite struct PostgreSQLPropertyValuesFetchTests {
    static func run(_ body: (TestStoreFactory) throws -> Void) throws {
        try TestDatabase.run { try body($0.factory) }
    }

    @Test func objectsAreFaultsUntilRead() throws { try Self.run(PropertyValuesFetch.objectsAreFaultsUntilRead) }

    @Test func deletedFaultsSave() throws { try Self.run(PropertyValuesFetch.deletedFaultsSave) }

    @Test func changedRowIsAConflict() throws { try Self.run(PropertyValuesFetch.changedRowIsAConflict) }

    /// SQL decides the predicate: keys and versions, no rows.
    @Test func onlyKeysAndVersionsAreRead() throws {
        try Self.run { try PropertyValuesFetch.storeAnswersWithKeysAndVersions(try PropertyValuesFetch.stocked($0)) }
    }
}
