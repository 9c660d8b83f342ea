import Foundation
import KeyValueCoding

extension KeyValueObservable {
    /// Observes `keyPath` of this object and calls `changeHandler` for each change.
    ///
    /// The key path may have several links (`"department.manager.name"`); a change of any link
    /// is reported, and when a middle object is replaced the observation moves to the new one.
    ///
    /// ```swift
    /// let token = try person.observe("name", options: [.old, .new]) { person, change in
    ///     print("\(change.oldValue ?? "nil") → \(change.newValue ?? "nil")")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A key path of this object, without collection operators.
    ///   - options: What the change records carry, and whether to send initial and prior
    ///     notifications.
    ///   - changeHandler: Called on the thread that makes each change, with this object and the
    ///     change. No lock is held while it runs; it may register or invalidate observations.
    /// - Returns: A token; the observation ends when it is invalidated or released.
    /// - Throws: ``KeyValueObservingError/malformedKeyPath(_:reason:)``,
    ///   ``KeyValueObservingError/collectionOperatorNotObservable(_:keyPath:)``, or
    ///   ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` naming the first key the
    ///   objects along the path do not have.
    /// - Complexity: O(*k*) for a key path of *k* links, plus the keys they depend on.
    ///
    /// Corresponds to Apple's `NSObject.observe(_:options:changeHandler:)`.
    public func observe(_ keyPath: String, options: KeyValueObservingOptions = [],
                        changeHandler: @escaping @Sendable (Self, KeyValueChange) -> Void)
        throws -> KeyValueObservation {
        let components = try KeyPathParser.components(of: keyPath, validatingOn: self)
        let registration = Registration(root: self, keyPath: keyPath, components: components,
                                        options: options) { object, change in
            changeHandler(unsafeDowncast(object, to: Self.self), change)
        }
        let token = KeyValueObservation(registration)
        registration.start(on: self)
        if options.contains(.initial) { registration.sendInitial(to: self) }
        return token
    }

    /// Observes a property given as a Swift key path, with typed old and new values.
    ///
    /// ```swift
    /// let token = try person.observe(\.age, options: [.old, .new]) { person, change in
    ///     let grewBy = (change.newValue ?? 0) - (change.oldValue ?? 0)
    /// }
    /// ```
    ///
    /// The key path must name `@Observed` properties, stored properties or listed computed keys.
    ///
    /// - Parameters:
    ///   - keyPath: The property to observe.
    ///   - options: What the change records carry.
    ///   - changeHandler: Called for each change, on the thread that makes it.
    /// - Returns: A token; the observation ends when it is invalidated or released.
    /// - Throws: ``KeyValueObservingError/unsupportedKeyPath(_:)`` when the key path has no
    ///   key-value coding name, and the errors of ``observe(_:options:changeHandler:)``.
    ///
    /// Corresponds to Apple's `NSObject.observe(_:options:changeHandler:)` with a key path.
    public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: KeyValueObservingOptions = [],
                               changeHandler: @escaping @Sendable (Self, KeyValueObservedChange<Value>) -> Void)
        throws -> KeyValueObservation {
        let name = try KeyPathProbe.keyPathString(for: keyPath, on: self)
        return try observe(name, options: options) { object, change in
            changeHandler(object, KeyValueObservedChange(change))
        }
    }

    /// Registers `observer` for changes of `keyPath` (the closure-free form, for ported code).
    ///
    /// The object does not keep `observer` alive. Register the same observer several times with
    /// different contexts to tell the registrations apart.
    ///
    /// - Parameters:
    ///   - observer: The object whose `observeValue(forKeyPath:of:change:context:)` is called.
    ///   - keyPath: A key path of this object.
    ///   - options: What the change records carry.
    ///   - context: A value passed back with each notification and used to remove it.
    /// - Throws: The errors of ``observe(_:options:changeHandler:)``.
    ///
    /// Corresponds to `-[NSObject addObserver:forKeyPath:options:context:]`.
    public func addObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String,
                            options: KeyValueObservingOptions = [],
                            context: UnsafeMutableRawPointer? = nil) throws {
        let components = try KeyPathParser.components(of: keyPath, validatingOn: self)
        let contextBits = UInt(bitPattern: context)
        let reference = WeakObserver(observer)
        let storage = ObservationCenter.storage(of: self)
        let registration = Registration(
            root: self, keyPath: keyPath, components: components, options: options,
            observerIdentity: ObjectIdentifier(observer), context: contextBits, observerStorage: storage
        ) { object, change in
            reference.observer?.observeValue(forKeyPath: keyPath, of: object, change: change,
                                             context: UnsafeMutableRawPointer(bitPattern: contextBits))
        }
        registration.start(on: self)
        storage.addObserverRegistration(registration)
        if options.contains(.initial) { registration.sendInitial(to: self) }
    }

    /// Removes a registration made with ``addObserver(_:forKeyPath:options:context:)``.
    ///
    /// With a `context`, removes the newest registration of `observer` for `keyPath` with that
    /// context; without one, the newest registration of `observer` for `keyPath`.
    ///
    /// - Parameters:
    ///   - observer: The registered observer.
    ///   - keyPath: The registered key path.
    ///   - context: The registered context, or `nil` for any.
    /// - Throws: ``KeyValueObservingError/observerNotRegistered(keyPath:)`` when nothing
    ///   matches (Apple raises an exception), for example when removing twice.
    ///
    /// Corresponds to `-[NSObject removeObserver:forKeyPath:context:]` and
    /// `-[NSObject removeObserver:forKeyPath:]`.
    public func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String,
                               context: UnsafeMutableRawPointer? = nil) throws {
        guard let registration = ObservationCenter.storageForRemoval(of: self)?.takeObserverRegistration(
            observer: ObjectIdentifier(observer), keyPath: keyPath,
            context: context.map { UInt(bitPattern: $0) }) else {
            throw KeyValueObservingError.observerNotRegistered(keyPath: keyPath)
        }
        registration.invalidate()
    }
}

extension Registration {
    /// Sends the notification of ``KeyValueObservingOptions/initial``.
    func sendInitial(to root: AnyObject) {
        guard isActive.load(ordering: .relaxed),
              let node = tree.withTrackedLock(self, { $0.root }) else { return }
        node.deliver(root, KeyValueChange(kind: .setting, newValue: wantsNew ? currentValue() : nil))
    }
}

/// Splits and checks key paths given to the observing methods.
enum KeyPathParser {
    /// The keys of `keyPath`, checked against the objects currently along it.
    static func components(of keyPath: String, validatingOn root: any KeyValueCodable) throws -> [String] {
        guard !keyPath.isEmpty else {
            throw KeyValueObservingError.malformedKeyPath(keyPath, reason: "the key path is empty")
        }
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for key in components {
            if key.isEmpty {
                throw KeyValueObservingError.malformedKeyPath(keyPath, reason: "a key is empty")
            }
            if key.hasPrefix("@") {
                throw KeyValueObservingError.collectionOperatorNotObservable(key, keyPath: keyPath)
            }
        }
        var current: Any? = root
        for (index, key) in components.enumerated() {
            guard let value = current else { break }
            current = try validatedValue(of: value, key: key, isLast: index == components.count - 1,
                                         previousKey: index > 0 ? components[index - 1] : nil,
                                         keyPath: keyPath)
        }
        return components
    }

    /// Reads `key` of `value` (an object or any other value) while checking a key path.
    ///
    /// - Throws: ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` when `value` has no
    ///   `key`; ``KeyValueObservingError/notObservableThroughCollection(_:keyPath:)`` when
    ///   `value` is an array or a set (the value of `previousKey`).
    private static func validatedValue(of value: Any, key: String, isLast: Bool, previousKey: String?,
                                       keyPath: String) throws -> Any? {
        let object = value as? any KeyValueCodable
        if object == nil, let previousKey, isCollection(value) {
            throw KeyValueObservingError.notObservableThroughCollection(previousKey, keyPath: keyPath)
        }
        do {
            let next = try object.map { try $0.value(forKey: key) } ?? KeyValue.value(forKey: key, of: value)
            return isLast ? nil : flattenOptional(next)
        } catch KeyValueCodingError.undefinedKey {
            throw KeyValueObservingError.undefinedKey(key, keyPath: keyPath,
                                                      type: String(reflecting: type(of: value)))
        }
    }

    /// Whether `value` is an array or a set (Swift's or Foundation's).
    private static func isCollection(_ value: Any) -> Bool {
        if value is NSArray || value is NSSet || value is NSOrderedSet { return true }
        let style = Mirror(reflecting: value).displayStyle
        return style == .collection || style == .set
    }
}
