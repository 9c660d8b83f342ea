import Foundation

extension KeyValueCodable {
    public func value(forKey key: String) throws -> Any? {
        let found = KeyTableLookup.table(of: self)?
            ._withUnsafeGuaranteedRef { $0.property(forKey: key).map { Unmanaged.passUnretained($0) } }
        if let found {
            return found._withUnsafeGuaranteedRef { $0.value(of: self) }
        }
        if key == "self" { return self }  // as NSObject's `self` method answers
        if key == "description" { return String(describing: self) }  // as NSObject's `description`
        return try value(forUndefinedKey: key)
    }

    public func setValue(_ value: Any?, forKey key: String) throws {
        let found = KeyTableLookup.table(of: self)?
            ._withUnsafeGuaranteedRef { $0.property(forKey: key).map { Unmanaged.passUnretained($0) } }
        guard let found else {
            try setValue(value, forUndefinedKey: key)
            return
        }
        try found._withUnsafeGuaranteedRef { try $0.setValue(value, on: self) }
    }

    public func value(forUndefinedKey key: String) throws -> Any? {
        throw undefinedKeyError(key)
    }

    public func setValue(_ value: Any?, forUndefinedKey key: String) throws {
        throw undefinedKeyError(key)
    }

    /// The error for a key the object does not have: ``KeyValueCodingError/notAKey(_:type:reason:)``
    /// when the class has a stored property of that name that is not a key (saying why),
    /// ``KeyValueCodingError/undefinedKey(_:type:)`` otherwise.
    ///
    /// `package`: the open base class of the observing layer throws the same errors.
    package func undefinedKeyError(_ key: String) -> KeyValueCodingError {
        let type = type(of: self)
        if let reason = KeyValueKeyTable.of(type).unavailableKeys[key] {
            return .notAKey(key, type: typeName(type), reason: reason)
        }
        return .undefinedKey(key, type: typeName(type))
    }

    public func setNilValueForKey(_ key: String) throws {
        throw KeyValueCodingError.nilNotAllowed(key: key, type: typeName(type(of: self)))
    }

    public func validateValue(_ value: inout Any?, forKey key: String) throws {
        try runValidator(&value, forKey: key)
    }

    /// The default validation: runs the validator listed for `key`, if any (shared with the
    /// open base class of the observing layer, whose override must do the same).
    package func runValidator(_ value: inout Any?, forKey key: String) throws {
        let table = KeyValueKeyTable.of(object: self)
        // No validator: the value is accepted as it is, whatever the key (Apple's default
        // returns YES when there is no `validate<Key>:error:` method).
        guard let validator = table.validators[key] else { return }
        do {
            try validator(&value)
        } catch let error as KeyValueValidationError {
            throw KeyValueCodingError.validationFailed(key: key, type: typeName(type(of: self)),
                                                       reason: error.reason)
        } catch let error as KeyValueCodingError {
            throw error
        } catch {
            throw KeyValueCodingError.validationFailed(key: key, type: typeName(type(of: self)),
                                                       reason: String(describing: error))
        }
    }

    public static var computedKeys: [String: AnyKeyPath] { [:] }

    public static var validators: [String: KeyValueValidator] { [:] }

    public static var toManyMutators: [String: KeyValueToManyMutators] { [:] }

    public static func automaticallyNotifiesObservers(forKey key: String) -> Bool { true }

    @inlinable public func keyValueWillChange(_ event: KeyValueChangeEvent) {}
    @inlinable public func keyValueDidChange(_ event: KeyValueChangeEvent) {}

    public func deliverKeyValueChange(_ event: KeyValueChangeEvent) {
        switch event.phase {
        case .willChange: keyValueWillChange(event)
        case .didChange: keyValueDidChange(event)
        }
    }
}

extension KeyValueCodable {
    /// Returns the values of several keys at once, `NSNull` standing for `nil`.
    ///
    /// - Parameter keys: The keys to read.
    /// - Returns: A dictionary from each key to its value (`NSNull()` for `nil`).
    /// - Throws: The first error that ``value(forKey:)`` throws.
    ///
    /// Corresponds to `-[NSObject dictionaryWithValuesForKeys:]`.
    public func dictionaryWithValues(forKeys keys: [String]) throws -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(keys.count)
        for key in keys {
            result[key] = try value(forKey: key) ?? NSNull()
        }
        return result
    }

    /// Sets several keys at once; `NSNull` values set `nil`.
    ///
    /// Keys are set in the dictionary's iteration order; the first error stops the loop, so
    /// keys set before it keep their new values (as on Apple platforms).
    ///
    /// - Parameter keyedValues: The values to set, by key.
    /// - Throws: The first error that ``setValue(_:forKey:)`` throws.
    ///
    /// Corresponds to `-[NSObject setValuesForKeysWithDictionary:]`.
    public func setValuesForKeys(_ keyedValues: [String: Any]) throws {
        for (key, value) in keyedValues {
            try setValue(isNSNull(value) ? nil : value, forKey: key)
        }
    }
}
