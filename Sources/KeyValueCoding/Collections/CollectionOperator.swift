import Foundation

/// The collection operators of key paths (Apple: "Using Collection Operators" in the
/// Key-Value Coding Programming Guide).
///
/// Rules, as Apple documents them:
/// - `@count` gives the number of elements; a key path to its right is ignored.
/// - Every other operator needs a key path to its right, read on each element.
/// - `@sum` and `@avg` treat `nil` values as 0; `@min` and `@max` ignore `nil` values and give
///   `nil` for an empty collection (or one of only `nil`s).
/// - `@unionOfObjects` and `@distinctUnionOfObjects` give an array (a set when the collection
///   is a set, for the distinct one), `nil` values left out.
/// - `@unionOfArrays`, `@distinctUnionOfArrays` work on a collection of arrays (or sets) and
///   give an array; `@distinctUnionOfSets` works on a collection of sets and gives a set.
enum CollectionOperator: String {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"
    case unionOfObjects = "@unionOfObjects"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfArrays = "@unionOfArrays"
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
    case distinctUnionOfSets = "@distinctUnionOfSets"

    /// Applies the operator named `name` to `operand`, with `right` (the key path to its right).
    static func apply(_ name: Substring, right: Substring?, to operand: Any?, fullPath: String) throws -> Any? {
        if let right, right.isEmpty {
            throw KeyValueCodingError.malformedKeyPath(fullPath, reason: "the key path ends with '.'")
        }
        let operand = flattenOptional(operand)
        let kind = operand.map { ValueKind.of(type(of: $0)) }
        if let operand, let dictionary = kind?.dictionary?(operand) {
            // A dictionary is no collection: `@key` reads a property of the dictionary itself
            // (Apple: `-[NSDictionary valueForKey:]`), and the path goes on from its value.
            let value = try dictionary.keyValueValue(forKey: String(name))
            guard let right else { return value }
            return try KeyValue.evaluate(right, fullPath: fullPath, from: value)
        }
        guard let op = CollectionOperator(rawValue: String(name)) else {
            throw KeyValueCodingError.unknownOperator(String(name), keyPath: fullPath)
        }
        if op != .count, right == nil {
            throw KeyValueCodingError.missingRightKeyPath(operator: op.rawValue, keyPath: fullPath)
        }
        guard let operand, let kind else { return nil }
        if kind.category == .null { return operand }  // NSNull answers itself for every key path
        guard let collection = kind.collection?(operand) else {
            throw KeyValueCodingError.invalidOperand(
                operator: op.rawValue, reason: "\(typeName(type(of: operand))) is not an array or a set")
        }
        if op == .count { return collection.keyValueCount }
        let rightPath = right ?? ""
        switch op {
        case .count: return collection.keyValueCount
        case .sum: return try sum(collection, rightPath, fullPath)
        case .avg: return try average(collection, rightPath, fullPath)
        case .min: return try extreme(collection, rightPath, fullPath, wantMaximum: false)
        case .max: return try extreme(collection, rightPath, fullPath, wantMaximum: true)
        case .unionOfObjects:
            return try values(collection, rightPath, fullPath)
        case .distinctUnionOfObjects:
            return distinct(try values(collection, rightPath, fullPath),
                            asSet: collection.keyValueIsUnordered)
        case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
            return try nestedUnion(op, collection, rightPath, fullPath)
        }
    }

    /// Reads `right` on every element; `nil` values are left out.
    private static func values(_ collection: any KeyValueCollection, _ right: Substring,
                               _ fullPath: String) throws -> [Any] {
        var result: [Any] = []
        result.reserveCapacity(collection.keyValueCount)
        for element in collection.keyValueElements {
            if let value = try KeyValue.evaluate(right, fullPath: fullPath, from: element),
               !isNSNull(value) {
                result.append(value)
            }
        }
        return result
    }

    /// Removes duplicates, keeping the first of each (a set when `asSet`).
    private static func distinct(_ values: [Any], asSet: Bool) -> Any {
        var seen = Set<AnyHashable>()
        var result: [Any] = []
        for value in values {
            let member = hashableForSet(value)
            if seen.insert(member).inserted { result.append(value) }
        }
        return asSet ? seen as Any : result as Any
    }

    private static func nestedUnion(_ op: CollectionOperator, _ collection: any KeyValueCollection,
                                    _ right: Substring, _ fullPath: String) throws -> Any {
        var all: [Any] = []
        for element in collection.keyValueElements {
            guard let element, !isNSNull(element) else { continue }
            guard let inner = ValueKind.of(type(of: element)).collection?(element) else {
                throw KeyValueCodingError.invalidOperand(
                    operator: op.rawValue,
                    reason: "an element of type \(typeName(type(of: element))) is not an array or a set")
            }
            all.append(contentsOf: try values(inner, right, fullPath))
        }
        switch op {
        case .unionOfArrays: return all
        case .distinctUnionOfArrays: return distinct(all, asSet: false)
        default: return distinct(all, asSet: true)
        }
    }
}
