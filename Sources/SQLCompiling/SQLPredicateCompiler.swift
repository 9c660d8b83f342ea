// Predicates to SQL: what SQL can decide exactly as the in-memory evaluation does.
import Foundation
import ManagedObjects
import Predicates

/// Compiles a predicate, for one entity, to an SQL condition on its table (alias `t0`), in a
/// database's dialect (``SQLDialect``: the SQLite store's, or ``SQLDialect/postgreSQL``).
///
/// Compiled (each exactly as the in-memory evaluation decides it, where the dialect's
/// ``SQLPredicateRules`` can):
/// - attributes compared with constants of their kind by `==`, `!=`, `<`, `<=`, `>`, `>=`,
///   `IN`, `BETWEEN`, and `== nil` / `!= nil`;
/// - string attributes with `[c]`, `[d]`, `[cd]`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`
///   and `MATCHES` as the dialect's rules allow (SQLite: through a function calling the
///   evaluator's own comparison; PostgreSQL: built-ins, for ASCII data);
/// - key paths through to-one relationships (`shelf.label`), read by key look-ups;
/// - to-one relationships compared with object IDs or nil;
/// - `ANY`, `ALL`, `NONE` over a to-many (`ANY books.title == 'x'`) as `EXISTS`;
/// - `@count` of a to-many, `SUBQUERY(…).@count`, and `@sum`, `@avg`, `@min`, `@max` of an
///   integer (and, for `@min`/`@max`, date) attribute of a to-many's members;
/// - `AND`, `OR`, `NOT`, `TRUEPREDICATE`, `FALSEPREDICATE`;
/// - sort descriptors (``orderTerms(_:)``).
///
/// Every value is a bound parameter: the SQL has a `?` for each, in the order of
/// ``SQLCondition/arguments`` (``SQLDialect/numbered(_:arguments:from:)`` spells them).
///
/// Every SQL condition decides as the evaluator does for nil (nil equals only nil; nil is
/// neither less nor greater than anything), so `NOT` stays exact.
/// Under `AND`, parts SQL cannot decide are left out: the SQL then returns a superset of the
/// matching rows and the result is marked inexact (the context evaluates the predicate on the
/// objects anyway). Under `OR` or `NOT`, such a part makes the whole compound undecided.
///
/// Some of a dialect's tests hold only for some data (``SQLStringTest/assumption``): the
/// compiler collects the queries that check them in ``assumptions``; a store runs them and,
/// when one finds a row, compiles again with `mayAssume: false`.
///
/// - Important: Thread safety: one compiler per compilation, on one thread.
package final class SQLPredicateCompiler {
    package typealias Condition = SQLCondition

    /// A row a predicate reads: the fetched row (`t0`), a to-many's member (an alias of the
    /// `EXISTS` subquery), or a row reached through to-ones (only its key is known, as SQL).
    struct Scope {
        let entity: SQLEntityLayout
        let alias: String?
        /// SQL giving the row's `Z_PK`.
        let key: String

        /// SQL giving a column of the row (NULL when there is no row).
        func column(_ name: String, _ dialect: SQLDialect) -> String {
            if let alias { return alias + "." + dialect.quoted(name) }
            return "(SELECT \(dialect.quoted(name)) FROM \(dialect.quoted(entity.tableName)) WHERE \(dialect.quoted("Z_PK")) = \(key))"
        }
    }

    let entities: [String: SQLEntityLayout]
    let storeIdentifier: String
    package let dialect: SQLDialect
    let rules: any SQLPredicateRules
    let mayAssume: Bool
    let root: Scope
    private var nextAlias = 1
    /// Subquery depth, bounded so that huge predicates fall back instead of failing in SQL.
    private var depth = 0
    /// How many `NOT`s enclose the part being compiled. Outside any, a comparison may be NULL
    /// (WHERE treats NULL as false, and so do AND and OR around it), which lets the database
    /// use indexes; under a `NOT` every comparison is made true or false (`IFNULL(…, 0)`).
    private(set) var negations = 0
    /// Queries that must find no row for the compiled conditions to hold (see
    /// ``SQLStringTest/assumption``), without duplicates.
    package private(set) var assumptions: [SQLFragment] = []

    /// A compiler for predicates on `entity`.
    ///
    /// - Parameters:
    ///   - entity: The fetched entity.
    ///   - entities: Every entity's layout, by name.
    ///   - storeIdentifier: The store's identifier (object IDs of other stores never match).
    ///   - dialect: The database's dialect.
    ///   - mayAssume: Whether tests that hold only for some data may be used.
    package init(entity: SQLEntityLayout, entities: [String: SQLEntityLayout], storeIdentifier: String,
                 dialect: SQLDialect, mayAssume: Bool = true) {
        self.entities = entities
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
        self.rules = dialect.rules
        self.mayAssume = mayAssume
        root = Scope(entity: entity, alias: "t0", key: "t0." + dialect.quoted("Z_PK"))
    }

    func assume(_ assumption: SQLFragment?) {
        if let assumption, !assumptions.contains(assumption) { assumptions.append(assumption) }
    }

    /// SQLite refuses expressions deeper than 1,000: beyond this the predicate is left to
    /// memory (and beyond the dialect's ``SQLPredicateRules/maximumArguments``).
    static let maximumDepth = 200

    /// The condition for `predicate`, or `nil` when SQL cannot narrow the rows at all.
    package func compile(_ predicate: KeyValuePredicate) -> Condition? {
        guard let condition = condition(for: predicate, in: root, variables: [:]),
              condition.arguments.count <= rules.maximumArguments else { return nil }
        return condition
    }

    var always: Condition { Condition(sql: rules.trueLiteral, arguments: [], isExact: true) }
    var never: Condition { Condition(sql: rules.falseLiteral, arguments: [], isExact: true) }

    func alias(_ prefix: String) -> String {
        defer { nextAlias += 1 }
        return prefix + String(nextAlias)
    }

    func condition(for predicate: KeyValuePredicate, in scope: Scope, variables: [String: Scope]) -> Condition? {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { return nil }
        switch predicate.kind {
        case .constant(let value):
            return Condition(sql: value ? rules.trueLiteral : rules.falseLiteral, arguments: [], isExact: true)
        case .comparison(let comparison):
            return self.comparison(comparison, in: scope, variables: variables)
        case .and(let parts):
            let compiled = parts.map { condition(for: $0, in: scope, variables: variables) }
            let known = compiled.compactMap { $0 }
            guard !known.isEmpty else { return parts.isEmpty ? always : nil }
            return Condition(sql: "(" + known.map(\.sql).joined(separator: " AND ") + ")",
                             arguments: known.flatMap(\.arguments),
                             isExact: known.count == compiled.count && known.allSatisfy(\.isExact))
        case .or(let parts):
            guard !parts.isEmpty else { return never }
            var known: [Condition] = []
            for part in parts {
                guard let compiled = condition(for: part, in: scope, variables: variables) else { return nil }
                known.append(compiled)
            }
            return Condition(sql: "(" + known.map(\.sql).joined(separator: " OR ") + ")",
                             arguments: known.flatMap(\.arguments), isExact: known.allSatisfy(\.isExact))
        case .not(let inner):
            negations += 1
            defer { negations -= 1 }
            guard let compiled = condition(for: inner, in: scope, variables: variables), compiled.isExact else { return nil }
            return Condition(sql: "(NOT " + compiled.sql + ")", arguments: compiled.arguments, isExact: true)
        case .block:
            return nil
        }
    }

    /// The operator with its sides swapped (`5 < x` is `x > 5`).
    static func flipped(_ op: ComparisonOperator) -> ComparisonOperator? {
        switch op {
        case .equalTo, .notEqualTo: return op
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return nil
        }
    }

    /// A comparison: the left side a key path (through to-ones, a to-many's `@count` or
    /// aggregate, or a subquery's count), the right side constants.
    private func comparison(_ comparison: KeyValueComparison, in scope: Scope, variables: [String: Scope]) -> Condition? {
        var op = comparison.comparisonOperator
        var left = comparison.leftExpression
        var right = comparison.rightExpression
        if case .constant = left, Self.isKeyPath(right), let flipped = Self.flipped(op) {
            (left, right, op) = (right, left, flipped)
        }
        if comparison.modifier == .direct, Self.isKeyPath(right) {
            return compareKeyPaths(left, op, right, options: comparison.options, in: scope, variables: variables)
        }
        guard case .constant(let constant) = right.constantFolded else { return nil }
        switch comparison.modifier {
        case .direct:
            guard let operand = self.operand(left, in: scope, variables: variables) else { return nil }
            return compare(operand, op, constant, options: comparison.options)
        case .any, .all:
            guard let (base, path) = Self.path(of: left), let start = base.flatMap({ variables[$0] }) ?? (base == nil ? scope : nil),
                  let (members, rest) = self.members(path, in: start) else { return nil }
            let member: KeyValueExpression = rest.isEmpty ? .evaluatedObject : .keyPath(rest)
            let inner = KeyValueComparison(member, op, right, modifier: .direct, options: comparison.options)
            if comparison.modifier == .all { negations += 1 }
            defer { if comparison.modifier == .all { negations -= 1 } }
            guard let test = self.comparison(inner, in: members.scope, variables: variables) else { return nil }
            // In memory the members' values are collected with nil values left out.
            let present: String
            switch operand(member, in: members.scope, variables: variables) {
            case .toOne?  where rest.isEmpty: present = ""
            case .attribute(let column, _)?: present = " AND \(column.sql) IS NOT NULL"
            case .toOne(let sql, _, _)?: present = " AND \(sql) IS NOT NULL"
            default: return nil
            }
            let from = "SELECT 1 FROM \(members.from) WHERE \(members.join)\(present)"
            if comparison.modifier == .any {
                return Condition(sql: "EXISTS (\(from) AND \(test.sql))", arguments: test.arguments, isExact: test.isExact)
            }
            guard test.isExact else { return nil }
            return Condition(sql: "(NOT EXISTS (\(from) AND NOT \(test.sql)))", arguments: test.arguments, isExact: true)
        }
    }

    /// Two attributes of one kind compared (`count < small`, `name == stand.label`): integers
    /// with integers, Booleans with Booleans, dates with dates, strings with strings (no
    /// options); doubles are left to memory (NaN).
    private func compareKeyPaths(_ left: KeyValueExpression, _ op: ComparisonOperator, _ right: KeyValueExpression,
                                 options: ComparisonOptions, in scope: Scope, variables: [String: Scope]) -> Condition? {
        guard options.isEmpty || options == .normalized,
              case .attribute(let leftColumn, let first)? = operand(left, in: scope, variables: variables),
              case .attribute(let rightColumn, let second)? = operand(right, in: scope, variables: variables) else { return nil }
        let integers: Set<AttributeDescription.AttributeType> = [.integer16, .integer32, .integer64]
        let (x, y) = (first.attributeType, second.attributeType)
        guard (integers.contains(x) && integers.contains(y)) || (x == y && [.boolean, .date, .string].contains(x)) else { return nil }
        let isText = x == .string
        let a = isText ? rules.text(leftColumn.sql) : leftColumn.sql
        let b = (isText ? rules.text(rightColumn.sql) : rightColumn.sql) + (isText ? rules.textCollation : "")
        switch op {
        case .equalTo: return Condition(sql: "(\(rules.isNotDistinct(a, b)))", arguments: [], isExact: true)
        case .notEqualTo: return Condition(sql: "(\(rules.isDistinct(a, b)))", arguments: [], isExact: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            let test = "\(a) \(op.rawValue) \(b)"
            return Condition(sql: negations == 0 ? "(" + test + ")" : rules.ifNull(test, rules.falseLiteral), arguments: [], isExact: true)
        default:
            return nil
        }
    }

    private static func isKeyPath(_ expression: KeyValueExpression) -> Bool {
        switch expression {
        case .keyPath, .keyPathOf, .evaluatedObject, .variable: return true
        default: return false
        }
    }

    /// A key path's variable (nil for the evaluated object) and components.
    static func path(of expression: KeyValueExpression) -> (String?, [String])? {
        switch expression {
        case .keyPath(let path):
            return (nil, path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        case .keyPathOf(.variable(let name), let path):
            return (name, path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        default:
            return nil
        }
    }
}

extension KeyValueExpression {
    /// A constant, or an aggregate of constants as an array constant; other expressions as
    /// they are.
    fileprivate var constantFolded: KeyValueExpression {
        guard case .aggregate(let list) = self else { return self }
        var values: [KeyValueConstant] = []
        for case .constant(let constant) in list { values.append(constant) }
        return values.count == list.count ? .constant(.array(values)) : self
    }
}
