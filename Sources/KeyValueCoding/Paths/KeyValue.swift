import Foundation

/// Key-value coding on any value: objects, dictionaries, arrays, sets and optionals.
///
/// `KeyValueCodable` objects answer for themselves; this namespace adds the rules Apple's
/// collection classes follow, so that key paths can walk through them:
///
/// - `nil` answers `nil` for every key (a path stops at the first `nil`); `NSNull` answers
///   itself for every key (Apple's `NSNull` does), and cannot be set.
/// - A dictionary (a Swift `Dictionary` with `String` or `AnyHashable` keys, an
///   `NSDictionary`) looks the key up; a key starting with `@` reads the dictionary itself
///   (`"@count"`, `"@allKeys"`, `"@allValues"`, `"@description"`, `"@self"`). Setting a key through a path stores the entry
///   (`nil` removes it) and stores the changed dictionary back into the property that holds it.
/// - An array answers with an array of each element's value, in order; `nil` values become
///   `NSNull()` so positions are kept (Apple: `-[NSArray valueForKey:]`).
/// - A set answers with a set of its elements' values, without `nil`s
///   (Apple: `-[NSSet valueForKey:]`). Elements that are not `Hashable` objects are held by
///   identity, as ``ObjectIdentity``.
/// - A string answers `length` (its UTF-16 count, as `NSString`'s `length`).
/// - Any other value (a struct, an enum, a class that is not `KeyValueCodable`) is read through
///   `Mirror`, read-only.
/// - Every value answers `description` (`String(describing:)`), unless it has a property of
///   that name.
/// - The key `self` gives the value itself (as `NSObject`'s `self` method does), so
///   `"@sum.self"` sums an array of numbers.
///
/// ```swift
/// let totals = try KeyValue.value(forKeyPath: "accounts.@sum.balance", of: bank)
/// let names = try KeyValue.value(forKeyPath: "name", of: [ada, grace])  // ["Ada", "Grace"]
/// ```
///
/// Thread safety: these functions keep no state; they are as thread-safe as the values read.
public enum KeyValue {
    /// Returns the value of `key` in `root`, following the rules above.
    ///
    /// - Parameters:
    ///   - key: One key (no dots). A key starting with `@` is a collection operator on an
    ///     array or set (`"@count"`; the others need a key path, see
    ///     ``value(forKeyPath:of:)``), or a property of a dictionary (`"@allKeys"`).
    ///   - root: The value to read from.
    /// - Returns: The value, or `nil`; `NSNull()` when `root` is `NSNull()`.
    /// - Throws: ``KeyValueCodingError`` when the key is undefined for the value or an element.
    /// - Complexity: O(1) for an object, a dictionary or a string (O(*n*) for a string's
    ///   `length`); O(*n*) for a collection of *n* elements.
    ///
    /// Corresponds to `valueForKey:` sent to `root` (`NSObject`, `NSArray`, `NSSet`,
    /// `NSDictionary`, `NSString`, `NSNull`).
    public static func value(forKey key: String, of root: Any?) throws -> Any? {
        try value(forKey: key, of: root, depth: 0)
    }

    /// The deepest nesting of collections that ``value(forKey:of:)`` follows.
    static let maximumNesting = 200

    static func value(forKey key: String, of root: Any?, depth: Int) throws -> Any? {
        guard let root else { return nil }
        let kind = ValueKind.of(type(of: root))
        if let readKey = kind.readKey {
            return try readKey(root, key)
        }
        guard depth < maximumNesting else {
            throw KeyValueCodingError.nestedTooDeeply(key: key, depth: maximumNesting)
        }
        return try nonObjectValue(forKey: key, of: root, kind: kind, depth: depth)
    }

    /// Returns the value at the end of `keyPath`, starting from `root`.
    ///
    /// The key path is a dot-separated list of keys, which may contain one collection operator
    /// (`@count`, `@sum`, `@avg`, `@min`, `@max`, `@unionOfObjects`, `@distinctUnionOfObjects`,
    /// `@unionOfArrays`, `@distinctUnionOfArrays`, `@distinctUnionOfSets`); the operator works
    /// on the collection reached by the keys to its left, with the key path to its right.
    ///
    /// - Parameters:
    ///   - keyPath: A key path such as `"department.manager.name"` or `"transactions.@sum.amount"`.
    ///   - root: The value to start from.
    /// - Returns: The value, or `nil` when a key along the way gives `nil`.
    /// - Throws: ``KeyValueCodingError/malformedKeyPath(_:reason:)`` for an empty path or
    ///   component, ``KeyValueCodingError/unknownOperator(_:keyPath:)``,
    ///   ``KeyValueCodingError/missingRightKeyPath(operator:keyPath:)``,
    ///   ``KeyValueCodingError/invalidOperand(operator:reason:)``, and the errors of
    ///   ``value(forKey:of:)``.
    /// - Complexity: O(*n*) in the length of the path, times the size of the collections it
    ///   passes through.
    public static func value(forKeyPath keyPath: String, of root: Any?) throws -> Any? {
        try walk(keyPath, from: root).value
    }

    /// Splits `a.b.c` into (`a.b`, `c`), checking every component.
    static func splitLast(_ keyPath: String) throws -> (Substring?, String) {
        try checkComponents(Substring(keyPath), fullPath: keyPath)
        guard let dot = keyPath.lastIndex(of: ".") else { return (nil, keyPath) }
        let last = keyPath[keyPath.index(after: dot)...]
        if last.hasPrefix("@") {
            throw KeyValueCodingError.malformedKeyPath(keyPath, reason: "cannot set through a collection operator")
        }
        return (keyPath[..<dot], String(last))
    }

    /// Checks that `part` (the whole of `fullPath`, or its end) has no empty component.
    static func checkComponents(_ part: Substring, fullPath: String) throws {
        if fullPath.isEmpty {
            throw KeyValueCodingError.malformedKeyPath(fullPath, reason: "the key path is empty")
        }
        for component in part.split(separator: ".", omittingEmptySubsequences: false)
        where component.isEmpty {
            throw KeyValueCodingError.malformedKeyPath(fullPath, reason: "a key in the path is empty")
        }
    }

    // MARK: Evaluation

    static func evaluate(_ path: Substring, fullPath: String, from root: Any?) throws -> Any? {
        var current = root
        var rest = path
        let dotByte = UInt8(ascii: ".")
        while true {
            // Scan bytes, not characters: '.' and '@' are ASCII and never part of a cluster.
            let dot = rest.utf8.firstIndex(of: dotByte)
            let component = dot.map { rest[..<$0] } ?? rest
            if component.isEmpty {
                throw KeyValueCodingError.malformedKeyPath(fullPath, reason: "a key in the path is empty")
            }
            let remainder = dot.map { rest[rest.utf8.index(after: $0)...] }
            if component.utf8.first == UInt8(ascii: "@") {
                return try CollectionOperator.apply(component, right: remainder, to: current,
                                                    fullPath: fullPath)
            }
            if let remainder, remainder.isEmpty {
                throw KeyValueCodingError.malformedKeyPath(fullPath, reason: "the key path ends with '.'")
            }
            current = try value(forKey: String(component), of: current)
            guard let remainder else { return current }
            if case .none = current {
                // Messaging nil: the rest of the path is not read, but it must still be well formed.
                try checkComponents(remainder, fullPath: fullPath)
                return nil
            }
            rest = remainder
        }
    }

    static func nonObjectValue(forKey key: String, of root: Any, kind: ValueKind, depth: Int) throws -> Any? {
        if key == "self", kind.category != .collection { return flattenOptional(root) }
        switch kind.category {
        case .null:
            return root  // NSNull answers itself for every key, as Apple's does
        case .optional, .wrapper:
            return try value(forKey: key, of: kind.unwrap?(root), depth: depth + 1)
        case .collection:
            if key.utf8.first == UInt8(ascii: "@") {
                return try CollectionOperator.apply(Substring(key), right: nil, to: root, fullPath: key)
            }
            return try kind.collection!(root).keyValueMap(forKey: key, depth: depth + 1)
        case .dictionary:
            return try kind.dictionary!(root).keyValueValue(forKey: key)
        case .string:
            return try stringValue(forKey: key, of: root)
        case .codableObject, .number, .other:
            return try mirrorValue(forKey: key, of: root)
        }
    }
}

extension KeyValueCodable {
    /// Returns the value at the end of `keyPath`, starting from this object.
    ///
    /// See ``KeyValue/value(forKeyPath:of:)`` for the syntax, the collection operators and how
    /// arrays, sets and dictionaries along the way are handled.
    ///
    /// - Parameter keyPath: A dot-separated key path, e.g. `"department.manager.name"`.
    /// - Returns: The value, or `nil` when a key along the way gives `nil`.
    /// - Throws: ``KeyValueCodingError`` naming the key or key path at fault.
    ///
    /// Corresponds to `-[NSObject valueForKeyPath:]`.
    public func value(forKeyPath keyPath: String) throws -> Any? {
        try KeyValue.walk(keyPath, fromObject: self).value
    }

    /// Sets the value at the end of `keyPath`, starting from this object.
    ///
    /// - Parameters:
    ///   - value: The value to set.
    ///   - keyPath: A dot-separated key path without collection operators.
    /// - Throws: ``KeyValueCodingError`` naming the key or key path at fault.
    ///
    /// Corresponds to `-[NSObject setValue:forKeyPath:]`.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try KeyValue.setValue(value, forKeyPath: keyPath, of: self)
    }
}
