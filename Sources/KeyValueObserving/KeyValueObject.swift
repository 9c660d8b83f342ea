import Foundation
import KeyValueCoding

/// An open base class for key-value coding and observing, whose customisation points
/// subclasses override: the role `NSObject` plays for Apple's key-value coding and observing.
///
/// The customisation points of ``KeyValueCodable`` and ``KeyValueObservable`` are protocol
/// requirements. Swift dispatches a requirement of a non-final class to the implementation
/// visible where the class *declared* its conformance: a subclass's own
/// `class func keyPathsForValuesAffectingValue(forKey:)`, `class var computedKeys`,
/// `automaticallyNotifiesObservers(forKey:)`, `validators`, `toManyMutators` (or instance
/// hooks such as `value(forUndefinedKey:)`) is silently ignored unless the class that conforms
/// declares the same member. This class declares every one of them as `open`, so a subclass
/// must write `override` (the compiler rejects the declaration otherwise) and its version
/// always takes effect:
///
/// ```swift
/// class Shape: KeyValueObject {
///     @Observed var width = 0.0
///     @Observed var height = 0.0
/// }
///
/// final class Rectangle: Shape {
///     var area: Double { width * height }
///     override class var computedKeys: [String: AnyKeyPath] {
///         super.computedKeys.merging(["area": \Rectangle.area]) { $1 }
///     }
///     override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
///         key == "area" ? ["width", "height"] : super.keyPathsForValuesAffectingValue(forKey: key)
///     }
/// }
/// ```
///
/// Call `super` to keep the keys a superclass declares. Every default behaves as the
/// protocol's default does. `value(forKey:)`, `setValue(_:forKey:)` and
/// ``KeyValueObservable/keyValueObservationStorage`` are not overridable (as on Apple
/// platforms, where overriding `valueForKey:` is not the way to add keys).
///
/// Corresponds to `NSObject`'s implementation of `NSKeyValueCoding` and `NSKeyValueObserving`.
///
/// - Important: Thread safety: as thread-safe as the subclass's properties; observing is
///   thread-safe (see ``KeyValueObservable``).
open class KeyValueObject: KeyValueObservable {
    /// The object's own observation state, or `nil` (the default) to keep it in the
    /// process-wide table (see ``KeyValueObservable/keyValueObservationStorage``). A stored
    /// `let`, so a notification finds it with one load and no retain.
    ///
    /// Classes of this package whose objects change often while a change sink listens
    /// (managed objects) conform to ``KeepsOwnObservationStorage``: their objects keep their
    /// own state, and their notifications take no process-wide lock.
    public final let keyValueObservationStorage: KeyValueObservationStorage?

    /// Creates an object.
    public init() {
        // A conformance check per object made; the runtime caches its answer per class.
        keyValueObservationStorage = Self.self is any KeepsOwnObservationStorage.Type ? KeyValueObservationStorage() : nil
    }

    // MARK: Keys

    /// Computed properties exposed as keys. The default is empty; subclasses merge theirs into
    /// `super.computedKeys`. See ``KeyValueCodable/computedKeys``.
    open class var computedKeys: [String: AnyKeyPath] { [:] }

    /// Validators by key. The default is empty. See ``KeyValueCodable/validators``.
    open class var validators: [String: KeyValueValidator] { [:] }

    /// Element-wise mutators of to-many properties. The default is empty. See
    /// ``KeyValueCodable/toManyMutators``.
    open class var toManyMutators: [String: KeyValueToManyMutators] { [:] }

    // MARK: Change notification

    /// Whether stores notify observers of `key` by themselves. The default is `true`. See
    /// ``KeyValueCodable/automaticallyNotifiesObservers(forKey:)``.
    ///
    /// - Parameter key: A key of the class.
    /// - Returns: Whether changes of `key` are notified automatically.
    open class func automaticallyNotifiesObservers(forKey key: String) -> Bool { true }

    /// The key paths whose values affect the value of `key`. The default is empty. See
    /// ``KeyValueObservable/keyPathsForValuesAffectingValue(forKey:)``.
    ///
    /// - Parameter key: A key of the class.
    /// - Returns: The key paths that affect it.
    open class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> { [] }

    /// Called before every notified change. The default does nothing. See
    /// ``KeyValueCodable/keyValueWillChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    open func keyValueWillChange(_ event: KeyValueChangeEvent) {}

    /// Called after every notified change. The default does nothing. See
    /// ``KeyValueCodable/keyValueDidChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    open func keyValueDidChange(_ event: KeyValueChangeEvent) {}

    // MARK: Undefined keys, nil and validation

    /// Called by `value(forKey:)` for a key the class does not have. The default throws
    /// ``KeyValueCodingError/undefinedKey(_:type:)``. See
    /// ``KeyValueCodable/value(forUndefinedKey:)``.
    ///
    /// - Parameter key: The missing key.
    /// - Returns: A value for the key, in an override.
    /// - Throws: ``KeyValueCodingError/undefinedKey(_:type:)`` by default
    ///   (``KeyValueCodingError/notAKey(_:type:reason:)`` for a `weak` or `lazy` property).
    open func value(forUndefinedKey key: String) throws -> Any? {
        throw undefinedKeyError(key)
    }

    /// Called by `setValue(_:forKey:)` for a key the class does not have. The default throws
    /// ``KeyValueCodingError/undefinedKey(_:type:)``.
    ///
    /// - Parameters:
    ///   - value: The value being set.
    ///   - key: The missing key.
    /// - Throws: ``KeyValueCodingError/undefinedKey(_:type:)`` by default.
    open func setValue(_ value: Any?, forUndefinedKey key: String) throws {
        throw undefinedKeyError(key)
    }

    /// Called by `setValue(_:forKey:)` when `nil` is set into a non-optional property. The
    /// default throws ``KeyValueCodingError/nilNotAllowed(key:type:)``.
    ///
    /// - Parameter key: The key.
    /// - Throws: ``KeyValueCodingError/nilNotAllowed(key:type:)`` by default.
    open func setNilValueForKey(_ key: String) throws {
        throw KeyValueCodingError.nilNotAllowed(key: key, type: String(reflecting: type(of: self)))
    }

    /// Validates a value before it is set. The default runs the validator that
    /// ``validators`` lists for `key`. See ``KeyValueCodable/validateValue(_:forKey:)``.
    ///
    /// - Parameters:
    ///   - value: The proposed value; a validator may replace it.
    ///   - key: The key the value is meant for.
    /// - Throws: ``KeyValueCodingError/validationFailed(key:type:reason:)`` when rejected.
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        try runValidator(&value, forKey: key)
    }
}

/// Marks a ``KeyValueObject`` subclass whose objects keep their own observation state (see
/// ``KeyValueObject/keyValueObservationStorage``): for classes of this package whose objects
/// have a change sink for most of their life.
package protocol KeepsOwnObservationStorage: AnyObject {}
