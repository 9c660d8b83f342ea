// Core Data's SQLite layout for a model: entity numbers, tables, columns, join tables.
import Foundation
import ManagedObjects

/// The tables and columns of a model in Core Data's SQLite layout (Docs/SQLiteStore.md).
///
/// Built once per loaded store from the model (and, for an existing file, the entity numbers
/// recorded in its `Z_PRIMARYKEY`); every SQL statement of the store is derived from it.
package struct SQLiteSchema: Sendable {
    /// One entity: its number, its table and where each of its properties is kept.
    package struct Entity: Sendable {
        package var name: String
        /// `Z_ENT`.
        package var number: Int64
        /// The parent's `Z_ENT`, 0 for a root (`Z_SUPER`).
        package var superNumber: Int64
        /// The inheritance root's name; its table holds this entity's rows.
        package var rootName: String
        package var isAbstract: Bool
        /// The entity and its descendants that have rows of their own (not abstract).
        package var concreteNumbers: [Int64] = []
        /// Attribute name → column, in the entity's property order (inherited ones included).
        package var attributes: [(attribute: AttributeDescription, column: String)] = [] {
            didSet { attributeKinds = attributes.map { ($0.attribute.name, $0.attribute.attributeType) } }
        }
        /// Each attribute's name and type, in `attributes` order (read per row without copying
        /// the descriptions).
        package private(set) var attributeKinds: [(name: String, type: AttributeDescription.AttributeType)] = []
        /// Relationship name → how it is kept (inherited ones included).
        package var relationships: [(relationship: RelationshipDescription, storage: RelationshipStorage)] = []
        /// The order of packed rows (``StoreRowColumns``) of the entity; `nil` when an
        /// attribute's values are not plain `Sendable` values (transformable and the like),
        /// whose rows are read as dictionaries.
        package var rowShape: StoreRowShape?

        /// Sets ``rowShape`` for the entity's description.
        mutating func makeRowShape(_ description: EntityDescription) {
            let plain = attributes.allSatisfy { pair in
                switch pair.attribute.attributeType {
                case .transformable, .objectID, .composite, .undefined: return false
                default: return true
                }
            }
            rowShape = plain ? StoreRowShape(entity: description, names: attributes.map(\.attribute.name)) : nil
        }
    }

    /// Where a relationship's members are kept.
    package enum RelationshipStorage: Sendable {
        /// A to-one: the target's `Z_PK` in `column` of the source row, and its `Z_ENT` in
        /// `entityColumn` when the destination has subentities.
        case foreignKey(column: String, entityColumn: String?, destination: String)
        /// A to-many whose inverse is a to-one: the destination rows whose `column` holds
        /// this row's `Z_PK`, ordered by `orderColumn` when ordered.
        case inverseForeignKey(table: String, column: String, orderColumn: String?, destination: String)
        /// A many-to-many (or inverse-less to-many): pairs in a join table, this row's `Z_PK`
        /// in `ownColumn`, the target's in `otherColumn`, the order in `orderColumn`.
        case joinTable(table: String, ownColumn: String, otherColumn: String, orderColumn: String?,
                       destination: String)
    }

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
    package static func tableName(root: String) -> String { "Z" + root.uppercased() }
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
