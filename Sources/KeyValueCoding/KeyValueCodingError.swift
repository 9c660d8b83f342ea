import Foundation

/// An error thrown by key-value coding.
///
/// Apple's `NSKeyValueCoding` raises Objective-C exceptions (`NSUndefinedKeyException`,
/// `NSInvalidArgumentException`) for these cases; ObjectGraph throws instead, and every case
/// carries the key (or key path) and the type that caused it.
///
/// The message is the same whichever way it is read: `print(error)`, `String(describing:)`
/// and `error.localizedDescription` all give ``description`` (the one source of the text).
public enum KeyValueCodingError: Error, Equatable, Sendable {
    /// The type has no property, computed key or override for `key`
    /// (Apple: `valueForUndefinedKey:` / `setValue:forUndefinedKey:`).
    case undefinedKey(String, type: String)
    /// The value cannot be stored into the property: it has another type.
    case typeMismatch(key: String, type: String, expected: String, actual: String)
    /// A number does not fit into the property's numeric type (for example `300` into `UInt8`,
    /// or NaN into `Int`).
    case valueOutOfRange(key: String, type: String, value: String)
    /// `nil` was set into a non-optional property and `setNilValueForKey(_:)` was not overridden.
    case nilNotAllowed(key: String, type: String)
    /// The key names a read-only computed property.
    case readOnlyKey(String, type: String)
    /// The key path is malformed (empty, or an empty component such as `"a..b"`).
    case malformedKeyPath(String, reason: String)
    /// The key path names a collection operator that does not exist (for example `"@median"`).
    case unknownOperator(String, keyPath: String)
    /// A collection operator other than `@count` has no key path to its right.
    case missingRightKeyPath(operator: String, keyPath: String)
    /// A collection operator was applied to something that is not a collection, or whose
    /// elements the operator cannot combine (for example `@sum` of strings).
    case invalidOperand(operator: String, reason: String)
    /// A validator rejected the value.
    case validationFailed(key: String, type: String, reason: String)
    /// Collections nested more deeply than key-value coding follows (200 levels), for
    /// example an array of arrays of arrays… read with one key.
    case nestedTooDeeply(key: String, depth: Int)
    /// `mutableArrayValue(forKey:)` / `mutableSetValue(forKey:)` on a property that is not an
    /// array (or set), or an index out of range through such a proxy.
    case invalidCollectionAccess(key: String, type: String, reason: String)
    /// The type has a stored property named `key` that is not a key, for the reason given (a
    /// `weak` or `unowned` reference, a `lazy` property). Thrown by the default
    /// `value(forUndefinedKey:)` and `setValue(_:forUndefinedKey:)` in place of
    /// ``undefinedKey(_:type:)``.
    case notAKey(String, type: String, reason: String)
    /// The property holds an enumeration (or another `RawRepresentable` type) and the value is
    /// of its raw type but is none of its raw values (for example `"club"` for a `Suit` whose
    /// raw values are `"clubs"`, `"hearts"`…).
    case invalidRawValue(key: String, type: String, expected: String, value: String)
    /// The key path reaches a value (a struct, an enumeration or a tuple) and sets a key of it:
    /// key-value coding cannot store a changed copy back into what holds it, so the key is
    /// read-only there (`type` is the value's type).
    case readOnlyValue(key: String, type: String)
    /// A managed object's entity has no property named `key` (nor its class a computed key of
    /// that name): what a managed object throws in place of ``undefinedKey(_:type:)``.
    /// `properties` are the entity's property names, from which the message suggests the
    /// closest (or lists a few).
    case undefinedProperty(String, entity: String, properties: [String])
}

extension KeyValueCodingError: CustomStringConvertible, LocalizedError {
    /// A sentence naming the key (or key path), the type and what went wrong.
    public var description: String {
        switch self {
        case let .undefinedKey(key, type):
            return "\(type) is not key-value coding-compliant for the key '\(key)' (a computed property "
                + "is a key only when the class lists it in computedKeys)"
        case let .typeMismatch(key, type, expected, actual):
            return "cannot set a value of type \(Self.plainTypeName(actual)) for the key '\(key)' of "
                + "\(Self.plainTypeName(type)): expected \(Self.plainTypeName(expected))"
        case let .valueOutOfRange(key, type, value):
            return "the value \(value) is out of range for the key '\(key)' of \(type)"
        case let .nilNotAllowed(key, type):
            return "cannot set nil for the non-optional key '\(key)' of \(type)"
        case let .readOnlyKey(key, type):
            return "the key '\(key)' of \(type) is read-only"
        case let .malformedKeyPath(path, reason):
            return "malformed key path '\(path)': \(reason)"
        case let .unknownOperator(op, path):
            return "unknown collection operator '\(op)' in key path '\(path)'"
        case let .missingRightKeyPath(op, path):
            return "the collection operator '\(op)' needs a key path to its right in '\(path)'"
        case let .invalidOperand(op, reason):
            return "the collection operator '\(op)' cannot be applied: \(reason)"
        case let .validationFailed(key, type, reason):
            return "validation failed for the key '\(key)' of \(type): \(reason)"
        case let .nestedTooDeeply(key, depth):
            return "collections nested more than \(depth) levels deep while reading the key '\(key)'"
        case let .invalidCollectionAccess(key, type, reason):
            return "invalid collection access for the key '\(key)' of \(type): \(reason)"
        case let .notAKey(key, type, reason):
            return "\(type) is not key-value coding-compliant for the key '\(key)': \(reason)"
        case let .invalidRawValue(key, type, expected, value):
            return "cannot set \(value) for the key '\(key)' of \(type): it is not a raw value of \(expected)"
        case let .readOnlyValue(key, type):
            return "cannot set the key '\(key)' of \(type): \(type) is a value type reached through a key "
                + "path, and key-value coding cannot store a changed copy back into what holds it; make it a "
                + "class conforming to KeyValueCodable, or set the whole value"
        case let .undefinedProperty(key, entity, properties):
            return "the entity '\(entity)' has no property '\(key)'" + Self.propertyHint(for: key, among: properties)
        }
    }

    /// The same text as ``description``, so that `localizedDescription` names the culprit too.
    public var errorDescription: String? { description }

    /// A type's name as a message shows it, without the module (or enclosing type) of each
    /// name in it, as `String(describing:)` prints a type: `Swift.Optional<Swift.String>` is
    /// `Optional<String>`; a metatype keeps its `.Type` (`Int.Type`).
    static func plainTypeName(_ name: String) -> String {
        var result = ""
        var start = name.startIndex
        /// Appends the dotted name that ends before `end`, its last component only.
        func flush(_ end: String.Index) {
            let parts = name[start..<end].split(separator: ".", omittingEmptySubsequences: false)
            if let last = parts.last, parts.count > 1, last == "Type" || last == "Protocol" {
                result += parts[parts.count - 2] + "." + last
            } else if let last = parts.last {
                result += last
            }
        }
        var index = name.startIndex
        while index < name.endIndex {
            let character = name[index]
            if !(character.isLetter || character.isNumber || character == "_" || character == ".") {
                flush(index)
                result.append(character)
                start = name.index(after: index)
            }
            index = name.index(after: index)
        }
        flush(name.endIndex)
        return result
    }

    /// ` (did you mean 'title'?)` for the closest of `properties` to `key` (the same letters in
    /// another case, or at most a third of them different or swapped), otherwise the first few
    /// properties; `noun` names them (`properties`, `relationships`).
    package static func propertyHint(for key: String, among properties: [String], noun: String = "properties") -> String {
        guard !properties.isEmpty else { return " (it has no \(noun))" }
        let lowered = key.lowercased()
        if let same = properties.first(where: { $0.lowercased() == lowered }) { return " (did you mean '\(same)'?)" }
        let allowed = max(1, key.count / 3)
        let keyLength = lowered.count
        // A length difference above `allowed` is more edits than allowed already: such a
        // property is not compared (a very long key would otherwise cost its length times each
        // property's).
        let closest = properties.lazy
            .map { (name: $0, lowered: $0.lowercased()) }
            .filter { abs($0.lowered.count - keyLength) <= allowed }
            .map { (name: $0.name, distance: editDistance(lowered, $0.lowered)) }
            .filter { $0.distance <= allowed }
            .min { $0.distance < $1.distance }
        if let closest { return " (did you mean '\(closest.name)'?)" }
        let shown = properties.prefix(8).map { "'\($0)'" }.joined(separator: ", ")
        return " (its \(noun): " + shown + (properties.count > 8 ? ", …)" : ")")
    }

    /// The fewest insertions, deletions, substitutions and swaps of neighbouring characters that
    /// turn `a` into `b` (so `titel` is one edit from `title`).
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                var best = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { best = min(best, beforePrevious[j - 1] + 1) }
                current[j + 1] = best
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}

extension KeyValueValidationError: CustomStringConvertible, LocalizedError {
    /// The validator's reason.
    public var description: String { reason }

    /// The same text as ``description`` (the validator's reason).
    public var errorDescription: String? { description }
}

/// The name of a type as shown in error messages.
@usableFromInline
func typeName(_ type: Any.Type) -> String {
    String(reflecting: type)
}
