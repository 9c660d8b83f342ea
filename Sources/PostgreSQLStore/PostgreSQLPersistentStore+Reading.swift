// Reading rows: one query per inheritance root, one per join table.
import Foundation
import ManagedObjects
import SQLCompiling
import Predicates

extension PostgreSQLPersistentStore {
    /// The rows of the entities named, or of the objects with `keys` among them, with every
    /// attribute and relationship.
    static func rows(ofEntities names: [String], keys: [Int64]?, schema: PostgreSQLSchema,
                     connection: PostgreSQLConnection, identifier: String) throws -> [StoreRow] {
        let q = schema.dialect.quoted
        var byRoot: [String: [PostgreSQLSchema.Entity]] = [:]
        for name in Set(names) {
            let entity = try schema.entity(name, server: connection.server)
            byRoot[entity.table, default: []].append(entity)
        }
        var rows: [StoreRow] = []
        for (table, entities) in byRoot.sorted(by: { $0.key < $1.key }) {
            guard let columns = schema.tables[table] else { continue }
            var sql = "SELECT \(columns.map { q($0.name) }.joined(separator: ", ")) FROM \(q(table)) WHERE \(q("Z_ENT")) = ANY($1::integer[])"
            var parameters: [PostgreSQLValue] = [.integers(entities.map { Int64($0.number) })]
            if let keys {
                sql += " AND \(q("Z_PK")) = ANY($2::bigint[])"
                parameters.append(.integers(keys))
            }
            var tableRows = try decodedRows(try connection.execute(sql, parameters), schema: schema, server: connection.server,
                                            identifier: identifier)
            try fillToMany(&tableRows, schema: schema, connection: connection, identifier: identifier)
            rows.append(contentsOf: tableRows)
        }
        return rows
    }

    /// The rows of a result whose columns are a root table's (any subset, in any order),
    /// with attributes and to-ones; to-manys are added by ``fillToMany(_:schema:connection:identifier:)``.
    static func decodedRows(_ result: PostgreSQLRows, schema: PostgreSQLSchema, server: String,
                            identifier: String) throws -> [StoreRow] {
        var position: [String: Int] = [:]
        for (index, name) in result.columns.enumerated() { position[name] = index }
        guard let keyIndex = position["Z_PK"], let entityIndex = position["Z_ENT"], let versionIndex = position["Z_OPT"] else { return [] }
        // Where each entity's columns are in the result, worked out once per entity.
        typealias Reading = (column: PostgreSQLSchema.Column, index: Int, entityIndex: Int?)
        // `template`: an ID of the entity in this store, whose scope every row's ID shares.
        var readings: [Int: (name: String, columns: [Reading], packing: Packing?, template: ManagedObjectID)] = [:]
        var rows: [StoreRow] = []
        rows.reserveCapacity(result.rows.count)
        for values in result.rows {
            guard let key = PostgreSQLRows.integer(values[keyIndex]), let number = values[entityIndex].flatMap({ Int($0) }) else { continue }
            if readings[number] == nil {
                guard let entityName = schema.entityNames[number], let entity = schema.entities[entityName] else { continue }
                let columns: [Reading] = entity.columns.compactMap { column in
                    position[column.name].map { (column, $0, position[column.name + "_ENT"]) }
                }
                readings[number] = (entityName, columns, Packing(schema.layouts[entityName]?.rowShape, columns: columns),
                                    ManagedObjectID(entityName: entityName, storeIdentifier: identifier, primaryKey: key))
            }
            guard let (entityName, columns, packing, template) = readings[number] else { continue }
            let id = template.withPrimaryKey(key)
            let version = PostgreSQLRows.integer(values[versionIndex]) ?? 0
            if let packing, let row = try packing.row(values, id: id, version: version,
                                                      schema: schema, server: server, identifier: identifier) {
                rows.append(row)
                continue
            }
            var row = StoreRow(objectID: id, version: version)
            row.attributes.reserveCapacity(columns.count)
            for (column, index, entityColumn) in columns {
                if let attribute = column.attribute {
                    if let value = try PostgreSQLSchema.constant(values[index], for: attribute, entity: entityName, server: server) {
                        row.attributes[attribute.name] = value
                    }
                } else if let relationship = column.relationship {
                    if let target = PostgreSQLRows.integer(values[index]),
                       let targetEntity = entityColumn.flatMap({ values[$0] }).flatMap({ Int($0) }).flatMap({ schema.entityNames[$0] }) {
                        row.relationships[relationship.name] = [ManagedObjectID(entityName: targetEntity, storeIdentifier: identifier, primaryKey: target)]
                    } else {
                        row.relationships[relationship.name] = []
                    }
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// How the rows of one entity are packed (``StoreRowColumns``: the attributes' constants and
    /// their slot values, so that a context fills an object by taking one array): when the
    /// entity has a row shape and the result has every one of its attribute columns.
    struct Packing {
        let shape: StoreRowShape
        // Per name of the shape, in order: its attribute, its column in the result and its
        // slot, as separate arrays read by index (a tuple of descriptions taken out of an
        // array per value is a copy of each description: a retain per string it holds).
        private let attributes: [AttributeDescription]
        private let indexes: [Int]
        private let slots: [Int]
        /// The to-one relationships in the result: name, key column, entity column.
        private let toOnes: [(name: String, index: Int, entityIndex: Int?)]
        /// Per name, its attribute's type when the row reads it without the description.
        private let kinds: [Kind?]

        /// The attribute types read here: the constant as `PostgreSQLSchema.constant` parses
        /// it, the slot value as `AttributeDescription.slotValue(from:)` makes it.
        private enum Kind {
            case integer64, integer32, integer16, boolean, double, date, string

            init?(_ type: AttributeDescription.AttributeType) {
                switch type {
                case .integer64: self = .integer64
                case .integer32: self = .integer32
                case .integer16: self = .integer16
                case .boolean: self = .boolean
                case .double: self = .double
                case .date: self = .date
                case .string: self = .string
                default: return nil
                }
            }

            /// The constant and slot value of `text`; `nil` when it does not parse (the
            /// general conversion then throws its error).
            @inline(__always)
            func read(_ text: String) -> (KeyValueConstant, Any?)? {
                switch self {
                case .integer64:
                    guard let number = Int64(text) else { return nil }
                    return (.integer(number), number)
                case .integer32:
                    guard let number = Int64(text) else { return nil }
                    return (.integer(number), Int32(exactly: number).map { $0 as Any })
                case .integer16:
                    guard let number = Int64(text) else { return nil }
                    return (.integer(number), Int16(exactly: number).map { $0 as Any })
                case .boolean:
                    let flag = text == "t" || text == "true"
                    return (.bool(flag), flag)
                case .double:
                    guard let number = PostgreSQLSchema.double(text) else { return nil }
                    return (.double(number), number)
                case .date:
                    guard let seconds = PostgreSQLSchema.double(text) else { return nil }
                    let date = Date(timeIntervalSinceReferenceDate: seconds)
                    return (.date(date), date)
                case .string:
                    return (.string(text), text)
                }
            }
        }

        init?(_ shape: StoreRowShape?, columns: [(column: PostgreSQLSchema.Column, index: Int, entityIndex: Int?)]) {
            guard let shape else { return nil }
            var found: [String: (AttributeDescription, Int)] = [:]
            var toOnes: [(name: String, index: Int, entityIndex: Int?)] = []
            for reading in columns {
                if let attribute = reading.column.attribute {
                    found[attribute.name] = (attribute, reading.index)
                } else if let relationship = reading.column.relationship {
                    toOnes.append((relationship.name, reading.index, reading.entityIndex))
                }
            }
            var attributes: [AttributeDescription] = []
            var indexes: [Int] = []
            for name in shape.names {
                guard let (attribute, index) = found[name] else { return nil }
                attributes.append(attribute)
                indexes.append(index)
            }
            self.shape = shape
            self.attributes = attributes
            self.indexes = indexes
            self.slots = shape.slots
            self.toOnes = toOnes
            self.kinds = attributes.map { Kind($0.attributeType) }
        }

        /// The packed row of `values`, with what ``decodedRows(_:schema:server:identifier:)``
        /// reads into a dictionary row (the same constants, in the same column order, the same
        /// errors); `nil` when a constant is an explicit NULL (a dictionary row keeps it, a
        /// packed row cannot).
        func row(_ values: [String?], id: ManagedObjectID, version: Int64,
                 schema: PostgreSQLSchema, server: String, identifier: String) throws -> StoreRow? {
            var constants = ContiguousArray<KeyValueConstant>()
            constants.reserveCapacity(attributes.count)
            var slotValues = ContiguousArray<Any?>(repeating: nil, count: shape.slotKeys.count)
            for position in attributes.indices {
                guard let text = values[indexes[position]] else {
                    constants.append(.null)
                    continue
                }
                if let kind = kinds[position], let (constant, value) = kind.read(text) {
                    constants.append(constant)
                    if slots[position] >= 0 { slotValues[slots[position]] = value }
                    continue
                }
                let constant = try PostgreSQLSchema.constant(text, for: attributes[position],
                                                             entity: id.entityName, server: server)
                if case .null? = constant { return nil }
                constants.append(constant ?? .null)
                let slot = slots[position]
                if slot >= 0, let constant { slotValues[slot] = attributes[position].slotValue(from: constant) }
            }
            var relationships: [String: [ManagedObjectID]] = [:]
            for position in toOnes.indices {
                let (name, index, entityColumn) = toOnes[position]
                if let target = PostgreSQLRows.integer(values[index]),
                   let targetEntity = entityColumn.flatMap({ values[$0] }).flatMap({ Int($0) }).flatMap({ schema.entityNames[$0] }) {
                    relationships[name] = [ManagedObjectID(entityName: targetEntity, storeIdentifier: identifier, primaryKey: target)]
                } else {
                    relationships[name] = []
                }
            }
            return StoreRow(objectID: id, version: version,
                            columns: StoreRowColumns(shape: shape, constants: constants, slotValues: slotValues),
                            relationships: relationships)
        }
    }

    /// Adds every to-many relationship to the rows (one query per join table).
    static func fillToMany(_ rows: inout [StoreRow], schema: PostgreSQLSchema, connection: PostgreSQLConnection,
                                   identifier: String) throws {
        let q = schema.dialect.quoted
        var owners: [String: [Int]] = [:]   // join table → row indexes
        var relationshipOf: [String: String] = [:]
        for (index, row) in rows.enumerated() {
            guard let entity = schema.entities[row.objectID.entityName] else { continue }
            for (relationship, table) in entity.joinTables {
                owners[table, default: []].append(index)
                relationshipOf[table] = relationship.name
                rows[index].relationships[relationship.name] = []
            }
        }
        for (table, indexes) in owners {
            var indexOfKey: [Int64: Int] = [:]
            for index in indexes { if case .integer(let key) = rows[index].objectID.referenceObject { indexOfKey[key] = index } }
            let result = try connection.execute(
                "SELECT \(q("Z_OWNER")), \(q("Z_TARGET")), \(q("Z_TARGET_ENT")) FROM \(q(table)) WHERE \(q("Z_OWNER")) = ANY($1::bigint[]) ORDER BY \(q("Z_OWNER")), \(q("Z_POS"))",
                [.integers(indexOfKey.keys)])
            let name = relationshipOf[table]!
            for values in result.rows {
                guard let owner = PostgreSQLRows.integer(values[0]), let index = indexOfKey[owner],
                      let target = PostgreSQLRows.integer(values[1]),
                      let entity = values[2].flatMap({ Int($0) }).flatMap({ schema.entityNames[$0] }) else { continue }
                rows[index].relationships[name, default: []].append(
                    ManagedObjectID(entityName: entity, storeIdentifier: identifier, primaryKey: target))
            }
        }
    }
}
