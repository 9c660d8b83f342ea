// Reading rows whose values are exactly of their attributes' types: straight from the
// statement's columns into the slot values, one array per row.
import CSQLite
import Foundation
import ManagedObjects

/// How the rows of one entity are read when its row shape has exact types
/// (``StoreRowShape/exactTypes``) and it has no to-one columns: what
/// ``SQLiteStoreEngine/row(of:template:column:)`` would read, worked out once per query rather
/// than once per row.
///
/// A row with a value that is not exactly of its attribute's type (an integer out of an
/// `integer32`'s range, a value of another storage class…) is not read here
/// (``row(_:template:)`` returns `nil`): the engine reads it the general way, which keeps its
/// constants or throws the same errors as before.
struct ExactRowReading {
    let shape: StoreRowShape
    /// For each slot of the entity's objects, the position of the attribute it holds (its
    /// column is `2 + position`), or -1 for a slot of no stored attribute.
    private let positionOfSlot: [Int]
    /// The attributes' types, by position.
    private let types: [AttributeDescription.AttributeType]

    /// The reading of `entity`'s rows; `nil` when they are read the general way.
    init?(_ entity: SQLiteSchema.Entity) {
        guard let shape = entity.rowShape, let types = shape.exactTypes, types.count == entity.attributes.count else { return nil }
        for relationship in entity.relationships {
            if case .foreignKey = relationship.storage { return nil }
        }
        var positionOfSlot = [Int](repeating: -1, count: shape.slotKeys.count)
        for (position, slot) in shape.slots.enumerated() {
            // Two attributes in one slot would make the slot values lose one: read generally.
            guard slot >= 0, positionOfSlot[slot] < 0 else { return nil }
            positionOfSlot[slot] = position
        }
        self.shape = shape
        self.types = types
        self.positionOfSlot = positionOfSlot
    }

    /// The current row of `statement` (`SELECT Z_PK, Z_OPT, <attribute columns>`), packed with
    /// its slot values alone; `nil` when a value is not exactly of its attribute's type (or
    /// the key is not an integer).
    func row(_ statement: SQLiteStatement, template: ManagedObjectID) -> StoreRow? {
        let handle = statement.handle
        guard let keyColumn = sqlite3_column_value(handle, 0), sqlite3_value_type(keyColumn) == SQLITE_INTEGER else { return nil }
        let key = sqlite3_value_int64(keyColumn)
        let version = Self.integer(handle, column: 1)
        // Allocated by `reserveCapacity` and appends of `nil` (code specialised for `Any?`;
        // `init(unsafeUninitializedCapacity:)` looks the storage class up at run time, about a
        // sixth of a row's reading), then each value moved over its `nil`, which holds nothing
        // to release (appending the values themselves copied each `Any?` once more).
        var values = ContiguousArray<Any?>()
        values.reserveCapacity(positionOfSlot.count)
        for _ in positionOfSlot.indices { values.append(nil) }
        let complete = values.withUnsafeMutableBufferPointer { buffer -> Bool in
            let base = buffer.baseAddress!
            for slot in positionOfSlot.indices {
                let position = positionOfSlot[slot]
                guard position >= 0 else { continue }
                guard let read = Self.value(handle, column: Int32(2 + position), type: types[position]) else { return false }
                (base + slot).initialize(to: read)
            }
            return true
        }
        guard complete else { return nil }
        return StoreRow(objectID: template.withPrimaryKey(key), version: version,
                        columns: StoreRowColumns(shape: shape, exactSlotValues: values))
    }

    /// A column of the current row as an integer, as `statement.value(at:).integerValue ?? 0`
    /// reads it: an integer, a real with an integral value, else 0.
    @inline(__always)
    static func integer(_ handle: OpaquePointer, column: Int32) -> Int64 {
        guard let value = sqlite3_column_value(handle, column) else { return 0 }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return sqlite3_value_int64(value)
        case SQLITE_FLOAT: return Int64(exactly: sqlite3_value_double(value)) ?? 0
        default: return 0
        }
    }

    /// A column's value as its slot holds it when it is NULL (`.some(nil)`) or of the
    /// attribute's storage class and exactly of its Swift type (what
    /// `SQLiteStoreEngine.decode` makes of it); `nil` otherwise.
    ///
    /// The column is found once (`sqlite3_column_value`) and its type and value read from
    /// it: each `sqlite3_column_*` call finds the column again and checks the statement for a
    /// failed allocation, about 55 instructions a call, two or three calls a column. The value
    /// is read only here, on the statement's thread (the connection is used by one thread at a
    /// time), before the statement steps again, as SQLite requires of the unprotected value.
    @inline(__always)
    private static func value(_ handle: OpaquePointer, column: Int32, type: AttributeDescription.AttributeType) -> Any?? {
        guard let value = sqlite3_column_value(handle, column) else { return nil }
        let storage = sqlite3_value_type(value)
        if storage == SQLITE_NULL { return .some(nil) }
        switch type {
        case .integer64:
            guard storage == SQLITE_INTEGER else { return nil }
            return sqlite3_value_int64(value)
        case .integer32:
            // Out of range: the slot would hold nothing but the constant keeps the number.
            guard storage == SQLITE_INTEGER, let number = Int32(exactly: sqlite3_value_int64(value)) else { return nil }
            return number
        case .integer16:
            guard storage == SQLITE_INTEGER, let number = Int16(exactly: sqlite3_value_int64(value)) else { return nil }
            return number
        case .boolean:
            guard storage == SQLITE_INTEGER else { return nil }
            return sqlite3_value_int64(value) != 0
        case .double:
            guard storage == SQLITE_FLOAT else { return nil }
            return sqlite3_value_double(value)
        case .date:
            guard storage == SQLITE_FLOAT else { return nil }
            return Date(timeIntervalSinceReferenceDate: sqlite3_value_double(value))
        case .string:
            guard storage == SQLITE_TEXT else { return nil }
            // The text first, then its length (SQLite's advice: the length is of the text
            // as last converted).
            guard let text = sqlite3_value_text(value) else { return "" }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        default:
            return nil
        }
    }
}
