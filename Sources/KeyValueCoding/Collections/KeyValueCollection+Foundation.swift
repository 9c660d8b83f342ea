import Foundation

// Foundation's collections (`NSArray`, `NSOrderedSet` — Core Data's ordered to-many type —
// and `NSSet`, with their mutable subclasses) are read by key-value coding like Swift's: keys
// map over their elements and the collection operators apply.

extension NSArray: KeyValueCollection {
    var keyValueElements: [Any?] { map { flattenOptional($0) } }
    var keyValueIsUnordered: Bool { false }
    var keyValueCount: Int { count }
    func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        try map { try KeyValue.value(forKey: key, of: $0, depth: depth) ?? NSNull() } as [Any]
    }
}

extension NSOrderedSet: KeyValueCollection {
    var keyValueElements: [Any?] { array.map { flattenOptional($0) } }
    var keyValueIsUnordered: Bool { false }
    var keyValueCount: Int { count }
    func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        try array.map { try KeyValue.value(forKey: key, of: $0, depth: depth) ?? NSNull() } as [Any]
    }
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }
}

extension NSSet: KeyValueCollection {
    var keyValueElements: [Any?] { allObjects.map { flattenOptional($0) } }
    var keyValueIsUnordered: Bool { true }
    var keyValueCount: Int { count }
    func keyValueMap(forKey key: String, depth: Int) throws -> Any {
        var result = Set<AnyHashable>()
        for element in allObjects {
            if let value = try KeyValue.value(forKey: key, of: element, depth: depth) {
                result.insert(hashableForSet(value))
            }
        }
        return result
    }
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }
}

extension NSArray {
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }
}
