// Building the layout of a model: numbers, column names with clash suffixes, join tables.
import Foundation
import ManagedObjects

extension SQLiteSchema {
    /// A column being laid out: its rank in Core Data's column order (integers and keys, then
    /// reals, then text, then blobs).
    private struct PendingColumn {
        var name: String
        var type: String
        var rank: Int
    }

    /// The layout of `model`.
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - numbers: Entity numbers recorded in an existing store, or `nil` to number the
    ///     entities as Core Data does.
    /// - Throws: ``SQLiteStoreError/Code/unsupported(_:)`` (with `path`) for attribute types the
    ///   layout has no column for, and names SQL cannot hold unquoted;
    ///   ``SQLiteStoreError/Code/notAStore(_:)`` when `numbers` lacks an entity.
    package init(model: ManagedObjectModel, numbers given: [String: Int64]? = nil, path: String) throws {
        let numbers = given ?? Self.entityNumbers(for: model)
        let byName = model.entitiesByName
        func fail(_ code: SQLiteStoreError.Code) -> SQLiteStoreError { SQLiteStoreError(code, path: path) }
        func number(_ name: String) throws -> Int64 {
            guard let value = numbers[name] else { throw fail(.notAStore("Z_PRIMARYKEY has no entity \(name)")) }
            return value
        }
        func root(of entity: EntityDescription) -> EntityDescription { model.rootEntity(of: entity) }
        func checkName(_ name: String) throws {
            let valid = !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
                scalar.value >= 0x80 || scalar == "_" || (scalar.isASCII && (scalar.properties.isAlphabetic
                    || ("0"..."9").contains(scalar)))
            }
            if !valid { throw fail(.unsupported("the name \(name) cannot be an SQL table or column name")) }
        }

        let ordered = try model.entities.sorted { try number($0.name) < number($1.name) }
        for entity in ordered {
            let rootEntity = root(of: entity)
            var info = Entity(name: entity.name, number: try number(entity.name),
                              superNumber: try entity.parentName.map(number) ?? 0,
                              rootName: rootEntity.name, isAbstract: entity.isAbstract)
            var pending = [entity]
            while let next = pending.popLast() {
                if !next.isAbstract { info.concreteNumbers.append(try number(next.name)) }
                pending += model.subentities(of: next)
            }
            info.concreteNumbers.sort()
            entities[entity.name] = info
            entityNamesByNumber[info.number] = entity.name
        }

        // Columns of each root table: entities in number order, each entity's own properties
        // by name; a name already taken in the table gets the next free numeric suffix.
        var columnsByTable: [String: [PendingColumn]] = [:]
        var usedByTable: [String: Set<String>] = [:]
        var declaredColumn: [String: String] = [:]  // "Entity.property" → column
        var entityColumnOf: [String: String] = [:]
        var tableOrder: [String] = []
        func allocate(_ base: String, in table: String) -> String {
            var used = usedByTable[table, default: ["Z_PK", "Z_ENT", "Z_OPT"]]
            var name = base
            var suffix = 1
            while used.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            used.insert(name)
            usedByTable[table] = used
            return name
        }
        for entity in ordered {
            let table = Self.tableName(root: root(of: entity).name)
            try checkName(table)
            if columnsByTable[table] == nil {
                columnsByTable[table] = []
                tableOrder.append(table)
            }
            // Attributes before relationships, each by name: Core Data's column order within
            // an entity (integers before to-one keys in ZACCOUNT of Accounts3).
            let properties = entity.properties.sorted { a, b in
                let (x, y) = (a.relationship != nil, b.relationship != nil)
                return x != y ? !x : a.name < b.name
            }
            for property in properties where !property.isTransient {
                let upper = property.name.uppercased()
                switch property {
                case .attribute(let attribute):
                    guard let (type, rank) = Self.declaredType(of: attribute.attributeType) else {
                        throw fail(.unsupported("the \(attribute.attributeType.rawValue) attribute \(entity.name).\(attribute.name)"))
                    }
                    let column = allocate("Z" + upper, in: table)
                    try checkName(column)
                    columnsByTable[table]!.append(PendingColumn(name: column, type: type, rank: rank))
                    declaredColumn[entity.name + "." + property.name] = column
                case .relationship(let relationship) where relationship.cardinality == .toOne:
                    guard let destination = byName[relationship.destinationEntityName] else { continue }
                    let column = allocate("Z" + upper, in: table)
                    try checkName(column)
                    columnsByTable[table]!.append(PendingColumn(name: column, type: "INTEGER", rank: 0))
                    declaredColumn[entity.name + "." + property.name] = column
                    if !model.subentities(of: destination).isEmpty {
                        let suffix = column.dropFirst(1 + upper.count)
                        let entityColumn = allocate("Z\(try number(destination.name))_\(upper)\(suffix)", in: table)
                        columnsByTable[table]!.append(PendingColumn(name: entityColumn, type: "INTEGER", rank: 0))
                        entityColumnOf[entity.name + "." + property.name] = entityColumn
                    }
                default:
                    continue
                }
            }
        }

        /// The entity that declares `name` among `entity` and its ancestors.
        func declarer(of name: String, from entity: EntityDescription) -> EntityDescription {
            var current = entity
            while !current.properties.contains(where: { $0.name == name }),
                  let parent = current.parentName, let next = byName[parent] { current = next }
            return current
        }

        // To-many relationships: an order column next to the inverse's key, or a join table.
        var storageOf: [String: RelationshipStorage] = [:]  // "Entity.relationship" (declarer)
        var joinTables: [Table] = []
        for entity in ordered {
            for case .relationship(let relationship) in entity.properties.sorted(by: { $0.name < $1.name })
            where relationship.isToMany && !relationship.isTransient {
                guard let destination = byName[relationship.destinationEntityName] else { continue }
                let key = entity.name + "." + relationship.name
                let inverse = model.inverseRelationship(of: relationship)
                if let inverse, inverse.cardinality == .toOne, !inverse.isTransient {
                    let inverseOwner = declarer(of: inverse.name, from: destination)
                    guard let column = declaredColumn[inverseOwner.name + "." + inverse.name] else { continue }
                    let destinationTable = Self.tableName(root: root(of: destination).name)
                    var orderColumn: String?
                    if relationship.isOrdered {
                        let name = allocate("Z_FOK_" + column.dropFirst(), in: destinationTable)
                        var list = columnsByTable[destinationTable] ?? []
                        var at = (list.firstIndex { $0.name == column } ?? list.count - 1) + 1
                        if let partner = entityColumnOf[inverseOwner.name + "." + inverse.name],
                           list.indices.contains(at), list[at].name == partner { at += 1 }
                        list.insert(PendingColumn(name: name, type: "INTEGER", rank: 0), at: min(at, list.count))
                        columnsByTable[destinationTable] = list
                        orderColumn = name
                    }
                    storageOf[key] = .inverseForeignKey(table: destinationTable, column: column, orderColumn: orderColumn,
                                                        destination: destination.name)
                    continue
                }
                if storageOf[key] != nil { continue }
                // A join table, named by the side with the lower entity number (or, for a
                // relationship between an entity and itself, the lower relationship name).
                let ownNumber = try number(entity.name)
                let inverseOwner = inverse.map { declarer(of: $0.name, from: destination) }
                let otherNumber = try inverseOwner.map { try number($0.name) } ?? number(destination.name)
                var (near, far) = ((entity, relationship, ownNumber), (inverseOwner, inverse, otherNumber))
                if let inverse, let inverseOwner,
                   otherNumber < ownNumber || (otherNumber == ownNumber && inverse.name.lowercased() < relationship.name.lowercased()) {
                    (near, far) = ((inverseOwner, inverse, otherNumber), (entity, relationship, ownNumber))
                }
                let nearName = near.1.name.uppercased()
                let table = "Z_\(near.2)\(nearName)"
                let nearColumn = "Z_\(near.2)" + (far.1.map { $0.name.uppercased() } ?? "INVERSE_" + nearName)
                let farColumn = "Z_\(far.2)\(nearName)"
                try checkName(table)
                var columns: [(name: String, type: String)] = [(nearColumn, "INTEGER"), (farColumn, "INTEGER")]
                let nearOrder = near.1.isOrdered ? "Z_FOK_" + farColumn.dropFirst(2) : nil
                let farOrder = (far.1?.isOrdered ?? false) ? "Z_FOK_" + nearColumn.dropFirst(2) : nil
                if let nearOrder { columns.append((nearOrder, "INTEGER")) }
                if let farOrder { columns.append((farOrder, "INTEGER")) }
                joinTables.append(Table(name: table, columns: columns, primaryKey: [nearColumn, farColumn],
                                        indexedColumns: [farColumn]))
                storageOf[near.0.name + "." + near.1.name] = .joinTable(
                    table: table, ownColumn: nearColumn, otherColumn: farColumn, orderColumn: nearOrder,
                    destination: near.1.destinationEntityName)
                if let farOwner = far.0, let farRelationship = far.1 {
                    storageOf[farOwner.name + "." + farRelationship.name] = .joinTable(
                        table: table, ownColumn: farColumn, otherColumn: nearColumn, orderColumn: farOrder,
                        destination: farRelationship.destinationEntityName)
                }
            }
        }

        // Every entity's properties, inherited ones included, resolved to their declarer's
        // columns.
        for entity in ordered {
            var info = entities[entity.name]!
            for property in entity.allProperties where !property.isTransient {
                let owner = declarer(of: property.name, from: entity)
                let key = owner.name + "." + property.name
                switch property {
                case .attribute(let attribute):
                    if let column = declaredColumn[key] { info.attributes.append((attribute, column)) }
                case .relationship(let relationship):
                    if relationship.cardinality == .toOne, let column = declaredColumn[key] {
                        info.relationships.append((relationship, .foreignKey(column: column, entityColumn: entityColumnOf[key],
                                                                             destination: relationship.destinationEntityName)))
                    } else if let storage = storageOf[key] {
                        info.relationships.append((relationship, storage))
                    }
                case .fetchedProperty:
                    continue
                }
            }
            info.makeRowShape(entity)
            entities[entity.name] = info
        }

        for name in tableOrder {
            let list = columnsByTable[name] ?? []
            let sorted = list.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
            let hasSubentities = ordered.contains { root(of: $0).name != $0.name && Self.tableName(root: root(of: $0).name) == name }
            let keys = ordered.filter { Self.tableName(root: root(of: $0).name) == name }.flatMap { entity in
                entity.properties.compactMap { property -> String? in
                    guard case .relationship(let r) = property, r.cardinality == .toOne else { return nil }
                    return declaredColumn[entity.name + "." + r.name]
                }
            }
            tables.append(Table(name: name, columns: sorted.map { ($0.name, $0.type) }, hasSubentities: hasSubentities,
                                indexedColumns: keys))
        }
        tables += joinTables
        indexStatements = Self.modelIndexes(ordered, entities: entities)
        // Table names are upper case (and SQLite compares them without case): two roots whose
        // names differ only in case, or a name that makes a bookkeeping or join table's name,
        // would share a table.
        var owners: [String: String] = [:]
        for reserved in ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"] { owners[reserved] = "Core Data's bookkeeping" }
        for entity in ordered {
            let rootName = root(of: entity).name
            let table = Self.tableName(root: rootName).uppercased()
            if let owner = owners[table], owner != "entity \(rootName)" {
                throw fail(.unsupported("the entity \(rootName) would share the table \(table) with \(owner)"))
            }
            owners[table] = "entity \(rootName)"
        }
        for join in joinTables {
            let table = join.name.uppercased()
            if let owner = owners[table] {
                throw fail(.unsupported("the join table \(table) would share its name with \(owner)"))
            }
            owners[table] = "a join table"
        }
    }

    /// The declared type and column-order rank of an attribute type; `nil` when the layout has
    /// no column for it.
    package static func declaredType(of type: AttributeDescription.AttributeType) -> (String, Int)? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return ("INTEGER", 0)
        case .date: return ("TIMESTAMP", 1)
        case .double, .float: return ("FLOAT", 1)
        case .decimal: return ("DECIMAL", 1)
        case .string, .uri: return ("VARCHAR", 2)
        case .binaryData, .transformable, .uuid: return ("BLOB", 3)
        case .objectID, .composite, .undefined: return nil
        }
    }

    /// Uniqueness constraints, fetch indexes and indexed attributes, as Core Data names them.
    private static func modelIndexes(_ ordered: [EntityDescription], entities: [String: Entity]) -> [String] {
        var statements: [String] = []
        var names = Set<String>()
        for entity in ordered {
            guard let info = entities[entity.name] else { continue }
            let table = tableName(root: info.rootName)
            var columns: [String: String] = [:]
            for (attribute, column) in info.attributes { columns[attribute.name] = column }
            for (relationship, storage) in info.relationships {
                if case .foreignKey(let column, _, _) = storage { columns[relationship.name] = column }
            }
            func add(unique: Bool, name: String, _ elements: [(String, Bool)]) {
                let parts = elements.compactMap { element in
                    columns[element.0].map { "\($0) COLLATE BINARY \(element.1 ? "ASC" : "DESC")" }
                }
                guard parts.count == elements.count, !parts.isEmpty, names.insert(name).inserted else { return }
                statements.append("CREATE \(unique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(parts.joined(separator: ", ")))")
            }
            for constraint in entity.uniquenessConstraints {
                add(unique: true, name: "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"), constraint.map { ($0, true) })
            }
            for index in entity.indexes where index.partialIndexPredicate == nil {
                add(unique: false, name: "Z_\(entity.name)_\(index.name)", index.elements.map { ($0.propertyName, $0.isAscending) })
            }
            for case .attribute(let attribute) in entity.properties where attribute.isIndexed {
                add(unique: false, name: "Z_\(entity.name)_\(attribute.name)", [(attribute.name, true)])
            }
        }
        return statements
    }
}
