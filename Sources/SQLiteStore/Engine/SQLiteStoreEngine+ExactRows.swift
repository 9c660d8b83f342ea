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
        guard sqlite3_column_type(handle, 0) == SQLITE_INTEGER else { return nil }
        let key = sqlite3_column_int64(handle, 0)
        let version = statement.value(at: 1).integerValue ?? 0
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

    /// A column's value as its slot holds it when it is NULL (`.some(nil)`) or of the
    /// attribute's storage class and exactly of its Swift type (what
    /// `SQLiteStoreEngine.decode` makes of it); `nil` otherwise.
    @inline(__always)
    private static func value(_ handle: OpaquePointer, column: Int32, type: AttributeDescription.AttributeType) -> Any?? {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL { return .some(nil) }
        switch type {
        case .integer64:
            guard storage == SQLITE_INTEGER else { return nil }
            return sqlite3_column_int64(handle, column)
        case .integer32:
            // Out of range: the slot would hold nothing but the constant keeps the number.
            guard storage == SQLITE_INTEGER, let number = Int32(exactly: sqlite3_column_int64(handle, column)) else { return nil }
            return number
        case .integer16:
            guard storage == SQLITE_INTEGER, let number = Int16(exactly: sqlite3_column_int64(handle, column)) else { return nil }
            return number
        case .boolean:
            guard storage == SQLITE_INTEGER else { return nil }
            return sqlite3_column_int64(handle, column) != 0
        case .double:
            guard storage == SQLITE_FLOAT else { return nil }
            return sqlite3_column_double(handle, column)
        case .date:
            guard storage == SQLITE_FLOAT else { return nil }
            return Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, column))
        case .string:
            guard storage == SQLITE_TEXT else { return nil }
            guard let text = sqlite3_column_text(handle, column) else { return "" }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        default:
            return nil
        }
    }
}
