// The stored fields of a class, with their ownership and mutability, read from the Swift
// runtime's reflection entry points (the ones the standard library's `_forEachField` uses,
// which does not pass on whether a field is `weak`/`unowned` or a `let`).

/// What the runtime reports about one stored field (the runtime's `FieldReflectionMetadata`).
private struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func reflectionRecursiveCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func reflectionRecursiveChildMetadata(
    _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>
) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func reflectionRecursiveChildOffset(_ type: Any.Type, index: Int) -> Int

/// One stored field of a class (its superclasses' fields included).
package struct StoredField {
    /// The field's name as declared (`_name` for a property wrapper's storage).
    package var name: String
    /// Its byte offset in an instance.
    package var offset: Int
    /// Its declared type (`Optional<T>` for a `weak var`).
    package var type: Any.Type
    /// False for `weak` and `unowned` fields, whose storage is not a plain reference.
    package var isStrong: Bool
    /// False for `let` constants.
    package var isVar: Bool

    /// Lists the stored fields of `type`, superclass fields first.
    package static func all(of type: AnyClass) -> [StoredField] {
        let count = reflectionRecursiveCount(type)
        var fields: [StoredField] = []
        fields.reserveCapacity(count)
        for index in 0..<count {
            var metadata = FieldReflectionMetadata()
            let fieldType = reflectionRecursiveChildMetadata(type, index: index, fieldMetadata: &metadata)
            let name = metadata.name.map { String(cString: $0) } ?? ""
            metadata.freeName?(metadata.name)
            fields.append(StoredField(name: name, offset: reflectionRecursiveChildOffset(type, index: index),
                                      type: fieldType, isStrong: metadata.isStrong, isVar: metadata.isVar))
        }
        return fields
    }
}
