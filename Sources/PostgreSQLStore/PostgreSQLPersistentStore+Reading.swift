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
            // The first table's rows are taken as they are (no copy of each row).
            if rows.isEmpty { rows = tableRows } else { rows.append(contentsOf: tableRows) }
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
        // Where each entity's columns are in the result, worked out once per entity; the
        // reading of the row before is kept at hand (rows come in runs of one entity), and
        // read in place (a tuple taken out of the table per row copied every array it holds).
        var readings: [Int: EntityReading] = [:]
        var current: EntityReading?
        var rows: [StoreRow] = []
        rows.reserveCapacity(result.rows.count)
        for values in result.rows {
            guard let key = PostgreSQLRows.integer(values[keyIndex]), let number = values[entityIndex].flatMap({ Int($0) }) else { continue }
            let reading: EntityReading
            if let current, current.number == number {
                reading = current
            } else {
                if readings[number] == nil {
                    guard let entityName = schema.entityNames[number], let entity = schema.entities[entityName] else { continue }
                    let columns: [EntityReading.Column] = entity.columns.compactMap { column in
                        position[column.name].map { (column, $0, position[column.name + "_ENT"]) }
                    }
                    readings[number] = EntityReading(
                        number: number, name: entityName, columns: columns,
                        packing: Packing(schema.layouts[entityName]?.rowShape, columns: columns),
                        template: ManagedObjectID(entityName: entityName, storeIdentifier: identifier, primaryKey: key))
                }
                guard let found = readings[number] else { continue }
                reading = found
                current = found
            }
            let id = reading.template.withPrimaryKey(key)
            let version = PostgreSQLRows.integer(values[versionIndex]) ?? 0
            if let row = try reading.packing?.row(values, id: id, version: version,
                                                  schema: schema, server: server, identifier: identifier) {
                rows.append(row)
                continue
            }
            let entityName = reading.name
            let columns = reading.columns
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

    /// Where one entity's columns are in a result, and how its rows are packed.
    final class EntityReading {
        typealias Column = (column: PostgreSQLSchema.Column, index: Int, entityIndex: Int?)
        let number: Int
        let name: String
        let columns: [Column]
        let packing: Packing?
        /// An ID of the entity in the store, whose scope every row's ID shares.
        let template: ManagedObjectID

        init(number: Int, name: String, columns: [Column], packing: Packing?, template: ManagedObjectID) {
            self.number = number
            self.name = name
            self.columns = columns
            self.packing = packing
            self.template = template
        }
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
        /// Whether rows may keep their slot values alone (``StoreRowColumns/init(shape:exactSlotValues:)``):
        /// the shape has exact types, every attribute is read by its kind, each into a slot of
        /// its own.
        private let readsExactly: Bool

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

            /// The slot value of `text` when its constant gives it back exactly (what
            /// ``read(_:)`` makes, with a value in range); `nil` otherwise.
            @inline(__always)
            func exactValue(_ text: String) -> Any? {
                switch self {
                case .integer64: return Int64(text)
                case .integer32: return Int64(text).flatMap { Int32(exactly: $0) }
                case .integer16: return Int64(text).flatMap { Int16(exactly: $0) }
                case .boolean: return text == "t" || text == "true"
                case .double: return PostgreSQLSchema.double(text)
                case .date: return PostgreSQLSchema.double(text).map { Date(timeIntervalSinceReferenceDate: $0) }
                case .string: return text
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
            let slots = shape.slots
            readsExactly = shape.exactTypes != nil && !kinds.contains { $0 == nil }
                && !slots.contains { $0 < 0 } && Set(slots).count == slots.count
        }

        /// The packed row of `values`, with what ``decodedRows(_:schema:server:identifier:)``
        /// reads into a dictionary row (the same constants, in the same column order, the same
        /// errors); `nil` when a constant is an explicit NULL (a dictionary row keeps it, a
        /// packed row cannot).
        func row(_ values: [String?], id: ManagedObjectID, version: Int64,
                 schema: PostgreSQLSchema, server: String, identifier: String) throws -> StoreRow? {
            if readsExactly, let row = exactRow(values, id: id, version: version, schema: schema, identifier: identifier) {
                return row
            }
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
            return StoreRow(objectID: id, version: version,
                            columns: StoreRowColumns(shape: shape, constants: constants, slotValues: slotValues),
                            relationships: toOneRelationships(values, schema: schema, identifier: identifier))
        }

        /// ``row(_:id:version:schema:server:identifier:)`` keeping the slot values alone (one
        /// array per row; the constants are made from them when asked for, and are the ones
        /// read there); `nil` when a value does not parse or is out of its attribute's range
        /// (the row is then read with its constants, which keep such a value or throw).
        private func exactRow(_ values: [String?], id: ManagedObjectID, version: Int64,
                              schema: PostgreSQLSchema, identifier: String) -> StoreRow? {
            var slotValues = ContiguousArray<Any?>(repeating: nil, count: shape.slotKeys.count)
            for position in attributes.indices {
                guard let text = values[indexes[position]] else { continue }
                guard let value = kinds[position]?.exactValue(text) else { return nil }
                slotValues[slots[position]] = value
            }
            return StoreRow(objectID: id, version: version, columns: StoreRowColumns(shape: shape, exactSlotValues: slotValues),
                            relationships: toOneRelationships(values, schema: schema, identifier: identifier))
        }

        /// The to-one relationships of a row: the related object's ID, or none.
        private func toOneRelationships(_ values: [String?], schema: PostgreSQLSchema,
                                        identifier: String) -> [String: [ManagedObjectID]] {
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
            return relationships
        }
    }

    /// Adds every to-many relationship to the rows (one query per join table).
    static func fillToMany(_ rows: inout [StoreRow], schema: PostgreSQLSchema, connection: PostgreSQLConnection,
                                   identifier: String) throws {
        let q = schema.dialect.quoted
        var owners: [String: [Int]] = [:]   // join table → row indexes
        var relationshipOf: [String: String] = [:]
        // The join tables of the entity of the row before (rows come mostly in runs of one
        // entity): no row copied and no entity looked up per row.
        var lastEntityName: String?
        var joinTables: [(relationship: RelationshipDescription, table: String)] = []
        for index in rows.indices {
            let entityName = rows[index].objectID.entityName
            if entityName != lastEntityName {
                lastEntityName = entityName
                joinTables = schema.entities[entityName]?.joinTables ?? []
            }
            for (relationship, table) in joinTables {
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
            // An ID per target entity whose scope the related IDs share.
            var templates: [String: ManagedObjectID] = [:]
            for values in result.rows {
                guard let owner = PostgreSQLRows.integer(values[0]), let index = indexOfKey[owner],
                      let target = PostgreSQLRows.integer(values[1]),
                      let entity = values[2].flatMap({ Int($0) }).flatMap({ schema.entityNames[$0] }) else { continue }
                let template = templates[entity] ?? ManagedObjectID(entityName: entity, storeIdentifier: identifier, primaryKey: target)
                templates[entity] = template
                rows[index].relationships[name, default: []].append(template.withPrimaryKey(target))
            }
        }
    }
}
