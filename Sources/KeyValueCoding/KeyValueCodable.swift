import Foundation

/// A class whose properties can be read and written by name, at run time.
///
/// Conform a class to `KeyValueCodable` and its stored properties become keys, found once per
/// type by reflection: there is nothing to list. Subclasses inherit their superclass's keys.
/// Computed properties become keys when the type lists them in ``computedKeys``.
///
/// ```swift
/// final class Person: KeyValueCodable {
///     var name = ""
///     var age = 0
///     var manager: Person?
/// }
///
/// let ada = Person()
/// try ada.setValue("Ada", forKey: "name")
/// try ada.setValue(36.0, forKey: "age")           // numbers bridge: Double → Int
/// let name = try ada.value(forKey: "name")         // "Ada" as Any?
/// let boss = try ada.value(forKeyPath: "manager.name")  // nil: the path stops at nil
/// ```
///
/// Values travel as `Any?`. Numbers bridge as `NSNumber` does on Apple platforms: any integer,
/// floating-point, `Decimal` or `Bool` value can be set into any numeric or `Bool` property
/// (floating-point values are truncated toward zero into integers, as `intValue` does; a value
/// that does not fit is a thrown ``KeyValueCodingError/valueOutOfRange(key:type:value:)``).
///
/// Every requirement has a default implementation. Override the customisation points in the
/// conforming class itself (not in an extension), as `class` members, so that subclasses can
/// override them again: Swift dispatches a requirement of a non-final class to the member
/// visible where the class declared its conformance, so a subclass's own `computedKeys` (or
/// other customisation) is silently ignored unless the conforming class declares it too.
/// The observing layer's `KeyValueObject` is an open base class that declares them all.
///
/// `setValue(_:forKey:)` writes a stored property's storage directly: the property's
/// `willSet`/`didSet` do not run. List such a property in ``computedKeys`` with its writable key
/// path to have key-value coding store through its setter.
///
/// Corresponds to Apple's `NSKeyValueCoding` informal protocol on `NSObject`.
///
/// - Important: Thread safety: reading and writing values is as thread-safe as the properties
///   themselves (that is, not at all for a plain `var`). The per-type accessor cache behind these
///   methods is thread-safe.
public protocol KeyValueCodable: AnyObject {
    /// Returns the value of the property identified by `key`.
    ///
    /// Optional properties that hold `nil` return `nil` (not a wrapped optional).
    ///
    /// - Parameter key: The name of a stored property, a property wrapper's wrapped property,
    ///   or a computed key listed in ``computedKeys``.
    /// - Returns: The value, as `Any?`.
    /// - Throws: Whatever ``value(forUndefinedKey:)`` throws when there is no such key
    ///   (by default ``KeyValueCodingError/undefinedKey(_:type:)``).
    /// - Complexity: O(1) amortised; the accessors are found once per type.
    ///
    /// Corresponds to `-[NSObject valueForKey:]`.
    func value(forKey key: String) throws -> Any?

    /// Sets the property identified by `key` to `value`.
    ///
    /// Numbers and `Bool` bridge between numeric types; `nil` into a non-optional property calls
    /// ``setNilValueForKey(_:)``. Change notifications are sent around the store when the type
    /// is observable (see the KeyValueObserving layer).
    ///
    /// - Parameters:
    ///   - value: The new value; `nil` for none.
    ///   - key: The name of a settable property.
    /// - Throws: ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` for a value of
    ///   the wrong kind, ``KeyValueCodingError/valueOutOfRange(key:type:value:)`` for a number
    ///   that does not fit, ``KeyValueCodingError/readOnlyKey(_:type:)`` for a read-only computed
    ///   key, and whatever ``setValue(_:forUndefinedKey:)`` or ``setNilValueForKey(_:)`` throw.
    ///
    /// Corresponds to `-[NSObject setValue:forKey:]`.
    func setValue(_ value: Any?, forKey key: String) throws

    /// Called by ``value(forKey:)`` when the type has no property for `key`.
    ///
    /// The default implementation throws ``KeyValueCodingError/undefinedKey(_:type:)``.
    /// Override it to return values for keys the type computes on demand.
    ///
    /// Corresponds to `-[NSObject valueForUndefinedKey:]` (which raises an exception).
    func value(forUndefinedKey key: String) throws -> Any?

    /// Called by ``setValue(_:forKey:)`` when the type has no property for `key`.
    ///
    /// The default implementation throws ``KeyValueCodingError/undefinedKey(_:type:)``.
    ///
    /// Corresponds to `-[NSObject setValue:forUndefinedKey:]`.
    func setValue(_ value: Any?, forUndefinedKey key: String) throws

    /// Called by ``setValue(_:forKey:)`` when `nil` is set into a non-optional property.
    ///
    /// The default implementation throws ``KeyValueCodingError/nilNotAllowed(key:type:)``.
    /// Override it to store a default instead (for example `0` for a number).
    ///
    /// Corresponds to `-[NSObject setNilValueForKey:]`, which Apple calls only for scalar
    /// properties; here it is called for every non-optional property, since a Swift `String`
    /// cannot hold `nil` either.
    func setNilValueForKey(_ key: String) throws

    /// Validates a value before it is set, and may replace it.
    ///
    /// The default implementation runs the validator that ``validators`` lists for `key`, if
    /// any, and otherwise accepts the value. Setting a value does not validate it: call this
    /// first, as with Apple's API.
    ///
    /// - Parameters:
    ///   - value: The proposed value; a validator may replace it.
    ///   - key: The key the value is meant for.
    /// - Throws: ``KeyValueCodingError/validationFailed(key:type:reason:)`` when the value is
    ///   rejected.
    ///
    /// Corresponds to `-[NSObject validateValue:forKey:error:]`.
    func validateValue(_ value: inout Any?, forKey key: String) throws

    /// Computed properties exposed as keys, by name.
    ///
    /// A `ReferenceWritableKeyPath` makes the key settable; any other key path makes it
    /// read-only. Stored properties need not be listed. Declare this as a `class var` in a
    /// non-final class so that subclasses can add keys. The default is empty.
    ///
    /// ```swift
    /// class var computedKeys: [String: AnyKeyPath] { ["fullName": \Person.fullName] }
    /// ```
    static var computedKeys: [String: AnyKeyPath] { get }

    /// Validators by key, used by the default ``validateValue(_:forKey:)``. The default is empty.
    static var validators: [String: KeyValueValidator] { get }

    /// Element-wise mutators of to-many properties, by key: the mutable proxies call them
    /// instead of storing whole collections (see ``KeyValueToManyMutators``). Declare this as a
    /// `class var` in a non-final class. The default is empty.
    ///
    /// Corresponds to the indexed and unordered accessor methods Apple's key-value coding finds
    /// by name (`insertObject:in<Key>AtIndex:`, `add<Key>Object:` and their relatives).
    static var toManyMutators: [String: KeyValueToManyMutators] { get }

    // MARK: Change notification

    /// Whether ``setValue(_:forKey:)`` and observable property wrappers send change
    /// notifications for `key` by themselves. The default is `true`.
    ///
    /// Corresponds to `+[NSObject automaticallyNotifiesObservers(forKey:)]`.
    static func automaticallyNotifiesObservers(forKey key: String) -> Bool

    /// Called before every change that is notified (a store through key-value coding, a
    /// manual ``willChangeValue(forKey:)``, an edit through a mutable proxy; for `@Observed`
    /// properties, a plain assignment while the object has observers or a change sink). The
    /// default does nothing.
    ///
    /// Implement it to learn of changes; it is a hook only: observers are notified whatever it
    /// does. It runs before the object's change sink and its observers hear of the change.
    ///
    /// - Parameter event: The key and kind of the change.
    ///
    /// Corresponds to overriding `-[NSObject willChangeValueForKey:]` (and its to-many
    /// relatives) and calling `super`.
    func keyValueWillChange(_ event: KeyValueChangeEvent)

    /// Called after every change that is notified, once the change sink and the observers
    /// have heard of it. The default does nothing. See ``keyValueWillChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    ///
    /// Corresponds to overriding `-[NSObject didChangeValueForKey:]` and calling `super`.
    func keyValueDidChange(_ event: KeyValueChangeEvent)

    /// Delivers a change notification: the hooks, the change sink and the observers.
    ///
    /// `KeyValueObservable` implements it; key-value coding's default only calls the hooks.
    /// You do not implement or call it: call ``willChangeValue(forKey:)`` and its relatives,
    /// and implement ``keyValueWillChange(_:)`` / ``keyValueDidChange(_:)`` to be told.
    ///
    /// - Parameter event: The change and its phase.
    func deliverKeyValueChange(_ event: KeyValueChangeEvent)
}

/// The kind of a change to a property (Apple: `NSKeyValueChange`).
public enum KeyValueChangeKind: Int, Sendable, Hashable {
    /// The value was replaced as a whole.
    case setting = 1
    /// Elements were inserted into a to-many property.
    case insertion = 2
    /// Elements were removed from a to-many property.
    case removal = 3
    /// Elements of a to-many property were replaced.
    case replacement = 4
}

/// How an unordered to-many property changes (Apple: `NSKeyValueSetMutationKind`).
public enum KeyValueSetMutationKind: Int, Sendable, Hashable {
    /// Objects are added (a union).
    case union = 1
    /// Objects are removed.
    case minus = 2
    /// Only the given objects are kept.
    case intersect = 3
    /// The set is replaced.
    case set = 4
}

/// A validator: accepts `value` (returns), replaces it (assigns), or rejects it (throws).
///
/// Throw a ``KeyValueValidationError`` to give a reason; ``KeyValueCodable/validateValue(_:forKey:)``
/// wraps it into ``KeyValueCodingError/validationFailed(key:type:reason:)`` with the key.
public typealias KeyValueValidator = @Sendable (_ value: inout Any?) throws -> Void

/// The reason a validator rejects a value.
public struct KeyValueValidationError: Error, Sendable, Equatable {
    /// Why the value was rejected, in words a user can read.
    public var reason: String
    /// Creates a rejection with a reason.
    public init(_ reason: String) { self.reason = reason }
}
