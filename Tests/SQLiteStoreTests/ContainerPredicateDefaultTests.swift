import Foundation
import Testing
import KeyValueCoding
import Predicates
@testable import ManagedObjects
@testable import SQLiteStore

/// Stores opened from descriptions (containers, `.sqlite(at:)`) compile predicates to SQL by
/// default, as ``SQLitePersistentStore/init(url:evaluatesPredicatesInSQL:tracksPersistentHistory:postsRemoteChangeNotifications:remoteChangeCheckInterval:)``
/// does (trial 11, F3: they read every row).
@Suite @MainActor struct ContainerPredicateDefaultTests {
    /// Loads `description` in a container with three stands and returns its store's answer to
    /// `name == 'B'`.
    static func fetchB(_ description: StoreDescription) throws -> (store: SQLitePersistentStore, result: StoreFetchResult) {
        let container = PersistentContainer(name: "Stand", model: try ContextMatrixTests.fruitModel())
        container.storeDescriptions = [description]
        try container.loadPersistentStores()
        for name in ["A", "B", "C"] {
            try container.viewContext.insertNewObject(forEntityNamed: "Stand").setValue(name, forKey: "name")
        }
        try container.viewContext.save()
        let store = try #require(container.coordinator.stores.first as? SQLitePersistentStore)
        let request = StoreFetchRequest(entityNames: ["Stand"], predicate: try KeyValuePredicate(format: "name == 'B'"))
        let result = try store.fetch(request)
        #expect(try container.viewContext.count(for: EntityFetchRequest(entityName: "Stand", predicate: try KeyValuePredicate(format: "name == 'B'"))) == 1)
        return (store, result)
    }

    @Test func descriptionsCompilePredicatesToSQLByDefault() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for description in [StoreDescription.sqlite(at: directory.file("a.sqlite")),
                            StoreDescription(type: SQLitePersistentStore.type, url: directory.file("b.sqlite")),
                            PersistentContainer(name: "Stand", model: try ContextMatrixTests.fruitModel()).storeDescriptions[0]
                                .withURL(directory.file("c.sqlite"))] {
            let (store, result) = try Self.fetchB(description)
            #expect(store.evaluatesPredicatesInSQL, "\(description.url?.lastPathComponent ?? "")")
            #expect(result.appliedPredicate)
            #expect(result.rows.count == 1, "only the matching row is read")
        }
    }

    @Test func theOptionTurnsSQLEvaluationOff() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var described = StoreDescription(type: SQLitePersistentStore.type, url: directory.file("b.sqlite"))
        described.options[SQLitePersistentStore.evaluatesPredicatesInSQLOption] = "NO"
        for description in [StoreDescription.sqlite(at: directory.file("a.sqlite"), evaluatesPredicatesInSQL: false), described] {
            let (store, result) = try Self.fetchB(description)
            #expect(!store.evaluatesPredicatesInSQL)
            #expect(!result.appliedPredicate)
            #expect(result.rows.count == 3)
        }
        for (option, expected) in [("YES", true), ("1", true), ("no", false), ("0", false), ("false", false), (nil, true)] as [(String?, Bool)] {
            #expect(SQLitePersistentStore.predicatesInSQL(option: option) == expected, "\(option ?? "nil")")
        }
    }
}

extension StoreDescription {
    /// The description with another URL.
    func withURL(_ url: URL) -> StoreDescription {
        var copy = self
        copy.url = url
        return copy
    }
}
