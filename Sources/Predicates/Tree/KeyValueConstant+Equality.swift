// Equality and hashing of constants, by the predicate rules.
import Foundation
import KeyValueCoding

extension KeyValueConstant: Hashable {
    /// Whether two constants are equal as predicate values.
    ///
    /// Numbers compare numerically across cases (`1 == 1.0 == YES`, NaN equals NaN), dates by
    /// their time interval, strings exactly (canonical equivalence), arrays element by element,
    /// sets (and an array against a set) regardless of order, dictionaries key by key, object
    /// references by identity, opaque values as `AnyHashable`. A value with a raw value equals
    /// any constant equal to its raw value. Collections nested deeper than 200 levels compare
    /// as unequal.
    public static func == (lhs: KeyValueConstant, rhs: KeyValueConstant) -> Bool {
        equal(lhs, rhs, depth: 0)
    }

    private static func equal(_ lhs: KeyValueConstant, _ rhs: KeyValueConstant, depth: Int) -> Bool {
        guard depth <= ValueEquality.maximumNesting else { return false }
        let (lhs, rhs) = (lhs.comparable, rhs.comparable)
        if let a = lhs.number {
            guard let b = rhs.number else { return false }
            return NumberOrdering.compare(a, b) == .orderedSame
        }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.string(a), .string(b)): return a == b
        case let (.date(a), .date(b)): return NumberOrdering.ordered(a, b) == .orderedSame
        case let (.data(a), .data(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, depth: depth + 1) }
        case let (.set(a), .set(b)):
            return unorderedEqual(Array(a), Array(b), depth: depth + 1)
        case let (.array(a), .set(b)), let (.set(b), .array(a)):
            return unorderedEqual(a, Array(b), depth: depth + 1)
        case let (.dictionary(a), .dictionary(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], equal(value, other, depth: depth + 1) else { return false }
            }
            return true
        case let (.object(a), .object(b)): return a == b
        case let (.value(a), .value(b)): return a == b
        default: return false
        }
    }

    /// Whether every element of `a` matches a distinct element of `b`.
    private static func unorderedEqual(_ a: [KeyValueConstant], _ b: [KeyValueConstant], depth: Int) -> Bool {
        guard a.count == b.count else { return false }
        var unmatched = b
        for element in a {
            guard let index = unmatched.firstIndex(where: { equal(element, $0, depth: depth) }) else { return false }
            unmatched.remove(at: index)
        }
        return true
    }

    /// Hashes the constant so that equal constants hash alike: numbers by their floor (see
    /// `NumberOrdering.hashKey`, exact across integer, floating-point and decimal values),
    /// collections by their size only (an array may equal a set).
    public func hash(into hasher: inout Hasher) {
        let value = comparable
        if let number = value.number {
            hasher.combine(0)
            hasher.combine(NumberOrdering.hashKey(number))
            return
        }
        switch value {
        case .null: hasher.combine(1)
        case .string(let v): hasher.combine(2); hasher.combine(v)
        case .date(let v):
            hasher.combine(3)
            let seconds = v.timeIntervalSinceReferenceDate
            if seconds.isNaN { hasher.combine(1) } else { hasher.combine(seconds == 0 ? 0 : seconds) }
        case .data(let v): hasher.combine(4); hasher.combine(v)
        case .uuid(let v): hasher.combine(5); hasher.combine(v)
        case .array(let v): hasher.combine(6); hasher.combine(v.count)
        case .set(let v): hasher.combine(6); hasher.combine(v.count)
        case .dictionary(let v): hasher.combine(7); hasher.combine(v.count)
        case .object(let v): hasher.combine(8); hasher.combine(v)
        case .value(let v): hasher.combine(9); hasher.combine(v)
        case .bool, .integer, .unsignedInteger, .double, .decimal: break   // handled above
        }
    }

    /// The constant as equality sees it: an opaque value with a raw value becomes that raw value.
    private var comparable: KeyValueConstant {
        if case .value(let opaque) = self, let raw = opaque.rawValue {
            let constant = KeyValueConstant(any: raw)
            if case .value = constant { return self }   // a raw value without a case of its own
            return constant
        }
        return self
    }
}
