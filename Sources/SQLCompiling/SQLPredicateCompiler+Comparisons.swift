// One operand compared with constants, in SQL that decides as the evaluator does.
import Foundation
import ManagedObjects
import Predicates

extension SQLPredicateCompiler {
    /// `operand op constant`, or `nil` when SQL cannot decide it exactly.
    func compare(_ operand: Operand, _ op: ComparisonOperator, _ constant: KeyValueConstant,
                 options: ComparisonOptions) -> Condition? {
        switch operand {
        case .toOne(let key, let entityColumn, let destination):
            guard options.isEmpty || options == .normalized else { return nil }
            return toOne(key, entityColumn, destination, op, constant)
        case .number(let sql, let arguments, let type):
            guard let test = value(sql, type, op, constant, options: options) else { return nil }
            return Condition(sql: test.sql, arguments: arguments + test.arguments, isExact: test.isExact)
        case .attribute(let column, let attribute):
            let type = attribute.attributeType
            let sql = column.sql
            let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
            if type == .string, folds || Self.stringOperators.contains(op) {
                guard let test = rules.stringTest(column, op, constant, options: options, negated: negations > 0,
                                                  mayAssume: mayAssume) else { return nil }
                assume(test.assumption)
                return test.condition
            }
            guard let test = value(sql, type, op, constant, options: options) else { return nil }
            guard type == .double || type == .float else { return test }
            // NaN rows (text in SQLite; ordered above numbers and equal to itself in
            // PostgreSQL) get the evaluator's answer for NaN.
            guard let nan = Self.answerForNaN(op, constant) else { return nil }
            let isNaN = rules.isNaN(sql)
            let answer = nan ? rules.trueLiteral : rules.falseLiteral
            return Condition(sql: "(CASE WHEN \(isNaN.sql) THEN \(answer) ELSE \(test.sql) END)",
                             arguments: isNaN.arguments + test.arguments, isExact: test.isExact)
        }
    }

    static let stringOperators: Set<ComparisonOperator> = [.beginsWith, .endsWith, .contains, .like, .matches]

    /// The constants of the right side: a list for `IN` and `BETWEEN`, one value otherwise.
    package static func constants(_ op: ComparisonOperator, _ constant: KeyValueConstant) -> [KeyValueConstant]? {
        switch (op, constant) {
        case (.in, .array(let list)), (.between, .array(let list)): return list
        case (.in, .set(let set)): return Array(set)
        case (.in, _), (.between, _), (_, .array), (_, .set), (_, .dictionary): return nil
        default: return [constant]
        }
    }

    /// What the evaluator answers for a NaN on the left.
    private static func answerForNaN(_ op: ComparisonOperator, _ constant: KeyValueConstant) -> Bool? {
        let right: Any?
        switch constant {
        case .array(let list): right = list.map(\.anyValue)
        case .set(let set): right = set.map(\.anyValue)
        default: right = constant.anyValue
        }
        return try? ComparisonEvaluator.test(op, options: [], Double.nan, right)
    }

    /// A column (or number) compared with constants of its kind, without string options.
    private func value(_ sql: String, _ type: AttributeDescription.AttributeType, _ op: ComparisonOperator,
                       _ constant: KeyValueConstant, options: ComparisonOptions) -> Condition? {
        guard options.isEmpty || options == .normalized, let listed = Self.constants(op, constant) else { return nil }
        var constants = listed
        if constants.count == 1, constants[0] == .null, op != .in {
            switch op {
            case .equalTo: return Condition(sql: "(\(sql) IS NULL)", arguments: [], isExact: true)
            case .notEqualTo: return Condition(sql: "(\(sql) IS NOT NULL)", arguments: [], isExact: true)
            default: return nil
            }
        }
        var op = op
        if Self.integerTypes.contains(type), let fraction = constants.first(where: Self.isFraction),
           rules.comparable(fraction, for: type) == nil {
            // The dialect compares integers with integers only: `x > 1.5` is `x > 1`.
            switch Self.integral(op, constants) {
            case .decided(let answer)?: return answer ? always : never
            case .rewritten(let newOperator, let newConstants)?: (op, constants) = (newOperator, newConstants)
            case nil: return nil
            }
        }
        var values: [SQLValue] = []
        for constant in constants {
            guard let value = rules.comparable(constant, for: type) else { return nil }
            values.append(value)
        }
        let isText = type == .string
        let operand = isText ? rules.text(sql) : sql
        let collate = isText ? rules.textCollation : ""
        let wrap = { (test: String) in self.negations == 0 ? "(" + test + ")" : self.rules.ifNull(test, self.rules.falseLiteral) }
        switch op {
        case .equalTo:
            return Condition(sql: wrap("\(operand) = ?\(collate)"), arguments: values, isExact: true)
        case .notEqualTo:
            return Condition(sql: "(\(rules.isDistinct(operand, "?" + collate)))", arguments: values, isExact: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard type != .uuid else { return nil }
            return Condition(sql: wrap("\(operand) \(op.rawValue) ?\(collate)"), arguments: values, isExact: true)
        case .in:
            guard !values.isEmpty else { return never }
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return Condition(sql: wrap("\(operand)\(collate) IN (\(marks))"), arguments: values, isExact: true)
        case .between:
            guard values.count == 2, type != .uuid else { return nil }
            return Condition(sql: wrap("\(operand) BETWEEN ?\(collate) AND ?\(collate)"), arguments: values, isExact: true)
        default:
            return nil
        }
    }

    static let integerTypes: Set<AttributeDescription.AttributeType> = [.integer16, .integer32, .integer64]

    /// Whether a constant is a finite double with a fractional part.
    static func isFraction(_ constant: KeyValueConstant) -> Bool {
        if case .double(let v) = constant { return v.isFinite && v.rounded() != v }
        return false
    }

    /// An integer comparison with a fraction, as a comparison with integers or its answer.
    enum IntegralComparison {
        case decided(Bool)
        case rewritten(ComparisonOperator, [KeyValueConstant])
    }

    /// `x op constants` for integer `x` with the fractions replaced by the integers that
    /// decide the same (`x < 1.5` is `x < 2`, `x == 1.5` is false, `x != 1.5` true, nil
    /// included, as in memory), or `nil` when a value is beyond 64-bit integers.
    static func integral(_ op: ComparisonOperator, _ constants: [KeyValueConstant]) -> IntegralComparison? {
        func integer(_ constant: KeyValueConstant, up: Bool) -> KeyValueConstant? {
            guard case .double(let v) = constant else { return constant }
            let rounded = up ? v.rounded(.up) : v.rounded(.down)
            return Int64(exactly: rounded).map(KeyValueConstant.integer)
        }
        switch op {
        case .lessThan, .lessThanOrEqualTo:
            guard constants.count == 1, let bound = integer(constants[0], up: true) else { return nil }
            return .rewritten(.lessThan, [bound])
        case .greaterThan, .greaterThanOrEqualTo:
            guard constants.count == 1, let bound = integer(constants[0], up: false) else { return nil }
            return .rewritten(.greaterThan, [bound])
        case .equalTo:
            return .decided(false)
        case .notEqualTo:
            return .decided(true)
        case .between:
            guard constants.count == 2, let low = integer(constants[0], up: true),
                  let high = integer(constants[1], up: false) else { return nil }
            return .rewritten(.between, [low, high])
        case .in:
            return .rewritten(.in, constants.filter { !isFraction($0) })
        default:
            return nil
        }
    }

    /// A to-one relationship compared with an object ID of this store (the context replaces
    /// managed objects in predicates by their IDs) or with nil: `==`, `!=`, `IN`.
    private func toOne(_ column: String, _ entityColumn: String?, _ destination: String, _ op: ComparisonOperator,
                       _ constant: KeyValueConstant) -> Condition? {
        var constants: [KeyValueConstant]
        switch (op, constant) {
        case (.equalTo, _), (.notEqualTo, _):
            constants = [constant]
        case (.in, .array(let list)):
            constants = list
        case (.in, .set(let set)):
            constants = Array(set)
        default:
            return nil
        }
        if op != .in, constants == [.null] {
            return Condition(sql: "(\(column) IS \(op == .equalTo ? "" : "NOT ")NULL)", arguments: [], isExact: true)
        }
        // Each ID as (key, concrete entity number); IDs that cannot be related match nothing.
        var targets: [(key: Int64, number: Int64)] = []
        let allowed = Set(entities[destination]?.concreteNumbers ?? [])
        for constant in constants {
            guard case .value(let opaque) = constant, let id = opaque.base as? ManagedObjectID,
                  id.storeIdentifier == storeIdentifier, case .integer(let primaryKey) = id.referenceObject,
                  let target = entities[id.entityName] else { return nil }
            if allowed.contains(target.number) { targets.append((primaryKey, target.number)) }
        }
        let parts = targets.map { _ in entityColumn.map { "(\(column) = ? AND \($0) = ?)" } ?? "\(column) = ?" }
        let arguments = targets.flatMap { target -> [SQLValue] in
            entityColumn == nil ? [.integer(target.key)] : [.integer(target.key), .integer(target.number)]
        }
        let matches = parts.isEmpty ? rules.falseLiteral : rules.ifNull(parts.joined(separator: " OR "), rules.falseLiteral)
        let sql = op == .notEqualTo ? "(NOT \(matches))" : matches
        return Condition(sql: sql, arguments: arguments, isExact: true)
    }
}
