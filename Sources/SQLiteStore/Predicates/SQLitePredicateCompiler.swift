// Predicates to SQL: what SQL can decide exactly as the in-memory evaluation does.
import Foundation
import ManagedObjects
import Predicates

/// Compiles a predicate, for one entity, to an SQL condition on its table's columns.
///
/// Only comparisons whose SQL result is the in-memory result for every row are compiled
/// ("exact"): an attribute compared with a constant of its own kind by `==`, `!=`, `<`, `<=`,
/// `>`, `>=`, `IN` or `BETWEEN`, without string options (`[c]`, `[d]`), and `== nil` /
/// `!= nil`; a to-one relationship compared with object IDs of this store or nil (`==`, `!=`,
/// `IN`); `AND`, `OR`, `NOT` of those; `TRUEPREDICATE` and `FALSEPREDICATE`. Every SQL
/// condition is 0 or 1, never NULL, following the evaluator's rules for nil (nil equals only
/// nil; nil is neither less nor greater than anything).
///
/// Under `AND`, parts SQL cannot decide are left out: the SQL then returns a superset of the
/// matching rows and the result is marked inexact (the context evaluates the predicate on
/// the objects anyway). Under `OR` or `NOT`, such a part makes the whole compound undecided.
/// Strings compare with the `OG_SWIFT` collation: Swift's `String` equality and order, which
/// the evaluator uses without options.
struct SQLitePredicateCompiler {
    /// An SQL condition with its arguments, and whether it is exact.
    struct Condition {
        var sql: String
        var arguments: [SQLiteValue]
        var isExact: Bool
    }

    let entity: SQLiteSchema.Entity
    let schema: SQLiteSchema
    let storeIdentifier: String
    private let columns: [String: (attribute: AttributeDescription, column: String)]
    private let keys: [String: (column: String, entityColumn: String?, destination: String)]

    init(entity: SQLiteSchema.Entity, schema: SQLiteSchema, storeIdentifier: String) {
        self.entity = entity
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        var columns: [String: (attribute: AttributeDescription, column: String)] = [:]
        for entry in entity.attributes { columns[entry.attribute.name] = entry }
        self.columns = columns
        var keys: [String: (column: String, entityColumn: String?, destination: String)] = [:]
        for (relationship, storage) in entity.relationships {
            if case .foreignKey(let column, let entityColumn, let destination) = storage {
                keys[relationship.name] = (column, entityColumn, destination)
            }
        }
        self.keys = keys
    }

    /// The condition for `predicate`, or `nil` when SQL cannot narrow the rows at all.
    func condition(for predicate: KeyValuePredicate) -> Condition? {
        switch predicate.kind {
        case .constant(let value):
            return Condition(sql: value ? "1" : "0", arguments: [], isExact: true)
        case .comparison(let comparison):
            return self.comparison(comparison)
        case .and(let parts):
            let compiled = parts.map(condition(for:))
            let known = compiled.compactMap { $0 }
            guard !known.isEmpty else { return parts.isEmpty ? Condition(sql: "1", arguments: [], isExact: true) : nil }
            return Condition(sql: "(" + known.map(\.sql).joined(separator: " AND ") + ")",
                             arguments: known.flatMap(\.arguments),
                             isExact: known.count == compiled.count && known.allSatisfy(\.isExact))
        case .or(let parts):
            guard !parts.isEmpty else { return Condition(sql: "0", arguments: [], isExact: true) }
            var known: [Condition] = []
            for part in parts {
                guard let compiled = condition(for: part) else { return nil }
                known.append(compiled)
            }
            return Condition(sql: "(" + known.map(\.sql).joined(separator: " OR ") + ")",
                             arguments: known.flatMap(\.arguments), isExact: known.allSatisfy(\.isExact))
        case .not(let inner):
            guard let compiled = condition(for: inner), compiled.isExact else { return nil }
            return Condition(sql: "(NOT " + compiled.sql + ")", arguments: compiled.arguments, isExact: true)
        case .block:
            return nil
        }
    }

    /// An attribute compared with constants.
    private func comparison(_ comparison: KeyValueComparison) -> Condition? {
        guard comparison.modifier == .direct,
              comparison.options.isEmpty || comparison.options == .normalized else { return nil }
        var op = comparison.comparisonOperator
        var left = comparison.leftExpression
        var right = comparison.rightExpression
        if case .constant = left, case .keyPath = right, let flipped = Self.flipped(op) {
            (left, right, op) = (right, left, flipped)
        }
        guard case .keyPath(let key) = left else { return nil }
        if let foreignKey = keys[key] { return toOne(foreignKey, op, right) }
        guard let (attribute, column) = columns[key] else { return nil }
        let collate = attribute.attributeType == .string ? " COLLATE OG_SWIFT" : ""
        let constants: [KeyValueConstant]
        switch right {
        case .constant(.array(let list)) where op == .in || op == .between:
            constants = list
        case .constant(.set(let set)) where op == .in:
            constants = Array(set)
        case .constant(let constant) where op != .in && op != .between:
            constants = [constant]
        case .aggregate(let list) where op == .in || op == .between:
            var values: [KeyValueConstant] = []
            for case .constant(let constant) in list { values.append(constant) }
            guard values.count == list.count else { return nil }
            constants = values
        default:
            return nil
        }
        if constants.count == 1, constants[0] == .null {
            switch op {
            case .equalTo: return Condition(sql: "(\(column) IS NULL)", arguments: [], isExact: true)
            case .notEqualTo: return Condition(sql: "(\(column) IS NOT NULL)", arguments: [], isExact: true)
            default: return nil
            }
        }
        var values: [SQLiteValue] = []
        for constant in constants {
            guard let value = Self.comparable(constant, for: attribute.attributeType) else { return nil }
            values.append(value)
        }
        switch op {
        case .equalTo:
            return Condition(sql: "IFNULL(\(column) = ?\(collate), 0)", arguments: values, isExact: true)
        case .notEqualTo:
            return Condition(sql: "(\(column) IS NOT ?\(collate))", arguments: values, isExact: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard attribute.attributeType != .uuid else { return nil }
            return Condition(sql: "IFNULL(\(column) \(op.rawValue) ?\(collate), 0)", arguments: values, isExact: true)
        case .in:
            guard !values.isEmpty else { return Condition(sql: "0", arguments: [], isExact: true) }
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return Condition(sql: "IFNULL(\(column)\(collate) IN (\(marks)), 0)", arguments: values, isExact: true)
        case .between:
            guard values.count == 2, attribute.attributeType != .uuid else { return nil }
            return Condition(sql: "IFNULL(\(column) BETWEEN ?\(collate) AND ?\(collate), 0)", arguments: values, isExact: true)
        default:
            return nil
        }
    }

    /// A to-one relationship compared with an object ID of this store (the context replaces
    /// managed objects in predicates by their IDs) or with nil: `==`, `!=`, `IN`.
    private func toOne(_ key: (column: String, entityColumn: String?, destination: String), _ op: ComparisonOperator,
                       _ right: KeyValueExpression) -> Condition? {
        let column = key.column
        var constants: [KeyValueConstant]
        switch (op, right) {
        case (.equalTo, .constant(let constant)), (.notEqualTo, .constant(let constant)):
            constants = [constant]
        case (.in, .constant(.array(let list))):
            constants = list
        case (.in, .constant(.set(let set))):
            constants = Array(set)
        default:
            return nil
        }
        if op != .in, constants == [.null] {
            return Condition(sql: "(\(column) IS \(op == .equalTo ? "" : "NOT ")NULL)", arguments: [], isExact: true)
        }
        // Each ID as (key, concrete entity number); IDs that cannot be related match nothing.
        var targets: [(key: Int64, number: Int64)] = []
        let allowed = Set(schema.entities[key.destination]?.concreteNumbers ?? [])
        for constant in constants {
            guard case .value(let opaque) = constant, let id = opaque.base as? ManagedObjectID,
                  id.storeIdentifier == storeIdentifier, case .integer(let primaryKey) = id.referenceObject,
                  let target = schema.entities[id.entityName] else { return nil }
            if allowed.contains(target.number) { targets.append((primaryKey, target.number)) }
        }
        let parts = targets.map { target in
            key.entityColumn.map { "(\(column) = ? AND \($0) = ?)" } ?? "\(column) = ?"
        }
        let arguments = targets.flatMap { target -> [SQLiteValue] in
            key.entityColumn == nil ? [.integer(target.key)] : [.integer(target.key), .integer(target.number)]
        }
        let matches = parts.isEmpty ? "0" : "IFNULL(" + parts.joined(separator: " OR ") + ", 0)"
        let sql = op == .notEqualTo ? "(NOT \(matches))" : matches
        return Condition(sql: sql, arguments: arguments, isExact: true)
    }

    /// The operator with its sides swapped (`5 < x` is `x > 5`).
    private static func flipped(_ op: ComparisonOperator) -> ComparisonOperator? {
        switch op {
        case .equalTo, .notEqualTo: return op
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return nil
        }
    }

    /// A constant as the column stores values of the attribute's kind, when the two compare
    /// in SQL as the evaluator compares them; `nil` otherwise.
    private static func comparable(_ constant: KeyValueConstant, for type: AttributeDescription.AttributeType) -> SQLiteValue? {
        switch (type, constant) {
        case (.integer16, .integer(let v)), (.integer32, .integer(let v)), (.integer64, .integer(let v)),
             (.boolean, .integer(let v)), (.double, .integer(let v)), (.float, .integer(let v)):
            return .integer(v)
        case (.integer16, .double(let v)), (.integer32, .double(let v)), (.integer64, .double(let v)),
             (.boolean, .double(let v)), (.double, .double(let v)), (.float, .double(let v)):
            return v.isFinite ? .real(v) : nil
        case (.integer16, .bool(let v)), (.integer32, .bool(let v)), (.integer64, .bool(let v)), (.boolean, .bool(let v)):
            return .integer(v ? 1 : 0)
        case (.date, .date(let date)):
            return .real(date.timeIntervalSinceReferenceDate)
        case (.string, .string(let string)):
            return .text(string)
        case (.uuid, .uuid(let uuid)):
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        default:
            return nil
        }
    }
}
