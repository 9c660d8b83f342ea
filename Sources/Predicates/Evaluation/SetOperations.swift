// UNION, INTERSECT and MINUS between collections, with NSSet semantics.
import Foundation
import KeyValueCoding

enum SetOperations {
    /// `left operation right` as a set: each element once (elements equal as predicate values,
    /// `1` and `1.0` among them, count once), in no particular order. Either side may be an
    /// array, a set, or a dictionary (its values); `nil` is an empty collection.
    ///
    /// - Returns: A `Set<AnyHashable>` (an element that is not `Hashable`, such as an array,
    ///   is held as a ``KeyValueConstant``; `nil` as ``KeyValueConstant/null``).
    /// - Throws: ``PredicateEvaluationError/notACollection(operation:valueType:)`` for a side
    ///   that is not a collection.
    static func apply(_ operation: KeyValueExpression.SetOperation, _ left: Any?, _ right: Any?) throws -> Set<AnyHashable> {
        let a = try elements(of: left, operation)
        let b = try elements(of: right, operation)
        var result: [Any?] = []
        switch operation {
        case .union:
            for element in a + b where try !contains(result, element) { result.append(element) }
        case .intersect:
            for element in a where try contains(b, element) && !contains(result, element) { result.append(element) }
        case .minus:
            for element in a where try !contains(b, element) && !contains(result, element) { result.append(element) }
        }
        return Set(result.map(hashable))
    }

    private static func elements(of value: Any?, _ operation: KeyValueExpression.SetOperation) throws -> [Any?] {
        guard let value = ValueEquality.normalize(value) else { return [] }
        return try ValueCollections.requireElements(of: value, for: operation.rawValue)
    }

    private static func contains(_ list: [Any?], _ element: Any?) throws -> Bool {
        for candidate in list where try ValueEquality.equal(candidate, element, options: []) { return true }
        return false
    }

    private static func hashable(_ element: Any?) -> AnyHashable {
        // `NSDecimalNumber.hash` recurses without end in swift-corelibs-foundation.
        if let element, let decimal = decimalOfDecimalNumber(element) { return AnyHashable(decimal) }
        if let element, let hashable = element as? AnyHashable { return hashable }
        return AnyHashable(KeyValueConstant(element))
    }
}
