// Core Data's SQLite layout for a model: entity numbers, tables, columns, join tables.
import Foundation
import ManagedObjects
import SQLCompiling

/// The tables and columns of a model in Core Data's SQLite layout (Docs/SQLiteStore.md).
///
/// Built once per loaded store from the model (and, for an existing file, the entity numbers
/// recorded in its `Z_PRIMARYKEY`); every SQL statement of the store is derived from it.
package struct SQLiteSchema: Sendable {
    /// One entity: its number, its table and where each of its properties is kept (the
    /// layout the shared predicate compiler reads).
    package typealias Entity = SQLEntityLayout

    /// Where a relationship's members are kept.
    package typealias RelationshipStorage = SQLRelationshipStorage

    /// One table and its columns in order, with declared types.
    package struct Table: Sendable {
        package var name: String
        package var columns: [(name: String, type: String)]
        /// For join tables, the primary key; for entity tables, empty (Z_PK is the key).
        package var primaryKey: [String] = []
        package var isJoinTable: Bool { !primaryKey.isEmpty }
        /// Whether the root has subentities (the table gets a `Z_ENT` index).
        package var hasSubentities = false
        /// Columns that get a `<TABLE>_<COLUMN>_INDEX` (foreign keys).
        package var indexedColumns: [String] = []
    }

    package var entities: [String: Entity] = [:]
    package var entityNamesByNumber: [Int64: String] = [:]
    /// Entity tables (one per root) then join tables, in creation order.
    package var tables: [Table] = []
    /// Extra indexes (uniqueness constraints, fetch indexes, indexed attributes), as DDL.
    package var indexStatements: [String] = []

    /// The table of an entity.
    package func tableName(of entityName: String) -> String? {
        entities[entityName].map { Self.tableName(root: $0.rootName) }
    }

    /// `Z` + the root name in upper case.
    package static func tableName(root: String) -> String { SQLEntityLayout.tableName(root: root) }
}

extension SQLiteSchema {
    /// Numbers entities as Core Data does: 1…N in depth-first pre-order, roots and siblings
    /// sorted by name, case-insensitively (ties broken by the exact name).
    package static func entityNumbers(for model: ManagedObjectModel) -> [String: Int64] {
        func ordered(_ list: [EntityDescription]) -> [EntityDescription] {
            list.sorted { a, b in
                let (x, y) = (a.name.lowercased(), b.name.lowercased())
                return x != y ? x < y : a.name < b.name
            }
        }
        var numbers: [String: Int64] = [:]
        var next: Int64 = 1
        func visit(_ entity: EntityDescription) {
            numbers[entity.name] = next
            next += 1
            for child in ordered(model.subentities(of: entity)) { visit(child) }
        }
        for root in ordered(model.entities.filter { $0.parentName == nil }) { visit(root) }
        return numbers
    }
}
