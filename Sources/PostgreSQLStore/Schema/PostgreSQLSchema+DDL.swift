// The statements that create the store's tables.
import Foundation
import SQLCompiling

extension PostgreSQLSchema {
    /// `CREATE TABLE` and `CREATE INDEX` statements for every table of the layout, the
    /// bookkeeping tables included; none takes parameters.
    package var creationStatements: [String] {
        var statements = [
            "CREATE TABLE \(dialect.quoted("Z_METADATA")) (\(dialect.quoted("Z_KEY")) text PRIMARY KEY, \(dialect.quoted("Z_VALUE")) bytea)",
            "CREATE TABLE \(dialect.quoted("Z_PRIMARYKEY")) (\(dialect.quoted("Z_ENT")) integer PRIMARY KEY, \(dialect.quoted("Z_NAME")) text UNIQUE NOT NULL, \(dialect.quoted("Z_SUPER")) integer NOT NULL, \(dialect.quoted("Z_MAX")) bigint NOT NULL)",
        ]
        for (table, columns) in tables.sorted(by: { $0.key < $1.key }) {
            let list = columns.map { dialect.quoted($0.name) + " " + $0.type + ($0.name == "Z_PK" ? " PRIMARY KEY" : $0.name.hasPrefix("Z_") ? " NOT NULL" : "") }
            statements.append("CREATE TABLE \(dialect.quoted(table)) (\(list.joined(separator: ", ")))")
            statements.append("CREATE INDEX \(dialect.quoted(table + "_Z_ENT")) ON \(dialect.quoted(table)) (\(dialect.quoted("Z_ENT")))")
        }
        var joins: Set<String> = []
        for entity in entities.values { for (_, table) in entity.joinTables { joins.insert(table) } }
        for table in joins.sorted() {
            statements.append("CREATE TABLE \(dialect.quoted(table)) (\(dialect.quoted("Z_OWNER")) bigint NOT NULL, \(dialect.quoted("Z_POS")) integer NOT NULL, \(dialect.quoted("Z_TARGET")) bigint NOT NULL, \(dialect.quoted("Z_TARGET_ENT")) integer NOT NULL, PRIMARY KEY (\(dialect.quoted("Z_OWNER")), \(dialect.quoted("Z_POS"))))")
        }
        for constraint in constraints {
            // Entity numbers are the schema's own integers, not values from the app.
            let scope = constraint.entityNumbers.map(String.init).joined(separator: ", ")
            statements.append("CREATE UNIQUE INDEX \(dialect.quoted(constraint.index)) ON \(dialect.quoted(constraint.table)) (\(constraint.columns.map(dialect.quoted).joined(separator: ", "))) WHERE \(dialect.quoted("Z_ENT")) IN (\(scope))")
        }
        return statements
    }
}
