// Saving: each entity's cached write statements, and binding a row's values to them.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// An entity's layout and write statements, looked up once per save and entity (a
    /// class, so that handing it out per row costs one reference, not a copy of the layout).
    final class EntityWriter {
        let entity: SQLiteSchema.Entity
        /// The entity's `Z_ENT`.
        let number: Int64
        let table: String
        /// `INSERT` of Z_PK, Z_ENT, Z_OPT and the value columns.
        let insert: SQLiteStatement
        /// `UPDATE … SET Z_OPT, <values> WHERE Z_PK = ?`.
        let update: SQLiteStatement
        /// `DELETE … WHERE Z_PK = ?`.
        let delete: SQLiteStatement
        /// `UPDATE … SET Z_OPT, <values> WHERE Z_PK = ? AND Z_ENT = ? AND Z_OPT = ?`: writes
        /// only a row still at the version the context read.
        let checkedUpdate: SQLiteStatement
        /// Whether the entity has to-many relationships (join tables or ordered members).
        let hasToMany: Bool
        /// `DELETE FROM <join table> WHERE <this entity's key column> = ?` for each of the
        /// entity's join tables: a deleted row's pairs.
        let joinTableDeletes: [String]
        /// The stored attributes' names and types, in column order.
        let names: [String]
        let types: [AttributeDescription.AttributeType]
        /// The position of each name in ``names``.
        let positions: [String: Int]
        /// For each attribute (in ``names`` order), the slot it fills in the entity's objects
        /// (its ``SQLiteSchema/Entity/rowShape``), and for each to-one relationship kept in the
        /// row its index in the entity's relationships and its slot: what an update of the
        /// changed columns alone writes (SQLiteStoreEngine+ChangedColumns.swift). `nil`
        /// without a row shape.
        let slotMap: SlotMap?
        /// The checked updates of `Z_OPT` and some value columns, by the slots whose columns
        /// they set (made on first use in a save).
        var changedColumnUpdates: [UInt64: SQLiteStatement] = [:]
        /// The entry of ``changedColumnUpdates`` last asked for.
        var lastChangedColumnsUpdate: (mask: UInt64, statement: SQLiteStatement)?
        /// The checked deletes of several rows at one version, by their number of rows (made
        /// on first use in a save; SQLiteStoreEngine+DeleteBatches.swift).
        var batchDeletes: [Int: SQLiteStatement] = [:]

        init(entity: SQLiteSchema.Entity, engine: SQLiteStoreEngine) throws {
            self.entity = entity
            number = entity.number
            names = entity.attributeKinds.map(\.name)
            types = entity.attributeKinds.map(\.type)
            positions = Dictionary(entity.attributeKinds.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            table = SQLiteSchema.tableName(root: entity.rootName)
            slotMap = Self.slotMap(of: entity)
            let values = engine.valueColumns(of: entity)
            let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + values
            let connection = engine.connection
            insert = try connection.statement("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
            let assignments = (["Z_OPT"] + values).map { "\($0) = ?" }.joined(separator: ", ")
            update = try connection.statement("UPDATE \(table) SET \(assignments) WHERE Z_PK = ?")
            delete = try connection.statement("DELETE FROM \(table) WHERE Z_PK = ?")
            checkedUpdate = try connection.statement("UPDATE \(table) SET \(assignments) WHERE Z_PK = ? AND Z_ENT = ? AND Z_OPT = ?")
            hasToMany = entity.relationships.contains { pair in
                if case .foreignKey = pair.storage { return false }
                return true
            }
            joinTableDeletes = entity.relationships.compactMap { pair in
                if case .joinTable(let table, let own, _, _, _) = pair.storage { return "DELETE FROM \(table) WHERE \(own) = ?" }
                return nil
            }
        }
    }

    /// The writers of one save, by entity name, made on first use; the last one found is
    /// kept at hand, as a save's rows mostly come grouped by entity.
    final class EntityWriters {
        private var byName: [String: EntityWriter] = [:]
        private var last: EntityWriter?
        /// Whether a writer of an entity with to-many relationships was asked for.
        private(set) var anyHasToMany = false

        /// The writer of the entity named `name`.
        func writer(_ name: String, engine: SQLiteStoreEngine) throws -> EntityWriter {
            if let last, last.entity.name == name { return last }
            let found: EntityWriter
            if let made = byName[name] {
                found = made
            } else {
                found = try EntityWriter(entity: try engine.entity(name), engine: engine)
                byName[name] = found
            }
            anyHasToMany = anyHasToMany || found.hasToMany
            last = found
            return found
        }
    }

    /// The integer key of an ID of this store.
    @inline(__always)
    func key(of id: ManagedObjectID) throws -> Int64 {
        guard case .integer(let key) = id.referenceObject, id.storeIdentifier == identifier else {
            throw StoreSaveError.invalidObject(id, reason: "it is not an object of the SQLite store \(identifier) at \(path)")
        }
        return key
    }

    /// Binds the values of an entity's value columns for a row to `statement`, from parameter
    /// `first` on; returns the next parameter's index.
    ///
    /// A packed row of the entity's own shape is read by position, any other by name from its
    /// dictionary (taken once per row).
    func bindColumnValues(of row: StoreRow, writer: EntityWriter, to statement: SQLiteStatement,
                          from first: Int) throws -> Int {
        let entity = writer.entity
        var index = first
        if let columns = row.columns, let shape = entity.rowShape, columns.shape === shape {
            for position in writer.types.indices {
                try bind(columns.constant(at: position), type: writer.types[position], position: position,
                         entity: entity, to: statement, at: index)
                index += 1
            }
        } else {
            // The row's dictionary walked in its own order (not probed name by name, which
            // touches its storage at random), each name placed through the writer's small
            // table; the columns of names the row lacks are NULL.
            for position in writer.types.indices { try statement.bindNull(at: first + position) }
            for (name, constant) in row.attributes {
                guard let position = writer.positions[name] else { continue }
                try bind(constant, type: writer.types[position], position: position, entity: entity, to: statement,
                         at: first + position)
            }
            index += writer.types.count
        }
        for position in entity.relationships.indices {
            index = try bindForeignKey(of: row, relationship: position, entity: entity, to: statement, at: index)
        }
        return index
    }

    /// Binds the key (and entity number, where the store keeps one) of the object a to-one
    /// relationship of `row` leads to, from parameter `index` on; returns the next parameter's
    /// index (`index` itself for a relationship not kept in the row).
    func bindForeignKey(of row: StoreRow, relationship position: Int, entity: SQLiteSchema.Entity,
                        to statement: SQLiteStatement, at index: Int) throws -> Int {
        guard case .foreignKey(_, let entityColumn, _) = entity.relationships[position].storage else { return index }
        let target = row.relationships[entity.relationships[position].relationship.name]?.first
        try statement.bind(try target.map { .integer(try key(of: $0)) } ?? .null, at: index)
        guard entityColumn != nil else { return index + 1 }
        try statement.bind(try target.map { .integer(try self.entity($0.entityName).number) } ?? .null, at: index + 1)
        return index + 2
    }

    /// Binds the stored form of an attribute's value: the common kinds directly (without a
    /// copy of the value or of the attribute's description); the rest, and every value of
    /// another kind (an error), through the schema's full conversion.
    @inline(__always)
    func bind(_ constant: KeyValueConstant, type: AttributeDescription.AttributeType, position: Int,
                      entity: SQLiteSchema.Entity, to statement: SQLiteStatement, at index: Int) throws {
        switch type {
        case .integer16, .integer32, .integer64:
            if case .integer(let value) = constant { return try statement.bind(integer: value, at: index) }
        case .boolean:
            if case .bool(let value) = constant { return try statement.bind(integer: value ? 1 : 0, at: index) }
        case .double, .float:
            if case .double(let value) = constant, !value.isNaN { return try statement.bind(real: value, at: index) }
        case .string:
            if case .string(let text) = constant { return try statement.bind(text: text, at: index) }
        case .date:
            if case .date(let date) = constant { return try statement.bind(real: date.timeIntervalSinceReferenceDate, at: index) }
        default:
            break
        }
        if case .null = constant { return try statement.bindNull(at: index) }
        try statement.bind(try SQLiteSchema.sqlValue(constant, for: entity.attributes[position].attribute, entity: entity.name, path: path),
                           at: index)
    }
}
