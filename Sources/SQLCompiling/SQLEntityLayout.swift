// Where an entity's rows, columns and relationships are, as the predicate compiler reads them.
import Foundation
import ManagedObjects

/// One entity's storage in Core Data's layout, shared by the SQLite and PostgreSQL stores:
/// a table per inheritance root (`Z` + the root's name in capitals) with `Z_PK`, `Z_ENT` and
/// `Z_OPT`, a column per attribute and to-one relationship, and where each to-many's members
/// are kept.
///
/// - Important: Thread safety: a `Sendable` value.
package struct SQLEntityLayout: Sendable {
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
    package var relationships: [(relationship: RelationshipDescription, storage: SQLRelationshipStorage)] = []
    /// The order of packed rows (``StoreRowColumns``) of the entity; `nil` when an
    /// attribute's values are not plain `Sendable` values (transformable and the like),
    /// whose rows are read as dictionaries.
    package var rowShape: StoreRowShape?

    package init(name: String, number: Int64, superNumber: Int64, rootName: String, isAbstract: Bool) {
        self.name = name
        self.number = number
        self.superNumber = superNumber
        self.rootName = rootName
        self.isAbstract = isAbstract
    }

    /// Sets ``rowShape`` for the entity's description.
    package mutating func makeRowShape(_ description: EntityDescription) {
        let plain = attributes.allSatisfy { pair in
            switch pair.attribute.attributeType {
            case .transformable, .objectID, .composite, .undefined: return false
            default: return true
            }
        }
        rowShape = plain ? StoreRowShape(entity: description, names: attributes.map(\.attribute.name)) : nil
    }

    /// The table of the entity's rows (unquoted): `Z` + the root's name in capitals.
    package var tableName: String { Self.tableName(root: rootName) }

    /// `Z` + the root name in upper case.
    package static func tableName(root: String) -> String { "Z" + root.uppercased() }
}

/// Where a relationship's members are kept.
package enum SQLRelationshipStorage: Sendable {
    /// A to-one: the target's `Z_PK` in `column` of the source row, and its `Z_ENT` in
    /// `entityColumn` when the store keeps one.
    case foreignKey(column: String, entityColumn: String?, destination: String)
    /// A to-many whose inverse is a to-one: the destination rows whose `column` holds
    /// this row's `Z_PK`, ordered by `orderColumn` when ordered.
    case inverseForeignKey(table: String, column: String, orderColumn: String?, destination: String)
    /// A many-to-many (or inverse-less to-many): pairs in a join table, this row's `Z_PK`
    /// in `ownColumn`, the target's in `otherColumn`, the order in `orderColumn`.
    case joinTable(table: String, ownColumn: String, otherColumn: String, orderColumn: String?,
                   destination: String)
}
