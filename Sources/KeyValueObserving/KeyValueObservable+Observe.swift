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
    ///   - keyPath: A key path of this object. The only collection operator it may hold is a
    ///     final `@count` after a to-many key (`"items.@count"`): each change of the collection
    ///     is then reported as a `.setting` change of its element count (`Int`).
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
        let known = KeyPathParser.knownList(for: keyPath, on: self)
        let parsed = known == nil ? try KeyPathParser.parse(keyPath, validatingOn: self)
            : KeyPathParser.Parsed(knownKey: keyPath)
        let registration = Registration(root: self, keyPath: keyPath, firstKey: parsed.firstKey,
                                        laterKeys: parsed.laterKeys,
                                        countsElements: parsed.countsElements,
                                        options: options, deliver: deliver)
        let token = KeyValueObservation(registration)
        created?(registration)
        registration.start(on: self, list: known)
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
    public func addObserver<Observer: KeyValueObserver>(_ observer: Observer, forKeyPath keyPath: String,
                            options: KeyValueObservingOptions = [],
                            context: UnsafeMutableRawPointer? = nil) throws {
        let known = KeyPathParser.knownList(for: keyPath, on: self)
        let parsed = known == nil ? try KeyPathParser.parse(keyPath, validatingOn: self)
            : KeyPathParser.Parsed(knownKey: keyPath)
        let contextBits = UInt(bitPattern: context)
        let reference = WeakObserver(observer)
        let storage = ObservationCenter.storage(of: self)
        let registration = Registration(
            root: self, keyPath: keyPath, firstKey: parsed.firstKey, laterKeys: parsed.laterKeys,
            countsElements: parsed.countsElements, options: options,
            observerIdentity: ObjectIdentifier(observer), context: contextBits, observerStorage: storage
        ) { object, change in
            reference.observer?.observeValue(forKeyPath: keyPath, of: object, change: change,
                                             context: UnsafeMutableRawPointer(bitPattern: contextBits))
        }
        registration.start(on: self, list: known)
        storage.addObserverRegistration(registration)
        if options.contains(.initial) { registration.sendInitial(to: self) }
    }

    /// Removes a registration made with ``addObserver(_:forKeyPath:options:context:)``.
    ///
    /// With a `context`, removes the newest registration of `observer` for `keyPath` with that
    /// context; without one, the newest registration of `observer` for `keyPath`.
    ///
    /// It may be called from the observer's `deinit`, and from this object's own `deinit` (for
    /// an observer it owns, or for itself), as Apple's guide asks of `dealloc`.
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

/// The number of elements of `value` (an array, a set, an ordered set or a dictionary), as an
/// `Int`; `nil` when `value` is `nil` or not a collection. What a key path ending in `@count`
/// reports.
func elementCount(of value: Any?) -> Any? {
    guard let value else { return nil }
    if let collection = value as? any Collection { return collection.count }
    if let array = value as? NSArray { return array.count }
    if let set = value as? NSSet { return set.count }
    if let set = value as? NSOrderedSet { return set.count }
    if let dictionary = value as? NSDictionary { return dictionary.count }
    return nil
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
    /// A key path split into its keys.
    struct Parsed {
        /// The first key.
        var firstKey: String
        /// The keys after the first, without a final `@count`.
        var laterKeys: [String]
        /// Whether the key path ended in `@count`: the observation reports the number of
        /// elements of the collection the other keys lead to.
        var countsElements: Bool

        /// A key path of one key, already known to be valid.
        init(knownKey: String) {
            firstKey = knownKey
            laterKeys = []
            countsElements = false
        }

        init(components: [String], countsElements: Bool) {
            firstKey = components[0]
            laterKeys = Array(components.dropFirst())
            self.countsElements = countsElements
        }
    }

    /// The list of `keyPath` on `object` when `keyPath` is a single key that has a list
    /// there already: such a key was checked when the list was made, so registering skips the
    /// parse and the check.
    @inline(__always)
    static func knownList<Object: KeyValueObservable>(for keyPath: String, on object: Object) -> KeyObservers? {
        if let attached = ObservedSlots.attachedList(of: object, key: keyPath) { return attached }
        guard let storage = ObservationCenter.existingStorage(of: object) else { return nil }
        return storage.existingObservers(key: keyPath)
    }

    /// The keys of `keyPath`, checked against the objects currently along it.
    ///
    /// The only collection operator accepted is a final `@count` after at least one key (the
    /// number of elements of a to-many key); the value it counts, when there is one now, must
    /// be a collection.
    static func parse(_ keyPath: String, validatingOn root: any KeyValueCodable) throws -> Parsed {
        guard !keyPath.isEmpty else {
            throw KeyValueObservingError.malformedKeyPath(keyPath, reason: "the key path is empty")
        }
        var components = keyPath.utf8.contains(UInt8(ascii: "."))
            ? keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            : [keyPath]
        var countsElements = false
        for (index, key) in components.enumerated() {
            if key.isEmpty {
                throw KeyValueObservingError.malformedKeyPath(keyPath, reason: "a key is empty")
            }
            if key.utf8.first == UInt8(ascii: "@") {
                guard key == "@count", index > 0, index == components.count - 1 else {
                    throw KeyValueObservingError.collectionOperatorNotObservable(key, keyPath: keyPath)
                }
                countsElements = true
            }
        }
        if countsElements { components.removeLast() }
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
            let isLast = index == components.count - 1
            current = try validatedValue(of: value, key: key, isLast: isLast && !countsElements,
                                         previousKey: index > 0 ? components[index - 1] : nil,
                                         keyPath: keyPath)
        }
        if countsElements, let counted = current, !isCollection(counted), !isDictionary(counted) {
            throw KeyValueObservingError.collectionOperatorNotObservable("@count", keyPath: keyPath)
        }
        if let silentLink { throw silentLink }
        return Parsed(components: components, countsElements: countsElements)
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
        // The last key of a path needs no value: a key the object's key table lists is known
        // without reading it (no getter runs, nothing is boxed).
        if isLast, let object, KeyValueKeyTable.of(object: object).property(forKey: key) != nil { return nil }
        do {
            let next = try object.map { try $0.value(forKey: key) } ?? KeyValue.value(forKey: key, of: value)
            return isLast ? nil : flattenOptional(next)
        } catch KeyValueCodingError.undefinedKey {
            throw KeyValueObservingError.undefinedKey(key, keyPath: keyPath,
                                                      type: String(reflecting: type(of: value)))
        } catch KeyValueCodingError.undefinedProperty(_, let entity, _) {
            // A managed object: named by its entity.
            throw KeyValueObservingError.undefinedKey(key, keyPath: keyPath, type: entity)
        }
    }

    /// Whether every change of `key` of `object` can be notified: false only for a plain stored
    /// `var` whose changes are notified automatically (a plain assignment to it cannot notify)
    /// and that depends on no other key paths. `@Observed` properties, `let` constants,
    /// computed keys, accessor-backed keys and manually notified keys can be observed.
    private static func notifiesOnAssignment(_ object: any KeyValueObservable, key: String) -> Bool {
        guard let property = KeyValueKeyTable.of(object: object).property(forKey: key),
              case .stored = property.storage, !property.isReadOnly,
              property.toManyMutators == nil else { return true }  // mutators notify each edit
        let type = type(of: object)
        return !type.automaticallyNotifiesObservers(forKey: key)
            || !type.keyPathsForValuesAffectingValue(forKey: key).isEmpty
    }

    /// Whether `value` is a dictionary (Swift's or Foundation's), whose elements `@count` counts.
    static func isDictionary(_ value: Any) -> Bool {
        value is NSDictionary || Mirror(reflecting: value).displayStyle == .dictionary
    }

    /// Whether `value` is an array or a set (Swift's or Foundation's).
    static func isCollection(_ value: Any) -> Bool {
        if value is NSArray || value is NSSet || value is NSOrderedSet { return true }
        let style = Mirror(reflecting: value).displayStyle
        return style == .collection || style == .set
    }
}
