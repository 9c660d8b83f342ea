// One operand compared with constants, in SQL that decides as the evaluator does.
import Foundation
import ManagedObjects
import Predicates

extension SQLitePredicateCompiler {
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
        case .attribute(let sql, let attribute):
            let type = attribute.attributeType
            let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
            if type == .string, folds || Self.stringOperators.contains(op) {
                return stringTest(sql, op, constant, options: options)
            }
            guard let test = value(sql, type, op, constant, options: options) else { return nil }
            guard type == .double || type == .float else { return test }
            // NaN is stored as the text "NaN": every NaN row gets the evaluator's answer for NaN.
            guard let nan = Self.answerForNaN(op, constant) else { return nil }
            return Condition(sql: "(CASE WHEN typeof(\(sql)) = 'text' THEN \(nan ? 1 : 0) ELSE \(test.sql) END)",
                             arguments: test.arguments, isExact: test.isExact)
        }
    }

    static let stringOperators: Set<ComparisonOperator> = [.beginsWith, .endsWith, .contains, .like, .matches]

    /// The constants of the right side: a list for `IN` and `BETWEEN`, one value otherwise.
    private static func constants(_ op: ComparisonOperator, _ constant: KeyValueConstant) -> [KeyValueConstant]? {
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
        guard options.isEmpty || options == .normalized, let constants = Self.constants(op, constant) else { return nil }
        if constants.count == 1, constants[0] == .null, op != .in {
            switch op {
            case .equalTo: return Condition(sql: "(\(sql) IS NULL)", arguments: [], isExact: true)
            case .notEqualTo: return Condition(sql: "(\(sql) IS NOT NULL)", arguments: [], isExact: true)
            default: return nil
            }
        }
        var values: [SQLiteValue] = []
        for constant in constants {
            guard let value = Self.comparable(constant, for: type) else { return nil }
            values.append(value)
        }
        let collate = type == .string ? " COLLATE OG_SWIFT" : ""
        let wrap = { (test: String) in self.negations == 0 ? "(" + test + ")" : "IFNULL(" + test + ", 0)" }
        switch op {
        case .equalTo:
            return Condition(sql: wrap("\(sql) = ?\(collate)"), arguments: values, isExact: true)
        case .notEqualTo:
            return Condition(sql: "(\(sql) IS NOT ?\(collate))", arguments: values, isExact: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard type != .uuid else { return nil }
            return Condition(sql: wrap("\(sql) \(op.rawValue) ?\(collate)"), arguments: values, isExact: true)
        case .in:
            guard !values.isEmpty else { return .never }
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return Condition(sql: wrap("\(sql)\(collate) IN (\(marks))"), arguments: values, isExact: true)
        case .between:
            guard values.count == 2, type != .uuid else { return nil }
            return Condition(sql: wrap("\(sql) BETWEEN ?\(collate) AND ?\(collate)"), arguments: values, isExact: true)
        default:
            return nil
        }
    }

    /// A string column compared with string options or by a string operator, through
    /// `og_compare` (the evaluator's own comparison).
    private func stringTest(_ sql: String, _ op: ComparisonOperator, _ constant: KeyValueConstant,
                            options: ComparisonOptions) -> Condition? {
        let call = { (op: ComparisonOperator) -> String? in
            guard let code = SQLiteConnection.comparedOperators.firstIndex(of: op) else { return nil }
            return "og_compare(\(code), \(options.rawValue), \(sql), ?)"
        }
        if op == .in {
            guard let list = Self.constants(op, constant), let equal = call(.equalTo) else { return nil }
            var values: [SQLiteValue] = []
            for case .string(let string) in list { values.append(.text(string)) }
            guard values.count == list.count else { return nil }
            guard !values.isEmpty else { return .never }
            return Condition(sql: "(" + Array(repeating: equal, count: values.count).joined(separator: " OR ") + ")",
                             arguments: values, isExact: true)
        }
        guard let test = call(op) else { return nil }
        let pattern: SQLiteValue
        switch constant {
        case .string(let string): pattern = .text(string)
        case .null: pattern = .null
        default: return nil
        }
        // MATCHES can give up (catastrophic patterns): such rows are kept and decided in memory.
        let exact = op != .matches
        if op == .beginsWith, options.isEmpty || options == .normalized, case .string(let prefix) = constant,
           let upper = Self.asciiUpperBound(prefix) {
            // Text beginning with an ASCII prefix has its bytes first: an index range narrows.
            return Condition(sql: "(\(sql) >= ? AND \(sql) < ? AND \(test))",
                             arguments: [.text(prefix), .text(upper), pattern], isExact: exact)
        }
        return Condition(sql: test, arguments: [pattern], isExact: exact)
    }

    /// The smallest ASCII string greater than every string beginning with `prefix`, when
    /// `prefix` is ASCII, not empty, and its last byte can be increased.
    private static func asciiUpperBound(_ prefix: String) -> String? {
        var bytes = Array(prefix.utf8)
        guard let last = bytes.last, bytes.allSatisfy({ $0 < 0x7F }), bytes.first != 0x0A, last != 0x0D else { return nil }
        bytes[bytes.count - 1] = last + 1
        return String(decoding: bytes, as: UTF8.self)
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
        let allowed = Set(schema.entities[destination]?.concreteNumbers ?? [])
        for constant in constants {
            guard case .value(let opaque) = constant, let id = opaque.base as? ManagedObjectID,
                  id.storeIdentifier == storeIdentifier, case .integer(let primaryKey) = id.referenceObject,
                  let target = schema.entities[id.entityName] else { return nil }
            if allowed.contains(target.number) { targets.append((primaryKey, target.number)) }
        }
        let parts = targets.map { _ in entityColumn.map { "(\(column) = ? AND \($0) = ?)" } ?? "\(column) = ?" }
        let arguments = targets.flatMap { target -> [SQLiteValue] in
            entityColumn == nil ? [.integer(target.key)] : [.integer(target.key), .integer(target.number)]
        }
        let matches = parts.isEmpty ? "0" : "IFNULL(" + parts.joined(separator: " OR ") + ", 0)"
        let sql = op == .notEqualTo ? "(NOT \(matches))" : matches
        return Condition(sql: sql, arguments: arguments, isExact: true)
    }

    /// A constant as the column stores values of the attribute's kind, when the two compare
    /// in SQL as the evaluator compares them; `nil` otherwise.
    static func comparable(_ constant: KeyValueConstant, for type: AttributeDescription.AttributeType) -> SQLiteValue? {
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
            return date.timeIntervalSinceReferenceDate.isNaN ? nil : .real(date.timeIntervalSinceReferenceDate)
        case (.string, .string(let string)):
            return .text(string)
        case (.uuid, .uuid(let uuid)):
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        default:
            return nil
        }
    }
}
