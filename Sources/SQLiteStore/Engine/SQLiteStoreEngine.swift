// The loaded store: one connection, the layout, reading rows.
import Foundation
import ManagedObjects
import Predicates

/// A loaded store's connection and layout.
///
/// `@unchecked Sendable` because the connection is not `Sendable`: the engine lives only in
/// the store's `Mutex` and is used only inside `withLock`, one thread at a time, so the
/// connection is never used concurrently.
struct SQLiteStoreEngine: @unchecked Sendable {
    let connection: SQLiteConnection
    let schema: SQLiteSchema
    let identifier: String
    var metadata: [String: any Sendable]
    /// Rows read to fill faults, shared by the coordinator's contexts.
    var rowCache = SQLiteRowCache()
    /// Tables found free of rows of unknown entities, with the `PRAGMA data_version` of the check.
    var entityNumbersChecked: [String: Int64] = [:]

    var path: String { connection.path }

    func fail(_ code: SQLiteStoreError.Code) -> SQLiteStoreError { SQLiteStoreError(code, path: path) }

    /// The layout of an entity, or an error naming it.
    func entity(_ name: String) throws -> SQLiteSchema.Entity {
        guard let entity = schema.entities[name] else { throw fail(.unsupported("the entity \(name) is not in the store's model")) }
        return entity
    }

    /// The columns read or written for an entity's row, after Z_PK/Z_ENT/Z_OPT: its attributes,
    /// then each to-one's key (and entity column).
    func valueColumns(of entity: SQLiteSchema.Entity) -> [String] {
        var columns = entity.attributes.map(\.column)
        for (_, storage) in entity.relationships {
            if case .foreignKey(let column, let entityColumn, _) = storage {
                columns.append(column)
                if let entityColumn { columns.append(entityColumn) }
            }
        }
        return columns
    }

    /// `SELECT Z_PK, Z_OPT, <columns> FROM <table>` for an entity.
    func selectSQL(of entity: SQLiteSchema.Entity) -> String {
        "SELECT " + (["Z_PK", "Z_OPT"] + valueColumns(of: entity)).map { "t0." + $0 }.joined(separator: ", ")
            + " FROM " + SQLiteSchema.tableName(root: entity.rootName) + " t0"
    }

    /// For each to-many relationship of `entity` (or only the one named `only`), the members of
    /// every row that `keysSQL` selects, by the row's key, in order.
    func toManyMembers(of entity: SQLiteSchema.Entity, only: String? = nil, selectedBy keysSQL: String,
                       arguments: [SQLiteValue]) throws -> [String: [Int64: [ManagedObjectID]]] {
        var result: [String: [Int64: [ManagedObjectID]]] = [:]
        for (relationship, storage) in entity.relationships where only == nil || relationship.name == only {
            let sql: String
            switch storage {
            case .foreignKey:
                continue
            case .inverseForeignKey(let table, let column, let orderColumn, _):
                sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(keysSQL)) "
                    + "ORDER BY \(column), \(orderColumn.map { $0 + ", " } ?? "")Z_PK"
            case .joinTable(let table, let own, let other, let orderColumn, let destination):
                guard let target = schema.tableName(of: destination) else { continue }
                sql = "SELECT j.\(own), t.Z_PK, t.Z_ENT FROM \(table) j JOIN \(target) t ON t.Z_PK = j.\(other) "
                    + "WHERE j.\(own) IN (\(keysSQL)) ORDER BY j.\(own), \(orderColumn.map { "j.\($0), " } ?? "")t.Z_PK"
            }
            var byOwner: [Int64: [ManagedObjectID]] = [:]
            for triple in try connection.rows(sql, arguments) {
                guard let owner = triple[0].integerValue, let key = triple[1].integerValue, let number = triple[2].integerValue,
                      let name = schema.entityNamesByNumber[number] else { continue }
                byOwner[owner, default: []].append(objectID(name, key))
            }
            result[relationship.name] = byOwner
        }
        return result
    }

    /// The row of an object (to-many relationships left out), or `nil` when the store has no
    /// such object.
    func row(for id: ManagedObjectID) throws -> StoreRow? {
        guard id.storeIdentifier == identifier, case .integer(let key) = id.referenceObject,
              let entity = schema.entities[id.entityName] else { return nil }
        let condition = entityCondition(of: entity)
        return try readRows(of: entity, selectSQL(of: entity) + " WHERE t0.Z_PK = ? AND " + condition.sql,
                            [.integer(key)] + condition.arguments).first
    }

    func objectID(_ entityName: String, _ key: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: identifier, primaryKey: key)
    }

    /// A store row (attributes and to-ones) from the columns of `SELECT Z_PK, Z_OPT,
    /// <valueColumns>`, read one at a time through `column`: packed (``StoreRowColumns``) when
    /// the entity has a row shape, with a dictionary otherwise.
    @inline(__always)
    func row(of entity: SQLiteSchema.Entity, template: ManagedObjectID? = nil, column: (Int) -> SQLiteValue) throws -> StoreRow {
        guard case .integer(let key) = column(0) else { throw fail(.notAStore("a row of \(entity.name) has no integer Z_PK")) }
        let id = template?.withPrimaryKey(key) ?? objectID(entity.name, key)
        let version = column(1).integerValue ?? 0
        var relationships: [String: [ManagedObjectID]] = [:]
        var index = 2 + entity.attributes.count
        for position in entity.relationships.indices {
            guard case .foreignKey(_, let entityColumn, let destination) = entity.relationships[position].storage else { continue }
            let target = column(index).integerValue
            index += 1
            var targetEntity = destination
            if entityColumn != nil {
                if let number = column(index).integerValue, let name = schema.entityNamesByNumber[number] { targetEntity = name }
                index += 1
            }
            relationships[entity.relationships[position].relationship.name] = target.map { [objectID(targetEntity, $0)] } ?? []
        }
        guard let shape = entity.rowShape else {
            var row = StoreRow(objectID: id, version: version, relationships: relationships)
            for position in entity.attributes.indices {
                if let constant = try decode(column(2 + position), entity: entity, position: position).constant {
                    row.attributes[entity.attributeKinds[position].name] = constant
                }
            }
            return row
        }
        var slotValues = ContiguousArray<Any?>(repeating: nil, count: shape.slotKeys.count)
        // One array per row (the slot values alone) when every value is exactly of its
        // attribute's Swift type; the constants are then made from them when asked for.
        if shape.exactTypes != nil {
            var exact = true
            for position in entity.attributes.indices {
                guard let typed = exactSlotValue(column(2 + position), type: entity.attributeKinds[position].type) else {
                    exact = false
                    break
                }
                slotValues[shape.slots[position]] = typed
            }
            if exact {
                return StoreRow(objectID: id, version: version,
                                columns: StoreRowColumns(shape: shape, exactSlotValues: slotValues),
                                relationships: relationships)
            }
            for slot in slotValues.indices { slotValues[slot] = nil }
        }
        var constants = ContiguousArray<KeyValueConstant>()
        constants.reserveCapacity(entity.attributes.count)
        for position in entity.attributes.indices {
            let (constant, typed) = try decode(column(2 + position), entity: entity, position: position)
            constants.append(constant ?? .null)
            let slot = shape.slots[position]
            if slot >= 0 { slotValues[slot] = typed }
        }
        return StoreRow(objectID: id, version: version,
                        columns: StoreRowColumns(shape: shape, constants: constants, slotValues: slotValues),
                        relationships: relationships)
    }

    /// A stored value as the Swift value an object's slot holds when it is NULL (`.some(nil)`)
    /// or of the attribute's storage class and exactly of its Swift type, with a constant that
    /// gives it back (what ``decode(_:entity:position:)`` makes of it, the constant made from
    /// the value); `nil` for any other value (an integer out of an `integer32`'s range, a value
    /// of another storage class…), which keeps its constant.
    @inline(__always)
    private func exactSlotValue(_ value: SQLiteValue, type: AttributeDescription.AttributeType) -> Any?? {
        switch (type, value) {
        case (_, .null): return .some(nil)
        case (.integer64, .integer(let v)): return v
        case (.integer32, .integer(let v)):
            // Out of range: the slot holds nothing but the constant keeps the number.
            guard let number = Int32(exactly: v) else { return nil }
            return number
        case (.integer16, .integer(let v)):
            guard let number = Int16(exactly: v) else { return nil }
            return number
        case (.boolean, .integer(let v)): return v != 0
        case (.double, .real(let v)): return v
        case (.string, .text(let text)): return text
        case (.date, .real(let seconds)): return Date(timeIntervalSinceReferenceDate: seconds)
        default: return nil
        }
    }

    /// A stored value of the attribute at `position` as a constant (`nil` for NULL) and as
    /// the Swift value an object's slot holds (what `AttributeDescription.slotValue(from:)`
    /// makes of the constant). The common kinds directly; the rest (and every value of an
    /// unexpected storage class, which is an error) through the schema's full conversion.
    @inline(__always)
    private func decode(_ value: SQLiteValue, entity: SQLiteSchema.Entity,
                        position: Int) throws -> (constant: KeyValueConstant?, typed: Any?) {
        switch (entity.attributeKinds[position].type, value) {
        case (_, .null):
            return (nil, nil)
        case (.integer64, .integer(let v)):
            return (.integer(v), v)
        case (.integer32, .integer(let v)):
            return (.integer(v), Int32(exactly: v).map { $0 as Any })
        case (.integer16, .integer(let v)):
            return (.integer(v), Int16(exactly: v).map { $0 as Any })
        case (.boolean, .integer(let v)):
            return (.bool(v != 0), v != 0)
        case (.double, .real(let v)):
            return (.double(v), v)
        case (.float, .real(let v)):
            let fits = !v.isFinite || abs(v) <= Double(Float.greatestFiniteMagnitude)
            return (.double(v), fits ? Float(v) : nil)
        case (.string, .text(let text)):
            return (.string(text), text)
        case (.date, .real(let seconds)):
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            return (.date(date), date)
        default:
            let attribute = entity.attributes[position].attribute
            let constant = try SQLiteSchema.constant(value, for: attribute, entity: entity.name, path: path)
            return (constant, constant.flatMap { attribute.slotValue(from: $0) })
        }
    }

    /// The rows a query of `SELECT Z_PK, Z_OPT, <valueColumns>` selects, read straight from
    /// the statement (to-many members not added).
    func readRows(of entity: SQLiteSchema.Entity, _ sql: String, _ arguments: [SQLiteValue]) throws -> [StoreRow] {
        var none: IntegerRowOrder?
        return try readRows(of: entity, sql, arguments, keys: &none)
    }

    /// ``readRows(of:_:_:)``, reading each row's sort keys into `keys` as well (stopping at
    /// the first row whose keys it cannot hold).
    func readRows(of entity: SQLiteSchema.Entity, _ sql: String, _ arguments: [SQLiteValue],
                  keys: inout IntegerRowOrder?) throws -> [StoreRow] {
        let statement = try connection.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows: [StoreRow] = []
        let template = objectID(entity.name, 0)
        // Worked out once for the query: rows of exact values go straight into slot values.
        let exact = ExactRowReading(entity)
        while try statement.step() {
            keys?.collect(statement)
            if keys?.isComplete == false { break }
            if let exact, let row = exact.row(statement, template: template) {
                rows.append(row)
                continue
            }
            rows.append(try row(of: entity, template: template) { statement.value(at: $0) })
        }
        return rows
    }

    /// Writes `metadata` to `Z_METADATA` (the UUID stays in `Z_UUID`).
    mutating func writeMetadata(_ metadata: [String: any Sendable]) throws {
        let plist: Data
        do {
            plist = try SQLiteStoreMetadata.encode(metadata)
        } catch {
            throw fail(.unsupported("metadata that is not a property list (\(error))"))
        }
        try connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", [.blob(plist)])
        self.metadata = metadata
        self.metadata[SQLiteStoreMetadata.uuidKey] = identifier
    }
}
