// Reading and deleting persistent history from the tables of Core Data's SQLite layout.
import Foundation
import ManagedObjects
import Predicates

/// Answers history requests from one store file's `ATRANSACTION`, `ACHANGE` and
/// `ATRANSACTIONSTRING` tables. It needs only the entity numbers to name changed objects;
/// with the entities' layout (a loaded store) it also decodes updated property names and
/// tombstones.
struct SQLiteHistoryReader {
    let connection: SQLiteConnection
    let storeIdentifier: String
    let layout: SQLiteHistoryLayout
    /// `Z_ENT` → entity name.
    let entityNames: [Int64: String]
    /// The entities' layout, by name; empty when only the numbers are known.
    let entities: [String: SQLiteSchema.Entity]

    private var path: String { connection.path }

    /// The token of the newest transaction (the transaction counter), or `nil` before the first.
    func currentToken() throws -> PersistentHistoryToken? {
        let number = try newestNumber()
        return number > 0 ? PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: number) : nil
    }

    /// The newest transaction number: the counter in `Z_PRIMARYKEY`, or the largest row.
    func newestNumber() throws -> Int64 {
        let counter = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                            [.integer(SQLiteHistoryLayout.transactionEntity)])?.integerValue ?? 0
        let largest = try connection.scalar("SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION")?.integerValue ?? 0
        return max(counter, largest)
    }

    /// Runs a request (a delete inside one SQLite transaction).
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        switch request.operation {
        case .deleteBeforeToken(let token):
            try checkStore(of: token)
            return try delete(where: "Z_PK <= ?", changesWhere: "ZTRANSACTIONID <= ?", [.integer(token?.transactionNumber ?? Int64.max)])
        case .deleteBeforeDate(let date):
            let bound: [SQLiteValue] = [.real(date.timeIntervalSinceReferenceDate)]
            return try delete(where: "ZTIMESTAMP < ?", changesWhere: "ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE ZTIMESTAMP < ?)", bound)
        case .fetchAfterToken(let token):
            try checkStore(of: token)
            if let token { try checkNotExpired(token) }
            return try fetch(request, where: "t.Z_PK > ?", [.integer(token?.transactionNumber ?? 0)])
        case .fetchAfterDate(let date):
            return try fetch(request, where: "t.ZTIMESTAMP > ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    private func checkStore(of token: PersistentHistoryToken?) throws {
        if let token, token.storeIdentifier != storeIdentifier { throw PersistentHistoryError.unknownStore(token.storeIdentifier) }
    }

    /// A token is expired when transactions after it were deleted: the first one kept after it
    /// is not the next number, or none is kept though the counter went past it.
    private func checkNotExpired(_ token: PersistentHistoryToken) throws {
        let newest = try newestNumber()
        guard token.transactionNumber < newest else { return }
        let next = try connection.scalar("SELECT MIN(Z_PK) FROM ATRANSACTION WHERE Z_PK > ?", [.integer(token.transactionNumber)])?.integerValue
        if next != token.transactionNumber + 1 { throw PersistentHistoryError.tokenExpired(token) }
    }

    private func delete(where condition: String, changesWhere: String, _ arguments: [SQLiteValue]) throws -> PersistentHistoryResult {
        try connection.transaction {
            let count = try connection.scalar("SELECT COUNT(*) FROM ATRANSACTION WHERE \(condition)", arguments)?.integerValue ?? 0
            try connection.run("DELETE FROM ACHANGE WHERE \(changesWhere)", arguments)
            try connection.run("DELETE FROM ATRANSACTION WHERE \(condition)", arguments)
            return .deleted(Int(count))
        }
    }

    /// The transactions matching `condition`, filtered by author and limited, with their
    /// changes as the result type asks.
    private func fetch(_ request: PersistentHistoryChangeRequest, where condition: String,
                       _ arguments: [SQLiteValue]) throws -> PersistentHistoryResult {
        var transactions = try readTransactions(where: condition, arguments, request: request)
        switch request.resultType {
        case .count:
            return .count(transactions.count)
        case .transactionsOnly:
            return .transactions(transactions)
        case .transactionsAndChanges, .changesOnly:
            let changes = try readChanges(of: transactions.map(\.transactionNumber))
            for index in transactions.indices { transactions[index].changes = changes[transactions[index].transactionNumber] ?? [] }
            return request.resultType == .changesOnly ? .changes(transactions.flatMap(\.changes)) : .transactions(transactions)
        }
    }

    private func readTransactions(where condition: String, _ arguments: [SQLiteValue],
                                  request: PersistentHistoryChangeRequest) throws -> [PersistentHistoryTransaction] {
        let fields = SQLiteHistoryLayout.stringFields
        var columns = ["t.Z_PK", "t.ZTIMESTAMP"]
        var joins = ""
        if layout.usesStringTable {
            for (index, field) in fields.enumerated() {
                columns.append("s\(index).ZNAME")
                joins += " LEFT JOIN ATRANSACTIONSTRING s\(index) ON s\(index).Z_PK = t.Z\(field)TS"
            }
        }
        if layout.hasNameColumns { columns += fields.map { "t.Z\($0)" } }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM ATRANSACTION t\(joins) WHERE \(condition) ORDER BY t.Z_PK"
        let statement = try connection.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var result: [PersistentHistoryTransaction] = []
        let stringCount = layout.usesStringTable ? fields.count : 0
        while try statement.step() {
            guard let number = statement.value(at: 0).integerValue else { continue }
            let seconds = statement.value(at: 1).doubleValue ?? 0
            var names = [String?](repeating: nil, count: fields.count)
            for index in fields.indices {
                var name: String?
                if layout.usesStringTable, case .text(let text) = statement.value(at: 2 + index) { name = text }
                if name == nil, layout.hasNameColumns, case .text(let text) = statement.value(at: 2 + stringCount + index) { name = text }
                names[index] = name
            }
            guard request.admits(author: names[0]) else { continue }
            result.append(PersistentHistoryTransaction(transactionNumber: number, timestamp: Date(timeIntervalSinceReferenceDate: seconds),
                                                       storeIdentifier: storeIdentifier, author: names[0], contextName: names[2],
                                                       processIdentifier: names[3], bundleIdentifier: names[1]))
            if request.fetchLimit > 0, result.count == request.fetchLimit { break }
        }
        return result
    }

    /// The changes of the transactions, by transaction number, in change order. Changes of
    /// entities the store does not know are left out.
    private func readChanges(of numbers: [Int64]) throws -> [Int64: [PersistentHistoryChange]] {
        guard let low = numbers.min(), let high = numbers.max() else { return [:] }
        let wanted = Set(numbers)
        let tombstoneColumns = (0..<layout.tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let sql = "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns) FROM ACHANGE "
            + "WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY Z_PK"
        let statement = try connection.statement(sql)
        try statement.bind([.integer(low), .integer(high)])
        defer { statement.reset() }
        var result: [Int64: [PersistentHistoryChange]] = [:]
        while try statement.step() {
            guard let transaction = statement.value(at: 4).integerValue, wanted.contains(transaction),
                  let identifier = statement.value(at: 0).integerValue,
                  let rawType = statement.value(at: 1).integerValue, let type = PersistentHistoryChange.ChangeType(rawValue: Int(rawType)),
                  let number = statement.value(at: 2).integerValue, let name = entityNames[number],
                  let key = statement.value(at: 3).integerValue else { continue }
            let id = ManagedObjectID(entityName: name, storeIdentifier: storeIdentifier, primaryKey: key)
            var change = PersistentHistoryChange(changeIdentifier: identifier, changedObjectID: id, changeType: type, transactionNumber: transaction)
            if let entity = entities[name] {
                if type == .update, case .blob(let bits) = statement.value(at: 5) {
                    change.updatedPropertyNames = SQLiteHistoryLayout.propertyNames(ofBits: bits, entity: entity)
                }
                if type == .delete { change.tombstone = try tombstone(of: entity, statement) }
            }
            result[transaction, default: []].append(change)
        }
        return result
    }

    private func tombstone(of entity: SQLiteSchema.Entity, _ statement: SQLiteStatement) throws -> [String: KeyValueConstant]? {
        let kept = SQLiteHistoryLayout.tombstoneAttributes(of: entity)
        guard !kept.isEmpty else { return nil }
        var values: [String: KeyValueConstant] = [:]
        for (index, pair) in kept.enumerated() where index < layout.tombstoneColumns {
            let value = statement.value(at: 6 + index)
            if value.isNull { continue }
            if let constant = try SQLiteSchema.constant(value, for: pair.attribute, entity: entity.name, path: path) {
                values[pair.attribute.name] = constant
            }
        }
        return values
    }
}
