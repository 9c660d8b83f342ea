// The SQLite store's use of the shared predicate compiler (SQLCompiling).
import Foundation
import ManagedObjects
import Predicates
import SQLCompiling

/// Compiles a predicate and sort descriptors, for one entity, to SQL on its table (alias
/// `t0`) in SQLite's dialect (``SQLDialect/sqlite``), with arguments as SQLite binds them.
///
/// A thin wrapper: ``SQLPredicateCompiler`` does the work for every database.
final class SQLitePredicateCompiler {
    /// An SQL condition with its arguments, and whether it is exact.
    struct Condition {
        var sql: String
        var arguments: [SQLiteValue]
        var isExact: Bool
    }

    private let compiler: SQLPredicateCompiler

    init(entity: SQLiteSchema.Entity, schema: SQLiteSchema, storeIdentifier: String) {
        compiler = SQLPredicateCompiler(entity: entity, entities: schema.entities, storeIdentifier: storeIdentifier,
                                        dialect: .sqlite)
    }

    /// The condition for `predicate`, or `nil` when SQL cannot narrow the rows at all.
    func compile(_ predicate: KeyValuePredicate) -> Condition? {
        compiler.compile(predicate).map { Condition(sql: $0.sql, arguments: $0.arguments.map(SQLiteValue.init), isExact: $0.isExact) }
    }

    /// `ORDER BY` terms giving the order of `descriptors` in memory (nil first ascending, last
    /// descending; NaN after nil; strings as Swift's `String`, or case-folded for
    /// `caseInsensitiveCompare`), or `nil` when a key is not a number, date or string attribute
    /// (through to-ones) or the comparison is localized or a closure.
    func orderTerms(_ descriptors: [KeyValueSortDescriptor]) -> [String]? {
        guard let terms = compiler.orderTerms(descriptors), terms.arguments.isEmpty else { return nil }
        return terms.sql.isEmpty ? [] : [terms.sql]
    }
}

extension SQLiteValue {
    /// A compiled condition's argument as SQLite binds it (Booleans as 0 or 1, UUIDs as their
    /// 16 bytes).
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        case .boolean(let v): self = .integer(v ? 1 : 0)
        case .uuid(let uuid): self = .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        }
    }
}
