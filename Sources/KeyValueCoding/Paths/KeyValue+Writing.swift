import Foundation

extension KeyValue {
    /// Sets the value at the end of `keyPath`, starting from `root`.
    ///
    /// Every key but the last is read; the last is set on the value reached:
    /// - on a ``KeyValueCodable`` object, with ``KeyValueCodable/setValue(_:forKey:)``;
    /// - on an array or set, on every element (as Apple does);
    /// - on a dictionary, as an entry (`nil` removes it). A Swift dictionary is a value, so the
    ///   changed dictionary is then set back, through the normal setter (observers are told),
    ///   into the property (or entry) that holds it. An `NSMutableDictionary` is changed in
    ///   place.
    ///
    /// When a key along the way gives `nil`, nothing is set (as messaging `nil` does).
    ///
    /// ```swift
    /// try KeyValue.setValue("GNUstep", forKeyPath: "settings.name", of: document)
    /// try KeyValue.setValue(nil, forKeyPath: "settings.draft", of: document)  // removes the entry
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to set.
    ///   - keyPath: A key path without collection operators.
    ///   - root: The value to start from.
    /// - Throws: ``KeyValueCodingError`` as ``value(forKeyPath:of:)`` and
    ///   ``KeyValueCodable/setValue(_:forKey:)`` do; setting into `NSNull`, into a value that
    ///   is neither a ``KeyValueCodable`` object, a collection nor a dictionary, or into a
    ///   Swift dictionary that is not held by an object, throws
    ///   ``KeyValueCodingError/undefinedKey(_:type:)``; setting a key that a struct (an
    ///   enumeration, a tuple) reached on the way has throws
    ///   ``KeyValueCodingError/readOnlyValue(key:type:)``.
    /// - Complexity: O(*n*) in the length of the path, plus the size of the collections and
    ///   the dictionaries it changes (a Swift dictionary is copied when it is changed).
    ///
    /// Corresponds to `-[NSObject setValue:forKeyPath:]` sent to `root`.
    public static func setValue(_ value: Any?, forKeyPath keyPath: String, of root: Any?) throws {
        let (head, last) = try splitLast(keyPath)
        var target = root
        if let head {
            target = try self.value(forKeyPath: String(head), of: root)
            // The common case: the path leads to an object, which is set directly.
            if let target, let object = ValueKind.of(type(of: target)).codableObject?(target) {
                try object.setValue(value, forKey: last)
                return
            }
        }
        guard target != nil else { return }  // messaging nil
        // Otherwise walk again from the root, so that a dictionary value on the way can be
        // stored back where it came from.
        if try assign(value, at: Substring(keyPath), in: root) != nil {
            let first = keyPath.prefix { $0 != "." }
            throw KeyValueCodingError.undefinedKey(String(first), type: typeName(type(of: root!)))
        }
    }

    /// The error for setting `key` of `target`, a value that is not a key-value coding object:
    /// ``KeyValueCodingError/readOnlyValue(key:type:)`` when it is a struct, an enumeration or
    /// a tuple that has the key (a changed copy could not be stored back),
    /// ``KeyValueCodingError/undefinedKey(_:type:)`` otherwise.
    static func unsettableKeyError(_ key: String, of target: Any) -> KeyValueCodingError {
        let style = Mirror(reflecting: target).displayStyle
        guard style == .struct || style == .enum || style == .tuple else {
            return .undefinedKey(key, type: typeName(type(of: target)))
        }
        do {
            _ = try self.value(forKey: key, of: target)
            return .readOnlyValue(key: key, type: typeName(type(of: target)))
        } catch {
            return .undefinedKey(key, type: typeName(type(of: target)))
        }
    }

    /// Sets `value` at `path` inside `target`.
    ///
    /// - Returns: The changed `target` when it is a value (a Swift dictionary) that the caller
    ///   must store back; nil when the change is done.
    static func assign(_ value: Any?, at path: Substring, in target: Any?) throws -> Any? {
        guard let target else { return nil }  // messaging nil
        let dot = path.utf8.firstIndex(of: UInt8(ascii: "."))
        let key = String(dot.map { path[..<$0] } ?? path)
        let rest = dot.map { path[path.utf8.index(after: $0)...] }
        let kind = ValueKind.of(type(of: target))
        if let object = kind.codableObject?(target) {
            guard let rest else {
                try object.setValue(value, forKey: key)
                return nil
            }
            if let changed = try assign(value, at: rest, in: object.value(forKey: key)) {
                try object.setValue(changed, forKey: key)  // the normal setter: observers are told
            }
            return nil
        }
        switch kind.category {
        case .dictionary:
            let dictionary = kind.dictionary!(target)
            guard let rest else { return try dictionary.keyValueSetting(value, forKey: key) }
            guard let changed = try assign(value, at: rest, in: dictionary.keyValueValue(forKey: key)) else {
                return nil
            }
            return try dictionary.keyValueSetting(changed, forKey: key)
        case .collection:
            // Apple sets the path on every element. An element that is a value cannot be
            // stored back into the collection, which is itself a copy.
            for element in kind.collection!(target).keyValueElements {
                if try assign(value, at: path, in: element) != nil {
                    throw KeyValueCodingError.undefinedKey(key, type: typeName(type(of: element!)))
                }
            }
            return nil
        case .optional, .wrapper:
            return try assign(value, at: path, in: kind.unwrap?(target))
        case .null, .string, .number, .other, .codableObject:
            guard let rest else {
                throw unsettableKeyError(key, of: target)
            }
            // Read through (a struct's property), then set on what it holds; a changed value
            // cannot be stored back into a value that is not key-value coding-compliant.
            if try assign(value, at: rest, in: self.value(forKey: key, of: target)) != nil {
                throw unsettableKeyError(key, of: target)
            }
            return nil
        }
    }
}
