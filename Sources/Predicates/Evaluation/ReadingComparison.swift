// Comparisons whose left side is a key path, on values sorted by kind (no `Any` boxes).
import Foundation
import KeyValueCoding

/// Tests of a ``KeyValueCoding/KeyValueReading`` against a constant or another reading.
///
/// Every fast path gives exactly what the general evaluator (``ComparisonEvaluator``) gives
/// for the same values; readings of other kinds go to it, as `Any?`.
enum ReadingComparison {
    typealias ReadingTest = (KeyValueReading) throws -> Bool

    /// A test of the left reading against a constant right side, prepared once.
    static func specialized(_ op: ComparisonOperator, options: ComparisonOptions,
                            constant: Any?) throws -> ReadingTest {
        let general = try ComparisonCompiler.specialized(op, options: options, constant: constant)
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo:
            if let constant, let number = KeyValueNumber(constant) {
                return numberTest(op, number, general: general)
            }
            if let string = constant as? String {
                return try stringTest(op, string, options: options, general: general)
            }
        case .beginsWith, .endsWith, .like, .matches, .contains:
            if let pattern = constant as? String {
                let matcher = try StringMatcher(op, pattern: pattern, options: options)
                return { reading in
                    switch reading {
                    case .string(let subject): return try matcher.matches(subject)
                    case .null: return false   // nil BEGINSWITH/CONTAINS/... anything is false
                    default: return try general(reading.anyValue)
                    }
                }
            }
        case .in:
            if let numbers = numberElements(of: constant) {
                return { reading in
                    switch reading {
                    case .number(let value):
                        for number in numbers where NumberOrdering.compare(value, number) == .orderedSame { return true }
                        return false
                    case .null: return false   // nil equals no element
                    default: return try general(reading.anyValue)
                    }
                }
            }
            if let strings = StringSetMatcher(constant, options: options) {
                return { reading in
                    if case .string(let value) = reading { return strings.contains(value) }
                    return try general(reading.anyValue)
                }
            }
        case .between:
            break
        }
        return { reading in try general(reading.anyValue) }
    }

    /// `value op number`: numbers by numeric value; nil is equal to nothing and unordered.
    private static func numberTest(_ op: ComparisonOperator, _ number: KeyValueNumber,
                                   general: @escaping ComparisonCompiler.UnaryTest) -> ReadingTest {
        if case .integer(let constant) = number {
            return { reading in
                switch reading {
                case .number(.integer(let value)): return ComparisonEvaluator.holds(op, NumberOrdering.ordered(value, constant))
                case .number(let value): return ComparisonEvaluator.holds(op, NumberOrdering.compare(value, number))
                case .null: return op == .notEqualTo
                default: return try general(reading.anyValue)
                }
            }
        }
        return { reading in
            switch reading {
            case .number(let value): return ComparisonEvaluator.holds(op, NumberOrdering.compare(value, number))
            case .null: return op == .notEqualTo
            default: return try general(reading.anyValue)
            }
        }
    }

    /// `value op string` for `==`, `!=` (through a ``StringMatcher``) and the orderings (on the
    /// folded strings).
    private static func stringTest(_ op: ComparisonOperator, _ string: String, options: ComparisonOptions,
                                   general: @escaping ComparisonCompiler.UnaryTest) throws -> ReadingTest {
        if op == .equalTo || op == .notEqualTo {
            let matcher = try StringMatcher(op, pattern: string, options: options)
            return { reading in
                switch reading {
                case .string(let subject): return try matcher.matches(subject)
                case .null: return op == .notEqualTo
                default: return try general(reading.anyValue)
                }
            }
        }
        let foldingFree = options.isFoldingFree
        let folded = StringFolding.fold(string, options: options)
        return { reading in
            switch reading {
            case .string(let subject):
                let left = foldingFree ? subject : StringFolding.fold(subject, options: options)
                return ComparisonEvaluator.holds(op, NumberOrdering.ordered(left, folded))
            case .null: return false
            default: return try general(reading.anyValue)
            }
        }
    }

    /// The elements of a constant collection when every one is a number (Booleans included).
    private static func numberElements(of constant: Any?) -> [KeyValueNumber]? {
        guard let elements = ValueCollections.elements(of: constant), !elements.isEmpty else { return nil }
        var numbers: [KeyValueNumber] = []
        numbers.reserveCapacity(elements.count)
        for element in elements {
            guard let element, let number = KeyValueNumber(element) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// `lhs op rhs` for two readings: numbers and plain strings directly, the rest as `Any?`.
    static func test(_ op: ComparisonOperator, options: ComparisonOptions,
                     _ lhs: KeyValueReading, _ rhs: KeyValueReading) throws -> Bool {
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo:
            switch (lhs, rhs) {
            case let (.number(a), .number(b)):
                return ComparisonEvaluator.holds(op, NumberOrdering.compare(a, b))
            case let (.string(a), .string(b)) where options.isFoldingFree:
                return ComparisonEvaluator.holds(op, NumberOrdering.ordered(a, b))
            default:
                break
            }
        default:
            break
        }
        return try ComparisonEvaluator.test(op, options: options, lhs.anyValue, rhs.anyValue)
    }
}

/// `value IN {"x", "y", …}` against constant strings: a short list compared directly, or a
/// hash set of the folded strings.
struct StringSetMatcher {
    private let list: [String]
    private let set: Set<String>
    private let options: ComparisonOptions
    private let foldingFree: Bool

    /// Nil unless `constant` is a non-empty collection of strings only.
    init?(_ constant: Any?, options: ComparisonOptions) {
        guard let elements = ValueCollections.elements(of: constant), !elements.isEmpty else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let string = element as? String else { return nil }
            strings.append(StringFolding.fold(string, options: options))
        }
        self.options = options
        foldingFree = options.isFoldingFree
        list = strings.count <= 8 ? strings : []
        set = strings.count <= 8 ? [] : Set(strings)
    }

    /// Whether `value` (folded with the options) is one of the strings.
    func contains(_ value: String) -> Bool {
        let folded = foldingFree ? value : StringFolding.fold(value, options: options)
        if set.isEmpty {
            for string in list where string == folded { return true }
            return false
        }
        return set.contains(folded)
    }
}
