// The persistent history's tables in a PostgreSQL store: one row per saved transaction, one per
// changed object, and the counters that number them in commit order.
import Foundation
import ManagedObjects
import SQLCompiling
import Predicates

/// The layout of a PostgreSQL store's persistent history (Docs/PostgreSQLStore.md, "Persistent
/// history"), in the spirit of Core Data's SQLite history tables:
///
/// - `ATRANSACTION`: `Z_PK` (the transaction number, the token), `Z_ENT` 16002, `Z_OPT` NULL,
///   `ZTIMESTAMP` (the server's clock at the save, seconds since 2001-01-01), `ZAUTHOR`,
///   `ZCONTEXTNAME`, `ZPROCESSID`, `ZBUNDLEID`;
/// - `ACHANGE`: `Z_PK` (the change number), `Z_ENT` 16001, `Z_OPT` NULL, `ZCHANGETYPE` (0 insert,
///   1 update, 2 delete), `ZENTITY` and `ZENTITYPK` (the object's entity number and key),
///   `ZTRANSACTIONID`, `ZCOLUMNS` (an update's property names, JSON), `ZTOMBSTONE` (a delete's
///   preserved values, JSON);
/// - `ATRANSACTIONCOUNTER`: one row, the last transaction and change numbers and the newest
///   deleted transaction (`Z_PURGED`, to recognise expired tokens).
///
/// Strings are kept in the transaction row itself (no `ATRANSACTIONSTRING`): the server keeps
/// repeated short strings cheaply.
enum PostgreSQLHistoryTables {
    static let transactions = "ATRANSACTION"
    static let changes = "ACHANGE"
    static let counter = "ATRANSACTIONCOUNTER"
    /// Core Data's entity numbers of its history entities.
    static let changeEntityNumber: Int64 = 16001
    static let transactionEntityNumber: Int64 = 16002

    /// Creates the tables when missing (in the loading transaction, under its advisory lock).
    static func create(on connection: PostgreSQLConnection) throws {
        let q = SQLDialect.postgreSQL.quoted
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(q(transactions)) (\(q("Z_PK")) bigint PRIMARY KEY, \(q("Z_ENT")) integer NOT NULL, \
            \(q("Z_OPT")) integer, \(q("ZTIMESTAMP")) double precision NOT NULL, \(q("ZAUTHOR")) text, \
            \(q("ZCONTEXTNAME")) text, \(q("ZPROCESSID")) text, \(q("ZBUNDLEID")) text)
            """)
        try connection.execute("CREATE INDEX IF NOT EXISTS \(q("Z_TRANSACTION_TransactionTimestampIndex")) ON \(q(transactions)) (\(q("ZTIMESTAMP")))")
        try connection.execute("CREATE INDEX IF NOT EXISTS \(q("Z_TRANSACTION_TransactionAuthorIndex")) ON \(q(transactions)) (\(q("ZAUTHOR")))")
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(q(changes)) (\(q("Z_PK")) bigint PRIMARY KEY, \(q("Z_ENT")) integer NOT NULL, \
            \(q("Z_OPT")) integer, \(q("ZCHANGETYPE")) integer NOT NULL, \(q("ZENTITY")) integer NOT NULL, \
            \(q("ZENTITYPK")) bigint NOT NULL, \
            \(q("ZTRANSACTIONID")) bigint NOT NULL REFERENCES \(q(transactions)) ON DELETE CASCADE, \
            \(q("ZCOLUMNS")) text, \(q("ZTOMBSTONE")) text)
            """)
        try connection.execute("CREATE INDEX IF NOT EXISTS \(q("Z_CHANGE_TransactionIndex")) ON \(q(changes)) (\(q("ZTRANSACTIONID")))")
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(q(counter)) (\(q("Z_MAXTRANSACTION")) bigint NOT NULL, \(q("Z_MAXCHANGE")) bigint NOT NULL, \
            \(q("Z_PURGED")) bigint NOT NULL)
            """)
        // A counter made anew (a first load, or a table dropped by hand) starts after the
        // numbers already used, so that a save never reuses a transaction's or change's key.
        try connection.execute("""
            INSERT INTO \(q(counter)) SELECT COALESCE((SELECT max(\(q("Z_PK"))) FROM \(q(transactions))), 0), \
            COALESCE((SELECT max(\(q("Z_PK"))) FROM \(q(changes))), 0), 0 WHERE NOT EXISTS (SELECT 1 FROM \(q(counter)))
            """)
    }

    /// The names of the history tables, for dropping them with the store.
    static let all = [changes, transactions, counter]

    // MARK: - Values

    /// An update's property names as stored in `ZCOLUMNS` (a JSON array, sorted).
    static func columnsText(_ names: Set<String>?) -> String? {
        guard let names else { return nil }
        return json(names.sorted())
    }

    /// The property names of `ZCOLUMNS`.
    static func names(fromColumns text: String?) -> Set<String>? {
        guard let text, let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return nil }
        return Set(names)
    }

    /// A deleted object's preserved values as stored in `ZTOMBSTONE`: a JSON object of each
    /// attribute's value in the text form its column would hold (bytes as `\x…` hex).
    static func tombstoneText(_ values: [String: KeyValueConstant]?, entity: EntityDescription, server: String) throws -> String? {
        guard let values, !values.isEmpty else { return nil }
        var texts: [String: String] = [:]
        for (name, value) in values {
            guard let attribute = entity.attributesByName[name] else { continue }
            switch try PostgreSQLSchema.parameter(value, for: attribute, entity: entity.name, server: server) {
            case .null: continue
            case .text(let text): texts[name] = text
            case .bytes(let data): texts[name] = "\\x" + data.map { String(format: "%02x", $0) }.joined()
            }
        }
        return json(texts)
    }

    /// The preserved values of `ZTOMBSTONE`.
    static func tombstone(fromText text: String?, entity: EntityDescription, server: String) throws -> [String: KeyValueConstant]? {
        guard let text, let texts = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return nil }
        var values: [String: KeyValueConstant] = [:]
        for (name, stored) in texts {
            guard let attribute = entity.attributesByName[name],
                  let value = try PostgreSQLSchema.constant(stored, for: attribute, entity: entity.name, server: server) else { continue }
            values[name] = value
        }
        return values
    }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding strings and arrays or dictionaries of strings cannot fail.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension PostgreSQLValue {
    /// A `text[]` parameter (`{"a",NULL,"b \"c\""}`): every element quoted, `"` and `\`
    /// escaped; `nil` elements are SQL `NULL`.
    static func texts<S: Sequence<String?>>(_ values: S) -> PostgreSQLValue {
        let elements = values.map { value -> String in
            guard let value else { return "NULL" }
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return .text("{" + elements.joined(separator: ",") + "}")
    }
}
