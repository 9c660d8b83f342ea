import Foundation

extension KeyValue {
    /// The keys of a string: `length` (its UTF-16 count, as `-[NSString length]`) and
    /// `description` (the string itself).
    static func stringValue(forKey key: String, of root: Any) throws -> Any? {
        switch key {
        case "length":
            if type(of: root) == String.self { return loadInline(root, as: String.self).utf16.count }
            if let substring = root as? Substring { return substring.utf16.count }
            return (root as! NSString).length
        case "description":
            return String(describing: root)
        default:
            throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: root)))
        }
    }

    /// Reads `key` from a value that is not key-value coding-compliant by itself (a struct, an
    /// enumeration, a number, a class that is not `KeyValueCodable`): a stored property found
    /// by `Mirror`, else `description` (as every `NSObject` answers it).
    static func mirrorValue(forKey key: String, of root: Any) throws -> Any? {
        var mirror: Mirror? = Mirror(reflecting: root)
        while let current = mirror {
            for child in current.children where child.label == key {
                return flattenOptional(child.value)
            }
            mirror = current.superclassMirror
        }
        if key == "description" { return String(describing: root) }
        throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: root)))
    }
}
