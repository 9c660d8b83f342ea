import Foundation

/// Edits the array at a key path from an object whose last step is an entry of a dictionary
/// (`mutableArrayValue(forKeyPath: "settings.recent")`): reads the entry, edits a copy, and sets
/// it back through the key path, which stores the changed dictionary into the property that
/// holds it through the normal setter (its observers are told of the whole dictionary).
///
/// A missing entry reads as an empty array and is created by the first insertion. An array
/// already in the entry keeps its element type.
struct EntryArrayEditor: ArrayEditing {
    /// The key path from the object to the entry.
    let keyPath: String

    private func current(_ object: AnyObject) -> [Any?] {
        guard let value = try? KeyValue.value(forKeyPath: keyPath, of: object),
              let array = ValueKind.of(type(of: value)).collection?(value),
              !array.keyValueIsUnordered else { return [] }
        return array.keyValueElements
    }

    func count(of object: AnyObject) -> Int { current(object).count }

    func element(at index: Int, of object: AnyObject) -> Any? { current(object)[index] }

    func elements(of object: AnyObject) -> [Any?] { current(object) }

    func edit(_ change: KeyValueChangeKind, at indexes: IndexSet, with newElements: [Any?],
              object: any KeyValueCodable) throws {
        let key = String(keyPath.split(separator: ".").last ?? "")
        let existing = try KeyValue.value(forKeyPath: keyPath, of: object)
        var elements: [Any?] = []
        var arrayType: (any ArrayRebuilding.Type)?
        if let existing {
            guard let rebuilding = type(of: existing) as? any ArrayRebuilding.Type,
                  let array = ValueKind.of(type(of: existing)).collection?(existing) else {
                throw KeyValueCodingError.invalidCollectionAccess(
                    key: key, type: typeName(type(of: object)),
                    reason: "the value at '\(keyPath)' is not an array (its type is \(typeName(type(of: existing))))")
            }
            arrayType = rebuilding
            elements = array.keyValueElements
        }
        for (position, element) in newElements.enumerated() where element == nil {
            throw KeyValueCodingError.typeMismatch(
                key: "\(key)[\(indexes.dropFirst(position).first ?? position)]", type: typeName(type(of: object)),
                expected: "a value", actual: "nil")
        }
        applyArrayChange(change, indexes, newElements, to: &elements)
        let values = elements.map { $0 ?? NSNull() }
        var array: Any = values
        if let arrayType {
            guard let rebuilt = arrayType.rebuilt(from: values) else {
                throw KeyValueCodingError.typeMismatch(
                    key: key, type: typeName(type(of: object)), expected: typeName(arrayType),
                    actual: "an array with elements of other types")
            }
            array = rebuilt
        }
        try KeyValue.setValue(array, forKeyPath: keyPath, of: object)
    }
}

/// An `Array` type that can be made again from untyped elements.
protocol ArrayRebuilding {
    /// The array of `elements` cast to the element type, or nil when one does not fit.
    static func rebuilt(from elements: [Any]) -> Any?
}

extension Array: ArrayRebuilding {
    static func rebuilt(from elements: [Any]) -> Any? {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let typed = castWithoutBridging(element, to: Element.self) else { return nil }
            result.append(typed)
        }
        return result
    }
}
