// A query's own guard against rows of entity numbers the model does not have.
import CSQLite
import Foundation

/// The row of an unknown entity number that `og_unknown_entity` met last on one connection,
/// kept until the statement's error is made (``SQLiteConnection/lastError(code:sql:)``).
final class UnknownEntitySighting {
    var table = ""
    var number: Int64?

    /// The sighting, once; cleared.
    func take() -> (table: String, number: Int64)? {
        guard let number else { return nil }
        self.number = nil
        return (table, number)
    }
}

extension SQLiteConnection {
    /// `og_unknown_entity(table, number)`: always fails the statement, recording the table
    /// and number so that the statement's error is
    /// ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)``. A query of a table
    /// whose root has one entity number reads `(t0.Z_ENT = n OR og_unknown_entity('T',
    /// t0.Z_ENT))`: SQLite calls the function only for a row of another number (or none,
    /// which is reported as 0), so every row the query visits is checked at the cost of
    /// the comparison it already made.
    package static let unknownEntityFunction = "og_unknown_entity"

    /// Registers `og_unknown_entity` on the connection, reporting to `sighting`. Direct only:
    /// a view or trigger written into a file cannot call it.
    func registerUnknownEntityFunction(_ handle: OpaquePointer, sighting: UnknownEntitySighting) {
        let report = Unmanaged.passUnretained(sighting).toOpaque()
        sqlite3_create_function_v2(handle, Self.unknownEntityFunction, 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, report, { context, count, arguments in
            guard let context, let arguments, count == 2 else { return }
            let table = sqlite3_value_text(arguments[0]).map { String(cString: $0) } ?? ""
            let number = sqlite3_value_int64(arguments[1])
            if let report = sqlite3_user_data(context) {
                let sighting = Unmanaged<UnknownEntitySighting>.fromOpaque(report).takeUnretainedValue()
                sighting.table = table
                sighting.number = number
            }
            sqlite3_result_error(context, "table \(table) has rows of entity number \(number) (Z_ENT)", -1)
        }, nil, nil, nil)
    }
}
