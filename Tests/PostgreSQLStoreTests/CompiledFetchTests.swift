import Foundation
import Testing
import ManagedObjects
import Predicates
import SQLCompiling
@testable import PostgreSQLStore

/// Fetches the PostgreSQL store answers in SQL: placeholders, bound values, subentities,
/// counts and IDs.
@Suite struct CompiledFetchTests {
    @Test func placeholdersAreNumberedAndTypedOutsideQuotes() {
        let sql = SQLDialect.postgreSQL.numbered("SELECT \"a?\" FROM t WHERE x = ? AND y = 'z?' AND w IN (?, ?) AND v = ?",
                                                 arguments: [.integer(1), .text("b"), .real(2), .null], from: 3)
        #expect(sql == "SELECT \"a?\" FROM t WHERE x = $3::bigint AND y = 'z?' AND w IN ($4::text, $5::double precision) AND v = $6")
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        try TestDatabase.run { database in
            let context = try StoreTests.context(database, model: try StoreTests.library())
            let hostile = "x'; DROP TABLE \"ZITEM\"; --"
            for name in [hostile, "plain", "a'b"] {
                try context.insertNewObject(forEntityNamed: "Item").setValue(name, forKey: "name")
            }
            try context.save()
            let other = try StoreTests.context(database, model: try StoreTests.library())
            for name in [hostile, "a'b"] {
                let request = EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "name == %@", name))
                #expect(try other.fetch(request).map { $0.stored("name") as? String } == [name])
            }
            #expect(try other.count(for: EntityFetchRequest(entityName: "Item")) == 3)
        }
    }

    @Test func subentitiesCountsAndIDs() throws {
        try TestDatabase.run { database in
            let model = try StoreTests.library()
            let context = try StoreTests.context(database, model: model)
            for index in 0..<12 {
                let book = try context.insertNewObject(forEntityNamed: index % 3 == 0 ? "Novel" : "Book")
                try book.setValue("title \(index < 10 ? "0" : "")\(index)", forKey: "title")
            }
            try context.save()
            let store = try #require(context.coordinator?.stores.first as? PostgreSQLPersistentStore)
            let other = try StoreTests.context(database, model: model)
            var request = EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title > 'title 03'"),
                                             sortDescriptors: [KeyValueSortDescriptor(key: "title", ascending: false)])
            request.fetchOffset = 1
            request.fetchLimit = 4
            let titles = try other.fetch(request).map { $0.stored("title") as? String }
            #expect(titles == ["title 10", "title 09", "title 08", "title 07"])
            #expect(try other.fetchObjectIDs(request).count == 4)
            #expect(try other.count(for: EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title > 'title 03'"))) == 8)
            #expect(try other.count(for: EntityFetchRequest(entityName: "Novel")) == 4)
            // One entity: order and limits in SQL; two (Book and Novel): the order in memory.
            let one = StoreFetchRequest(entityNames: ["Novel"], predicate: try KeyValuePredicate(format: "title > 'title 03'"),
                                        sortDescriptors: [KeyValueSortDescriptor(key: "title")], fetchLimit: 2)
            let decided = try store.sqlDecides(one)
            #expect(decided.predicate && decided.orderAndLimits)
            let result = try store.fetch(one)
            #expect(result.appliedOrderAndLimits && result.rows.count == 2)
            var two = one
            two.entityNames = ["Book", "Novel"]
            let both = try store.sqlDecides(two)
            #expect(both.predicate && !both.orderAndLimits)
            let count = try store.fetch(StoreFetchRequest(entityNames: ["Book", "Novel"], predicate: one.predicate, resultType: .count))
            #expect(count.count == 8)
        }
    }
}
