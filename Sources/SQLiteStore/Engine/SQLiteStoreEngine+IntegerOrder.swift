// Ordering a fetch's rows by integer attributes in memory: the order SQL's `ORDER BY` gives,
// without SQLite's sorter copying every selected column into its records.
import CSQLite
import Foundation
import ManagedObjects
import Predicates

/// The sort keys of a fetch ordered by integer attributes of the fetched entity alone, read
/// from each row as it is stepped, and the rows put in their order afterwards.
///
/// The order is exactly `ORDER BY <column> [DESC], …, t0.Z_PK` (what
/// ``SQLitePredicateCompiler/orderTerms(_:)`` writes for such keys): `NULL` first ascending,
/// last descending, then the integers by value, the primary key breaking ties. SQLite orders
/// a value of another storage class (text, a real, a blob kept in an integer column by
/// another program) among them by its own rules: when a row has one, ``isComplete`` is
/// `false` and the store asks SQL for the order instead.
struct IntegerRowOrder {
    /// Each key's column in the row (`SELECT Z_PK, Z_OPT, <attribute columns>`) and direction.
    private let columns: [Int32]
    private let ascending: [Bool]
    /// Per row, per key: the value (0 for `NULL`) and whether it is `NULL`.
    private var values: [Int64] = []
    private var nulls: [Bool] = []
    private var primaryKeys: [Int64] = []
    /// Every key read so far was an integer or `NULL`, and every primary key an integer.
    private(set) var isComplete = true

    /// The order of `descriptors` over `entity`'s rows, or `nil` when one is not the `compare`
    /// of an integer or Boolean attribute of the entity itself, or there are none.
    init?(_ descriptors: [KeyValueSortDescriptor], entity: SQLiteSchema.Entity) {
        guard !descriptors.isEmpty else { return nil }
        var columns: [Int32] = []
        var ascending: [Bool] = []
        for descriptor in descriptors {
            guard let key = descriptor.key, descriptor.comparison == .compare,
                  let position = entity.attributeKinds.firstIndex(where: { $0.name == key }) else { return nil }
            switch entity.attributeKinds[position].type {
            case .integer16, .integer32, .integer64, .boolean: break
            default: return nil
            }
            columns.append(Int32(2 + position))
            ascending.append(descriptor.ascending)
        }
        self.columns = columns
        self.ascending = ascending
    }

    /// Reads the keys of the statement's current row.
    mutating func collect(_ statement: SQLiteStatement) {
        guard isComplete else { return }
        let handle = statement.handle
        // Each column found once, its type and value read from it (see `ExactRowReading`).
        guard let key = sqlite3_column_value(handle, 0), sqlite3_value_type(key) == SQLITE_INTEGER else { isComplete = false; return }
        primaryKeys.append(sqlite3_value_int64(key))
        for column in columns {
            guard let value = sqlite3_column_value(handle, column) else { isComplete = false; return }
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER:
                values.append(sqlite3_value_int64(value))
                nulls.append(false)
            case SQLITE_NULL:
                values.append(0)
                nulls.append(true)
            default:
                isComplete = false
                return
            }
        }
    }

    /// Puts `rows` (one per ``collect(_:)``, in that order) in the keys' order.
    func sort(_ rows: inout [StoreRow]) {
        precondition(isComplete && rows.count == primaryKeys.count, "keys read for every row")
        let width = columns.count
        var order = [Int](rows.indices)
        values.withUnsafeBufferPointer { values in
            nulls.withUnsafeBufferPointer { nulls in
                primaryKeys.withUnsafeBufferPointer { primaryKeys in
                    order.sort { left, right in
                        for key in 0..<width {
                            let l = left * width + key, r = right * width + key
                            if nulls[l] != nulls[r] { return nulls[l] == ascending[key] }
                            if values[l] != values[r] { return (values[l] < values[r]) == ascending[key] }
                        }
                        return primaryKeys[left] < primaryKeys[right]
                    }
                }
            }
        }
        // Row `order[i]` goes to place `i`: each cycle of the permutation is followed with
        // swaps (rows are moved, never copied).
        for start in order.indices where order[start] != start {
            var current = start
            var next = order[current]
            while next != start {
                rows.swapAt(current, next)
                order[current] = current
                current = next
                next = order[current]
            }
            order[current] = current
        }
    }
}
