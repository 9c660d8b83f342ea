import Foundation
import KeyValueCoding
import Synchronization

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
    /// The address of the object's own observation state, retained by the object, once it has
    /// one; ``keepsOwnButHasNone`` until then for classes conforming to
    /// ``KeepsOwnObservationStorage`` (made when first needed: an observer, a change sink
    /// installed with ``KeyValueObservable/setKeyValueChangeSink(_:)``); 0 for other classes
    /// (their state lives in the process-wide table). Set once, read without a lock.
    @usableFromInline final let ownStorageAddress: Atomic<UInt>
    /// The observation state that the object's owner shares among all its objects (a managed
    /// object's context), retained by the object: it holds the owner's change sink and never an
    /// observer list, so an object nobody observes needs no state of its own. `nil` outside an
    /// owner. Set only by the owner, on the thread that uses the object (see
    /// ``setOwnerObservationStorage(_:)``).
    // Unchecked: read on every notification; the owner writes it on the object's thread.
    @usableFromInline @exclusivity(unchecked) final var ownerStorage: Unmanaged<KeyValueObservationStorage>?

    /// Whether the object holds an owner's shared state (``setOwnerObservationStorage(_:)``):
    /// an owner registered it and has not let it go, whether or not the owner still lives.
    @inlinable @inline(__always)
    package final var hasOwnerObservationStorage: Bool { ownerStorage != nil }

    /// ``ownStorageAddress`` of an object that keeps its own state and has not made it yet.
    @usableFromInline static var keepsOwnButHasNone: UInt { 1 }

    /// The object's observation state: its own once it has one, else the state its owner
    /// shares (holding only the owner's change sink), else `nil` (nobody observes the object,
    /// or its class keeps the state in the process-wide table; see
    /// ``KeyValueObservable/keyValueObservationStorage``).
    ///
    /// Classes of this package whose objects change often while a change sink listens
    /// (managed objects) conform to ``KeepsOwnObservationStorage``: their objects make their
    /// own state when first observed, and their notifications take no process-wide lock.
    @inlinable
    public final var keyValueObservationStorage: KeyValueObservationStorage? {
        @inline(__always) get { unmanagedObservationStorage?.takeUnretainedValue() }
    }

    /// ``keyValueObservationStorage``, unretained (the object holds it): what a notification
    /// reads, with no retain and release.
    @inlinable @inline(__always)
    package final var unmanagedObservationStorage: Unmanaged<KeyValueObservationStorage>? {
        let own = ownStorageAddress.load(ordering: .acquiring)
        if own > Self.keepsOwnButHasNone {
            return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: own).unsafelyUnwrapped)
        }
        return ownerStorage
    }

    /// Whether the object keeps its own observation state (made when first needed), never an
    /// entry in the process-wide table.
    @inlinable @inline(__always)
    package final var keepsOwnObservationStorage: Bool { ownStorageAddress.load(ordering: .relaxed) != 0 }

    /// Creates an object.
    public init() {
        ownStorageAddress = Atomic(0)
    }

    /// Makes the object keep its own observation state, made when first needed (instead of an
    /// entry in the process-wide table). Called once by the initialiser of a class conforming to
    /// ``KeepsOwnObservationStorage``, before the object is observed or shared.
    package final func keepOwnObservationStorage() {
        ownStorageAddress.store(Self.keepsOwnButHasNone, ordering: .releasing)
    }

    deinit {
        let own = ownStorageAddress.load(ordering: .acquiring)
        if own > Self.keepsOwnButHasNone {
            Unmanaged<KeyValueObservationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: own).unsafelyUnwrapped).release()
        }
        ownerStorage?.release()
    }

    /// The object's own observation state, made on first use (thread-safe: two threads making
    /// it at once get the same one). A state made while the object has an owner carries the
    /// owner's change sink.
    package final func makeOwnObservationStorage() -> KeyValueObservationStorage {
        let current = ownStorageAddress.load(ordering: .acquiring)
        if current > Self.keepsOwnButHasNone {
            return Unmanaged<KeyValueObservationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: current).unsafelyUnwrapped)
                .takeUnretainedValue()
        }
        precondition(current == Self.keepsOwnButHasNone, "\(type(of: self)) does not keep its own observation state")
        let made = KeyValueObservationStorage()
        if let ownerStorage { made.adoptSink(of: ownerStorage.takeUnretainedValue()) }
        let retained = Unmanaged.passRetained(made)
        let (exchanged, original) = ownStorageAddress.compareExchange(
            expected: Self.keepsOwnButHasNone, desired: UInt(bitPattern: retained.toOpaque()),
            ordering: .acquiringAndReleasing)
        guard exchanged else {
            retained.release()
            return Unmanaged<KeyValueObservationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: original).unsafelyUnwrapped)
                .takeUnretainedValue()
        }
        return made
    }

    /// Makes the object one of an owner's objects (`nil`: of none): its changes reach the change
    /// sink of `owner`, a state made with ``KeyValueObservationStorage/init(sharingSink:)`` and
    /// shared by all the owner's objects, as if the sink were installed with
    /// ``KeyValueObservable/setKeyValueChangeSink(_:)`` (which it replaces), without a state
    /// of the object's own. An object that has its own state (it is observed) gets the owner's
    /// sink installed there.
    ///
    /// - Precondition: The class conforms to ``KeepsOwnObservationStorage`` and its key table
    ///   has no `@Observed` properties (a managed object's entity keys).
    /// - Important: Thread safety: call it where the object is used (a managed object's context
    ///   thread), not while another thread notifies a change of the object or observes it for
    ///   the first time.
    package final func setOwnerObservationStorage(_ owner: KeyValueObservationStorage?) {
        let previous = ownerStorage
        ownerStorage = owner.map { Unmanaged.passRetained($0) }
        previous?.release()
        let own = ownStorageAddress.load(ordering: .acquiring)
        if own > Self.keepsOwnButHasNone {
            Unmanaged<KeyValueObservationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: own).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef { $0.adoptSink(of: owner) }
        }
    }

    /// Delivers a change notification to the object's hooks, change sink and observers. You
    /// do not call it: call ``KeyValueCodable/willChangeValue(forKey:)`` and its relatives. See
    /// ``KeyValueObservable/deliverKeyValueChange(_:)``.
    ///
    /// - Parameter event: The change.
    @inlinable @inline(__always)
    public final func deliverKeyValueChange(_ event: KeyValueChangeEvent) {
        ObservationCenter.deliver(event, fromKeyValueObject: self)
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
/// ``KeyValueObject/keyValueObservationStorage``), made when first observed (its initialiser
/// calls ``KeyValueObject/keepOwnObservationStorage()``), and can share
/// their owner's change sink (``KeyValueObject/setOwnerObservationStorage(_:)``): for classes
/// of this package whose objects have a change sink for most of their life.
package protocol KeepsOwnObservationStorage: AnyObject {}
