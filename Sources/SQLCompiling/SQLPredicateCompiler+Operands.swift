// Key paths to SQL operands: attributes through to-ones, to-many members, counts, aggregates.
import Foundation
import ManagedObjects
import Predicates

extension SQLPredicateCompiler {
    /// An identifier as the dialect writes it.
    func q(_ identifier: String) -> String { dialect.quoted(identifier) }

    /// What a key path reads, as SQL.
    enum Operand {
        /// An attribute's column (through to-ones: a key look-up, NULL without a row).
        case attribute(SQLColumnReference, attribute: AttributeDescription)
        /// A to-one relationship: the key column, and the entity column for polymorphic ones.
        case toOne(key: String, entityColumn: String?, destination: String)
        /// An integer or real number (`@count`, `@sum`, `@avg`), or a value of the attribute's
        /// type (`@min`, `@max`), that is NULL only when the evaluator's value is nil.
        case number(sql: String, arguments: [SQLValue], type: AttributeDescription.AttributeType)
    }

    /// The rows of a to-many relationship of a row: the FROM clause, the condition joining them
    /// to the row, and the member's scope.
    struct Members {
        var from: String
        var join: String
        var scope: Scope
    }

    /// The members of `relationship` (kept as `storage`) of the row in `scope`.
    func members(_ storage: SQLRelationshipStorage, of scope: Scope) -> Members? {
        switch storage {
        case .foreignKey:
            return nil
        case .inverseForeignKey(let table, let column, _, let destination):
            guard let entity = entities[destination] else { return nil }
            let member = alias("m")
            return Members(from: "\(q(table)) \(member)", join: "\(member).\(q(column)) = \(scope.key)",
                           scope: Scope(entity: entity, alias: member, key: member + "." + q("Z_PK")))
        case .joinTable(let table, let own, let other, _, let destination):
            guard let entity = entities[destination] else { return nil }
            let (pair, member) = (alias("j"), alias("m"))
            return Members(from: "\(q(table)) \(pair) JOIN \(q(entity.tableName)) \(member) ON \(member).\(q("Z_PK")) = \(pair).\(q(other))",
                           join: "\(pair).\(q(own)) = \(scope.key)",
                           scope: Scope(entity: entity, alias: member, key: member + "." + q("Z_PK")))
        }
    }

    /// The members of the to-many `path` starts with, and the rest of the path (empty for the
    /// members themselves). `nil` when the path does not start with a to-many (a to-one before
    /// it is left to memory, where a nil to-one gives no members).
    func members(_ path: [String], in scope: Scope) -> (Members, String)? {
        guard let name = path.first, !path.dropFirst().contains(where: { $0.hasPrefix("@") }),
              let storage = scope.entity.relationships.first(where: { $0.relationship.name == name })?.storage,
              let members = members(storage, of: scope) else { return nil }
        return (members, path.dropFirst().joined(separator: "."))
    }

    /// The operand a left-hand expression reads, or `nil` when SQL cannot read it.
    func operand(_ expression: KeyValueExpression, in scope: Scope, variables: [String: Scope]) -> Operand? {
        if case .keyPathOf(.subquery(let collection, let variable, let predicate), "@count") = expression {
            return subqueryCount(collection, variable, predicate, in: scope, variables: variables)
        }
        // SELF (or a SUBQUERY variable alone): the row itself, compared by key and entity.
        let itself: Scope?
        switch expression {
        case .evaluatedObject: itself = scope
        case .variable(let name): itself = variables[name]
        default: itself = nil
        }
        if let itself, let alias = itself.alias {
            return .toOne(key: itself.key, entityColumn: alias + "." + q("Z_ENT"), destination: itself.entity.name)
        }
        guard let (base, path) = Self.path(of: expression) else { return nil }
        guard var current = base.flatMap({ variables[$0] }) ?? (base == nil ? scope : nil) else { return nil }
        var index = 0
        while index < path.count {
            let name = path[index]
            let isLast = index == path.count - 1
            if let column = current.entity.attributes.first(where: { $0.attribute.name == name }) {
                guard isLast else { return nil }
                let reference = SQLColumnReference(sql: current.column(column.column, dialect),
                                                   table: q(current.entity.tableName), column: q(column.column))
                return .attribute(reference, attribute: column.attribute)
            }
            guard let storage = current.entity.relationships.first(where: { $0.relationship.name == name })?.storage else { return nil }
            switch storage {
            case .foreignKey(let column, let entityColumn, let destination):
                if isLast {
                    return .toOne(key: current.column(column, dialect), entityColumn: entityColumn.map { current.column($0, dialect) },
                                  destination: destination)
                }
                guard let entity = entities[destination] else { return nil }
                current = Scope(entity: entity, alias: nil, key: current.column(column, dialect))
            case .inverseForeignKey, .joinTable:
                return aggregate(storage, path[(index + 1)...], of: current)
            }
            index += 1
        }
        return nil
    }

    /// `@count`, or `@sum`/`@avg`/`@min`/`@max` of an attribute, of a to-many's members.
    private func aggregate(_ storage: SQLRelationshipStorage, _ rest: ArraySlice<String>, of scope: Scope) -> Operand? {
        guard let operation = rest.first, let members = members(storage, of: scope) else { return nil }
        let from = "FROM \(members.from) WHERE \(members.join)"
        if operation == "@count" {
            return rest.count == 1 ? .number(sql: "(SELECT COUNT(*) \(from))", arguments: [], type: .integer64) : nil
        }
        guard rest.count == 2, let name = rest.last,
              let column = members.scope.entity.attributes.first(where: { $0.attribute.name == name }) else { return nil }
        let value = members.scope.column(column.column, dialect)
        let type = column.attribute.attributeType
        let isInteger = [.integer16, .integer32, .integer64].contains(type)
        switch operation {
        case "@sum" where isInteger:
            return .number(sql: "(SELECT \(rules.ifNull("SUM(\(value))", "0")) \(from))", arguments: [], type: .integer64)
        case "@avg" where isInteger:
            return .number(sql: "(SELECT \(rules.ifNull(rules.average(of: value), "0.0")) \(from))", arguments: [], type: .double)
        case "@min" where isInteger || type == .date, "@max" where isInteger || type == .date:
            return .number(sql: "(SELECT \(operation == "@min" ? "MIN" : "MAX")(\(value)) \(from))", arguments: [], type: type)
        default:
            return nil
        }
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    private func subqueryCount(_ collection: KeyValueExpression, _ variable: String, _ predicate: KeyValuePredicate,
                               in scope: Scope, variables: [String: Scope]) -> Operand? {
        guard let (base, path) = Self.path(of: collection),
              let start = base.flatMap({ variables[$0] }) ?? (base == nil ? scope : nil) else { return nil }
        // Follow to-ones to the last component, which must be a to-many.
        var current = start
        for (index, name) in path.enumerated() {
            guard let storage = current.entity.relationships.first(where: { $0.relationship.name == name })?.storage else { return nil }
            if case .foreignKey(let column, _, let destination) = storage {
                guard index < path.count - 1, let entity = entities[destination] else { return nil }
                current = Scope(entity: entity, alias: nil, key: current.column(column, dialect))
                continue
            }
            guard index == path.count - 1, let members = members(storage, of: current) else { return nil }
            var inner = variables
            inner[variable] = members.scope
            // Key paths without the variable read the evaluated object, as in memory.
            guard let test = condition(for: predicate, in: scope, variables: inner), test.isExact else {
                return nil
            }
            return .number(sql: "(SELECT COUNT(*) FROM \(members.from) WHERE \(members.join) AND \(test.sql))",
                           arguments: test.arguments, type: .integer64)
        }
        return nil
    }
}
