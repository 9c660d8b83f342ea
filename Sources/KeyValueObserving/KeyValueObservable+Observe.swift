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
    ///   ``KeyValueObservingError/collectionOperatorNotObservable(_:keyPath:)``,
    ///   ``KeyValueObservingError/assignmentNotObservable(_:keyPath:type:)`` for a plain stored
    ///   `var` that notifies automatically (mark it `@Observed` or notify manually), or
    ///   ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` naming the first key the
    ///   objects along the path do not have.
    /// - Complexity: O(*k*) for a key path of *k* links, plus the keys they depend on.
    ///
    /// Corresponds to Apple's `NSObject.observe(_:options:changeHandler:)`.
    ///
    /// Code isolated to an actor (a `@MainActor` view, an actor) calls
    /// ``observe(_:options:isolation:changeHandler:)`` instead, whose handler runs on that
    /// isolation; this form is chosen only for a handler that is already typed `@Sendable`
    /// (a stored function value), since the isolated form is preferred for closure literals.
    @_disfavoredOverload
    public func observe(_ keyPath: String, options: KeyValueObservingOptions = [],
                        changeHandler: @escaping @Sendable (Self, KeyValueChange) -> Void)
        throws -> KeyValueObservation {
        try register(keyPath, options: options) { object, change in
            changeHandler(unsafeDowncast(object, to: Self.self), change)
        }
    }

    /// Registers a closure observation whose changes go to `deliver` on the changing thread.
    func register(_ keyPath: String, options: KeyValueObservingOptions,
                  deliver: @escaping @Sendable (AnyObject, KeyValueChange) -> Void,
                  initial: ((Registration) -> Void)? = nil,
                  created: ((Registration) -> Void)? = nil) throws -> KeyValueObservation {
        let components = try KeyPathParser.components(of: keyPath, validatingOn: self)
        let registration = Registration(root: self, keyPath: keyPath, components: components,
                                        options: options, deliver: deliver)
        let token = KeyValueObservation(registration)
        created?(registration)
        registration.start(on: self)
        if options.contains(.initial) {
            if let initial { initial(registration) } else { registration.sendInitial(to: self) }
        }
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
    /// As with the string form, code isolated to an actor gets the overload taking
    /// `isolation`, whose handler runs on that isolation.
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
    @_disfavoredOverload
    public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: KeyValueObservingOptions = [],
                               changeHandler: @escaping @Sendable (Self, KeyValueObservedChange<Value>) -> Void)
        throws -> KeyValueObservation {
        let name = try KeyPathProbe.keyPathString(for: keyPath, on: self)
        return try register(name, options: options) { object, change in
            changeHandler(unsafeDowncast(object, to: Self.self), KeyValueObservedChange(change))
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
        guard let registration = ObservationCenter.existingStorage(of: self)?.takeObserverRegistration(
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
        guard isActive.load(ordering: .relaxed) else { return }
        deliver(root, KeyValueChange(kind: .setting, newValue: wantsNew ? currentValue() : nil))
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
        // A link that cannot notify is reported once the path itself is known to be valid.
        var silentLink: KeyValueObservingError?
        for (index, key) in components.enumerated() {
            guard let value = current else { break }
            if silentLink == nil, let observable = value as? any KeyValueObservable,
               !notifiesOnAssignment(observable, key: key) {
                silentLink = .assignmentNotObservable(key, keyPath: keyPath,
                                                      type: String(reflecting: type(of: observable)))
            }
            current = try validatedValue(of: value, key: key, isLast: index == components.count - 1,
                                         previousKey: index > 0 ? components[index - 1] : nil,
                                         keyPath: keyPath)
        }
        if let silentLink { throw silentLink }
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

    /// Whether every change of `key` of `object` can be notified: false only for a plain stored
    /// `var` whose changes are notified automatically (a plain assignment to it cannot notify)
    /// and that depends on no other key paths. `@Observed` properties, `let` constants,
    /// computed keys, accessor-backed keys and manually notified keys can be observed.
    private static func notifiesOnAssignment(_ object: any KeyValueObservable, key: String) -> Bool {
        guard let property = KeyValueKeyTable.of(object: object).property(forKey: key),
              case .stored = property.storage, !property.isReadOnly else { return true }
        let type = type(of: object)
        return !type.automaticallyNotifiesObservers(forKey: key)
            || !type.keyPathsForValuesAffectingValue(forKey: key).isEmpty
    }

    /// Whether `value` is an array or a set (Swift's or Foundation's).
    private static func isCollection(_ value: Any) -> Bool {
        if value is NSArray || value is NSSet || value is NSOrderedSet { return true }
        let style = Mirror(reflecting: value).displayStyle
        return style == .collection || style == .set
    }
}
