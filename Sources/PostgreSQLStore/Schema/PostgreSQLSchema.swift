// The store's layout: one table per inheritance root, join tables for to-many relationships.
import Foundation
import ManagedObjects
import SQLCompiling

/// Where each entity's objects live, in the spirit of Core Data's SQLite layout
/// (Docs/PostgreSQLStore.md):
///
/// - one table per inheritance root, `Z` + the root's name in capitals (`ZFRUIT`), with
///   `Z_PK` (primary key, counted per root), `Z_ENT` (entity number), `Z_OPT` (row version)
///   and a column per attribute and to-one relationship of the root and its subentities (`Z` +
///   the name in capitals, a number appended when two subentities declare the same name; a
///   to-one also has `…_ENT`, the destination's entity number);
/// - one table per to-many relationship, `Z_` + declaring entity + `_` + relationship
///   (`Z_OWNER`, `Z_POS`, `Z_TARGET`, `Z_TARGET_ENT`), each side of a relationship kept by
///   its owner;
/// - `Z_PRIMARYKEY` (entity numbers, names, parents and each root's last key) and
///   `Z_METADATA` (the store's UUID and the model's version hashes).
package struct PostgreSQLSchema: Sendable {
    /// One stored property of an entity.
    package struct Column: Sendable {
        package var name: String
        package var attribute: AttributeDescription?
        package var relationship: RelationshipDescription?
    }

    /// One entity's storage.
    package struct Entity: Sendable {
        package var name: String
        package var number: Int
        package var root: String
        package var table: String
        /// Attributes and to-one relationships, inherited ones included.
        package var columns: [Column]
        /// To-many relationships and their join tables, inherited ones included.
        package var joinTables: [(relationship: RelationshipDescription, table: String)]
    }

    /// A uniqueness constraint: its index, the entities it covers and its properties.
    package struct Constraint: Sendable {
        package var index: String
        package var table: String
        package var entityNumbers: [Int]
        package var properties: [String]
        package var columns: [String]
    }

    package let dialect = SQLDialect.postgreSQL
    package private(set) var entities: [String: Entity] = [:]
    package private(set) var entityNames: [Int: String] = [:]
    package private(set) var constraints: [Constraint] = []
    /// Each root's table: its columns and types, in order.
    package private(set) var tables: [String: [(name: String, type: String)]] = [:]
    /// Each entity's layout as the shared predicate compiler reads it (SQLCompiling).
    package private(set) var layouts: [String: SQLEntityLayout] = [:]

    /// The layout of a model.
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - numbers: Entity numbers already in the database, by name; new entities get the
    ///     next free numbers in name order.
    package init(model: ManagedObjectModel, numbers: [String: Int] = [:]) {
        var numbers = numbers
        var next = (numbers.values.max() ?? 0) + 1
        for entity in model.entities.sorted(by: { $0.name < $1.name }) where numbers[entity.name] == nil {
            numbers[entity.name] = next
            next += 1
        }
        func root(of entity: EntityDescription) -> EntityDescription { model.rootEntity(of: entity) }
        func declaring(_ property: String, from entity: EntityDescription) -> String {
            var current: EntityDescription? = entity
            var found = entity.name
            while let candidate = current {
                if candidate.properties.contains(where: { $0.name == property }) { found = candidate.name }
                current = candidate.parentName.flatMap(model.entity(named:))
            }
            return found
        }
        // Column names per root, given to declaring entities in name order (parents first is
        // not needed: a name is owned by (declaring entity, property)).
        var columnNames: [String: String] = [:]          // "Entity.property" → column
        var taken: [String: Set<String>] = [:]           // root → column names
        let ordered = model.entities.sorted { $0.name < $1.name }
        for entity in ordered {
            let rootName = root(of: entity).name
            for property in entity.properties {
                let isColumn: Bool
                switch property {
                case .attribute(let attribute): isColumn = !attribute.isTransient
                case .relationship(let relationship): isColumn = !relationship.isTransient && !relationship.isToMany
                case .fetchedProperty: isColumn = false
                }
                guard isColumn else { continue }
                let base = "Z" + property.name.uppercased()
                var name = base
                var suffix = 1
                while taken[rootName, default: ["Z_PK", "Z_ENT", "Z_OPT"]].contains(name)
                        || taken[rootName, default: []].contains(name + "_ENT") {
                    name = base + String(suffix)
                    suffix += 1
                }
                taken[rootName, default: ["Z_PK", "Z_ENT", "Z_OPT"]].insert(name)
                columnNames[entity.name + "." + property.name] = name
                var columns = tables[rootName] ?? [("Z_PK", "bigint"), ("Z_ENT", "integer"), ("Z_OPT", "bigint")]
                if case .attribute(let attribute) = property {
                    columns.append((name, dialect.columnType(attribute.attributeType)))
                } else {
                    columns.append((name, "bigint"))
                    columns.append((name + "_ENT", "integer"))
                }
                tables[rootName] = columns
            }
            if tables[rootName] == nil { tables[rootName] = [("Z_PK", "bigint"), ("Z_ENT", "integer"), ("Z_OPT", "bigint")] }
        }
        for entity in ordered {
            let rootName = root(of: entity).name
            var columns: [Column] = []
            var joins: [(RelationshipDescription, String)] = []
            for property in entity.allProperties {
                let owner = declaring(property.name, from: entity)
                switch property {
                case .attribute(let attribute) where !attribute.isTransient:
                    if let name = columnNames[owner + "." + attribute.name] { columns.append(Column(name: name, attribute: attribute)) }
                case .relationship(let relationship) where !relationship.isTransient:
                    if relationship.isToMany {
                        joins.append((relationship, "Z_" + owner.uppercased() + "_" + relationship.name.uppercased()))
                    } else if let name = columnNames[owner + "." + relationship.name] {
                        columns.append(Column(name: name, relationship: relationship))
                    }
                default:
                    break
                }
            }
            let number = numbers[entity.name] ?? 0
            entities[entity.name] = Entity(name: entity.name, number: number, root: rootName,
                                           table: "Z" + rootName.uppercased(), columns: columns, joinTables: joins)
            entityNames[number] = entity.name
        }
        tables = Dictionary(uniqueKeysWithValues: tables.map { ("Z" + $0.key.uppercased(), $0.value) })
        layouts = Self.layouts(model: model, entities: entities)
        for entity in ordered {
            for (position, properties) in entity.uniquenessConstraints.enumerated() where !properties.isEmpty {
                guard let stored = entities[entity.name] else { continue }
                let columns = properties.compactMap { property in stored.columns.first { $0.name == columnNames[declaring(property, from: entity) + "." + property] }?.name }
                guard columns.count == properties.count else { continue }
                var scope: [Int] = []
                for candidate in model.entities {
                    var next: EntityDescription? = candidate
                    while let current = next, current.name != entity.name { next = current.parentName.flatMap(model.entity(named:)) }
                    if next != nil, let number = numbers[candidate.name] { scope.append(number) }
                }
                constraints.append(Constraint(index: "Z_" + entity.name.uppercased() + "_UNIQUE\(position + 1)", table: stored.table,
                                              entityNumbers: scope.sorted(), properties: properties, columns: columns))
            }
        }
    }

    /// The entity of a name, or an error naming it.
    package func entity(_ name: String, server: String) throws -> Entity {
        guard let entity = entities[name] else {
            throw PostgreSQLStoreError(.unsupported("the model has no entity \(name)"), server: server)
        }
        return entity
    }
}

extension PostgreSQLSchema {
    /// The layouts of the entities for the predicate compiler: attributes and to-ones by
    /// column (every to-one with its `…_ENT` column), to-manys through their join tables.
    private static func layouts(model: ManagedObjectModel, entities: [String: Entity]) -> [String: SQLEntityLayout] {
        var layouts: [String: SQLEntityLayout] = [:]
        for description in model.entities {
            guard let entity = entities[description.name] else { continue }
            let parent = description.parentName.flatMap { entities[$0]?.number } ?? 0
            var layout = SQLEntityLayout(name: entity.name, number: Int64(entity.number), superNumber: Int64(parent),
                                         rootName: entity.root, isAbstract: description.isAbstract)
            var pending = [description]
            while let next = pending.popLast() {
                if !next.isAbstract, let number = entities[next.name]?.number { layout.concreteNumbers.append(Int64(number)) }
                pending += model.subentities(of: next)
            }
            layout.concreteNumbers.sort()
            layout.attributes = entity.columns.compactMap { column in column.attribute.map { ($0, column.name) } }
            var relationships: [(relationship: RelationshipDescription, storage: SQLRelationshipStorage)] = []
            for column in entity.columns {
                guard let relationship = column.relationship else { continue }
                relationships.append((relationship, .foreignKey(column: column.name, entityColumn: column.name + "_ENT",
                                                                destination: relationship.destinationEntityName)))
            }
            for (relationship, table) in entity.joinTables {
                relationships.append((relationship, .joinTable(table: table, ownColumn: "Z_OWNER", otherColumn: "Z_TARGET",
                                                               orderColumn: "Z_POS", destination: relationship.destinationEntityName)))
            }
            layout.relationships = relationships
            // The order of the entity's packed rows (its attributes in column order).
            layout.makeRowShape(description)
            layouts[entity.name] = layout
        }
        return layouts
    }
}
