// The PostgreSQL store's persistent history: the current token, fetching history after a token
// or a date, and deleting it before one.
import Foundation
import ObjectGraphInternals
import ManagedObjects
import SQLCompiling
import Predicates

extension PostgreSQLPersistentStore: PersistentHistoryStore {
    /// Whether saves record history: set by the initializer's `tracksPersistentHistory`, or a
    /// description's ``StoreDescription/persistentHistoryTrackingKey`` option.
    public var tracksPersistentHistory: Bool { fanOut.withTrackedLock(self) { $0.tracksHistory } }

    /// Whether the store reports every committed transaction (its own saves when they commit,
    /// other processes' and coordinators' through `LISTEN`/`NOTIFY`): set by the initializer's
    /// `postsRemoteChangeNotifications`, or a description's
    /// ``StoreDescription/remoteChangeNotificationPostOptionKey`` option.
    public var postsRemoteChangeNotifications: Bool { fanOut.withTrackedLock(self) { $0.postsRemoteChanges } }

    /// The token of the newest transaction, or `nil` when none was recorded.
    ///
    /// - Returns: The token.
    /// - Throws: ``PersistentHistoryError/notTracking(storeIdentifier:)`` when history is off,
    ///   or ``PostgreSQLStoreError`` for a server failure.
    public func currentHistoryToken() throws -> PersistentHistoryToken? {
        guard tracksPersistentHistory else { throw PersistentHistoryError.notTracking(storeIdentifier: identifier) }
        return try withConnection { connection, state in
            let q = SQLDialect.postgreSQL.quoted
            let result = try connection.execute("SELECT \(q("Z_MAXTRANSACTION")) FROM \(q(PostgreSQLHistoryTables.counter))")
            guard let number = result.rows.first.flatMap({ PostgreSQLRows.integer($0[0]) }), number > 0 else { return nil }
            return PersistentHistoryToken(storeIdentifier: state.identifier, transactionNumber: number)
        }
    }

    /// Fetches history after a token or a date, or deletes it before one.
    ///
    /// A fetch reads in one repeatable-read transaction: the transactions (filtered by author
    /// and cut at the limit on the server), then their changes. A delete removes the
    /// transactions with their changes and remembers the newest one deleted: a later fetch
    /// after an older token throws ``PersistentHistoryError/tokenExpired(_:)``.
    ///
    /// - Parameter request: The request; its token, if any, is one of this store's.
    /// - Returns: The transactions, changes or count, or how many transactions were deleted.
    /// - Throws: ``PersistentHistoryError`` (history off, another store's token, an expired
    ///   token), or ``PostgreSQLStoreError``.
    public func executeHistoryRequest(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        guard tracksPersistentHistory else { throw PersistentHistoryError.notTracking(storeIdentifier: identifier) }
        return try withConnection { connection, state in
            if let token = request.token, token.storeIdentifier != state.identifier {
                throw PersistentHistoryError.unknownStore(token.storeIdentifier)
            }
            let (schema, model) = try Self.loaded(state, connection)
            let history = PostgreSQLHistoryReader(connection: connection, schema: schema, model: model, identifier: state.identifier)
            switch request.operation {
            case .deleteBeforeToken(let token):
                return .deleted(try history.delete(upTo: token?.transactionNumber))
            case .deleteBeforeDate(let date):
                return .deleted(try history.delete(before: date))
            case .fetchAfterToken, .fetchAfterDate:
                return try history.fetch(request)
            }
        }
    }
}

/// Reads and deletes a store's history on its connection.
struct PostgreSQLHistoryReader {
    let connection: PostgreSQLConnection
    let schema: PostgreSQLSchema
    let model: ManagedObjectModel
    let identifier: String

    private var q: (String) -> String { schema.dialect.quoted }

    /// Deletes the transactions up to a number (all for `nil`); returns how many.
    func delete(upTo number: Int64?) throws -> Int {
        try deleting("\(q("Z_PK")) <= coalesce($1::bigint, \(q("Z_PK")))", number.map { .integer($0) } ?? .null)
    }

    /// Deletes the transactions written before a date; returns how many.
    func delete(before date: Date) throws -> Int {
        try deleting("\(q("ZTIMESTAMP")) < $1::double precision", .text(PostgreSQLSchema.text(of: date.timeIntervalSinceReferenceDate)))
    }

    private func deleting(_ condition: String, _ parameter: PostgreSQLValue) throws -> Int {
        try connection.transaction {
            let result = try connection.execute(
                "WITH d AS (DELETE FROM \(q(PostgreSQLHistoryTables.transactions)) WHERE \(condition) RETURNING \(q("Z_PK"))) SELECT count(*), max(\(q("Z_PK"))) FROM d",
                [parameter])
            let count = result.rows.first.flatMap { PostgreSQLRows.integer($0[0]) } ?? 0
            if let newest = result.rows.first.flatMap({ PostgreSQLRows.integer($0[1]) }) {
                try connection.execute(
                    "UPDATE \(q(PostgreSQLHistoryTables.counter)) SET \(q("Z_PURGED")) = GREATEST(\(q("Z_PURGED")), $1::bigint)",
                    [.integer(newest)])
            }
            return Int(count)
        }
    }

    /// The transactions (and changes) a fetch request asks for.
    func fetch(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try connection.readOnlyTransaction {
            var condition: String
            var parameters: [PostgreSQLValue]
            switch request.operation {
            case .fetchAfterToken(let token):
                if let token {
                    let purged = try connection.execute("SELECT \(q("Z_PURGED")) FROM \(q(PostgreSQLHistoryTables.counter))")
                    if let newestDeleted = purged.rows.first.flatMap({ PostgreSQLRows.integer($0[0]) }),
                       token.transactionNumber < newestDeleted {
                        throw PersistentHistoryError.tokenExpired(token)
                    }
                }
                condition = "\(q("Z_PK")) > $1::bigint"
                parameters = [.integer(token?.transactionNumber ?? 0)]
            case .fetchAfterDate(let date):
                condition = "\(q("ZTIMESTAMP")) > $1::double precision"
                parameters = [.text(PostgreSQLSchema.text(of: date.timeIntervalSinceReferenceDate))]
            case .deleteBeforeToken, .deleteBeforeDate:
                return .deleted(0)
            }
            condition += " AND ($2::text[] IS NULL OR \(q("ZAUTHOR")) = ANY($2::text[]))"
            condition += " AND (\(q("ZAUTHOR")) IS NULL OR NOT (\(q("ZAUTHOR")) = ANY($3::text[])))"
            parameters.append(request.authors.map { .texts($0.sorted().map(Optional.some)) } ?? .null)
            parameters.append(.texts(request.excludedAuthors.sorted().map(Optional.some)))
            let table = q(PostgreSQLHistoryTables.transactions)
            if request.resultType == .count {
                let result = try connection.execute("SELECT count(*) FROM \(table) WHERE \(condition)", parameters)
                return .count(Int(result.rows.first.flatMap { PostgreSQLRows.integer($0[0]) } ?? 0))
            }
            parameters.append(request.fetchLimit > 0 ? .integer(Int64(request.fetchLimit)) : .null)
            let columns = ["Z_PK", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID", "ZBUNDLEID"].map(q).joined(separator: ", ")
            let rows = try connection.execute(
                "SELECT \(columns) FROM \(table) WHERE \(condition) ORDER BY \(q("Z_PK")) LIMIT $4::bigint", parameters).rows
            var transactions: [PersistentHistoryTransaction] = []
            transactions.reserveCapacity(rows.count)
            for row in rows {
                guard let number = PostgreSQLRows.integer(row[0]), let seconds = row[1].flatMap(PostgreSQLSchema.double) else { continue }
                transactions.append(PersistentHistoryTransaction(
                    transactionNumber: number, timestamp: Date(timeIntervalSinceReferenceDate: seconds), storeIdentifier: identifier,
                    author: row[2], contextName: row[3], processIdentifier: row[4], bundleIdentifier: row[5]))
            }
            if request.resultType == .transactionsOnly { return .transactions(transactions) }
            let changes = try self.changes(of: transactions.map(\.transactionNumber))
            if request.resultType == .changesOnly { return .changes(changes) }
            var byTransaction: [Int64: [PersistentHistoryChange]] = [:]
            for change in changes { byTransaction[change.transactionNumber, default: []].append(change) }
            for index in transactions.indices {
                transactions[index].changes = byTransaction[transactions[index].transactionNumber] ?? []
            }
            return .transactions(transactions)
        }
    }

    /// The changes of the transactions numbered, in change order. Changes of entities the
    /// model no longer has are left out.
    private func changes(of transactionNumbers: [Int64]) throws -> [PersistentHistoryChange] {
        guard !transactionNumbers.isEmpty else { return [] }
        let columns = ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS", "ZTOMBSTONE"].map(q).joined(separator: ", ")
        let rows = try connection.execute(
            "SELECT \(columns) FROM \(q(PostgreSQLHistoryTables.changes)) WHERE \(q("ZTRANSACTIONID")) = ANY($1::bigint[]) ORDER BY \(q("Z_PK"))",
            [.integers(transactionNumbers)]).rows
        var changes: [PostgreSQLHistoryChangeRow] = []
        changes.reserveCapacity(rows.count)
        for row in rows {
            guard let changeIdentifier = PostgreSQLRows.integer(row[0]),
                  let type = row[1].flatMap({ Int($0) }).flatMap(PersistentHistoryChange.ChangeType.init(rawValue:)),
                  let entityName = row[2].flatMap({ Int($0) }).flatMap({ schema.entityNames[$0] }),
                  let entity = model.entity(named: entityName),
                  let key = PostgreSQLRows.integer(row[3]), let transaction = PostgreSQLRows.integer(row[4]) else { continue }
            changes.append(PostgreSQLHistoryChangeRow(identifier: changeIdentifier, type: type, entity: entity, key: key,
                                                      transaction: transaction, columns: row[5], tombstone: row[6]))
        }
        return try changes.map { row in
            PersistentHistoryChange(
                changeIdentifier: row.identifier,
                changedObjectID: ManagedObjectID(entityName: row.entity.name, storeIdentifier: identifier, primaryKey: row.key),
                changeType: row.type,
                updatedPropertyNames: row.type == .update ? PostgreSQLHistoryTables.names(fromColumns: row.columns) : nil,
                tombstone: try PostgreSQLHistoryTables.tombstone(fromText: row.tombstone, entity: row.entity, server: connection.server),
                transactionNumber: row.transaction)
        }
    }
}

/// One `ACHANGE` row, read.
private struct PostgreSQLHistoryChangeRow {
    var identifier: Int64
    var type: PersistentHistoryChange.ChangeType
    var entity: EntityDescription
    var key: Int64
    var transaction: Int64
    var columns: String?
    var tombstone: String?
}
