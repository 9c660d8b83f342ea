import KeyValueCoding

/// A property of a ``KeyValueObservable`` class that notifies its observers on every store.
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name = ""
/// }
/// person.name = "Ada"     // observers of "name" are notified
/// ```
///
/// Key-value coding sees the property under its plain name (`"name"`), and
/// `setValue(_:forKey:)` notifies as well. A store that no one observes costs one extra check
/// of a reference in the property's storage.
///
/// `@Observed` works only in classes that conform to ``KeyValueObservable`` (it uses the
/// enclosing instance to find the observers). Automatic notifications follow the class's
/// ``KeyValueCodable/automaticallyNotifiesObservers(forKey:)``.
///
/// Corresponds to the setters that Apple's automatic key-value observing overrides at run time.
///
/// - Important: Thread safety: as thread-safe as a plain stored property. The first
///   registration on a property of an object attaches the observer list to the property's
///   storage: do not make it while another thread stores into that same property.
@propertyWrapper
public struct Observed<Value>: KeyValuePropertyWrapper {
    @usableFromInline var value: Value
    @usableFromInline var observers: KeyObservers?

    /// Creates the property with its initial value.
    @inlinable
    public init(wrappedValue: Value) {
        value = wrappedValue
        observers = nil
    }

    /// Unavailable: `@Observed` is for properties of `KeyValueObservable` classes only.
    @available(*, unavailable, message: "@Observed is only for properties of KeyValueObservable classes")
    public var wrappedValue: Value {
        get { fatalError("@Observed is only for properties of KeyValueObservable classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Observed is only for properties of KeyValueObservable classes") }
    }

    /// Reads and writes the property of `instance`, notifying observers on writes.
    @inlinable
    public static subscript<EnclosingSelf: KeyValueObservable>(
        _enclosingInstance instance: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            instance.observationTrackingAccess(wrappedKeyPath)
            if _slowPath(KeyPathProbe.isActive) {
                KeyPathProbe.record(wrapped: wrappedKeyPath, storage: storageKeyPath)
            }
            let offset = StorageOffsetCache.offset(of: storageKeyPath, in: EnclosingSelf.self)
            guard offset >= 0 else { return instance[keyPath: storageKeyPath].value }
            return storage(of: instance, at: offset).pointee.value
        }
        set {
            instance.observationTrackingWillSet(wrappedKeyPath)
            let offset = StorageOffsetCache.offset(of: storageKeyPath, in: EnclosingSelf.self)
            if _fastPath(offset >= 0) {
                let address = storage(of: instance, at: offset)
                if let observers = address.pointee.observers {
                    setObserved(newValue, instance, address, observers)
                } else {
                    address.pointee.value = newValue
                }
            } else if let observers = instance[keyPath: storageKeyPath].storeUnobserved(newValue) {
                setObservedThroughKeyPath(newValue, instance, storageKeyPath, observers)
            }
            instance.observationTrackingDidSet(wrappedKeyPath)
        }
    }

    /// The address of the wrapper's storage inside `instance`.
    @inlinable @inline(__always)
    static func storage(of instance: AnyObject, at offset: Int) -> UnsafeMutablePointer<Self> {
        (UnsafeMutableRawPointer(Unmanaged.passUnretained(instance).toOpaque()) + offset)
            .assumingMemoryBound(to: Self.self)
    }

    /// Stores `newValue` and returns nil when no one observes; otherwise returns the observers
    /// and leaves the value unchanged.
    @inlinable @inline(__always)
    mutating func storeUnobserved(_ newValue: Value) -> KeyObservers? {
        if let observers { return observers }
        value = newValue
        return nil
    }

    @inlinable @inline(never)
    static func setObserved(_ newValue: Value, _ instance: AnyObject, _ address: UnsafeMutablePointer<Self>,
                            _ observers: KeyObservers) {
        guard observers.notifiesAutomatically else {
            address.pointee.value = newValue
            return
        }
        let old = address.pointee.value
        observers.notifyingSet(object: instance, old: old, new: newValue) {
            address.pointee.value = newValue
        }
    }

    @inlinable @inline(never)
    static func setObservedThroughKeyPath<EnclosingSelf: KeyValueObservable>(
        _ newValue: Value, _ instance: EnclosingSelf,
        _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>, _ observers: KeyObservers
    ) {
        guard observers.notifiesAutomatically else {
            instance[keyPath: storageKeyPath].value = newValue
            return
        }
        let old = instance[keyPath: storageKeyPath].value
        observers.notifyingSet(object: instance, old: old, new: newValue) {
            instance[keyPath: storageKeyPath].value = newValue
        }
    }

    // MARK: KeyValuePropertyWrapper

    /// The stored value, read and written without notifications.
    public var keyValueWrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// Stores through key-value coding, notifying this key's observers.
    public static func setKeyValueWrappedValue(_ value: Value, storage: UnsafeMutablePointer<Self>,
                                               object: any KeyValueCodable, key: String) {
        guard let observers = storage.pointee.observers else {
            storage.pointee.value = value
            return
        }
        let old = storage.pointee.value
        observers.notifyingSet(object: object, old: old, new: value) {
            storage.pointee.value = value
        }
    }
}

extension Observed: ObservedStorage {
    static func attachedObservers(at address: UnsafeMutableRawPointer) -> KeyObservers? {
        address.assumingMemoryBound(to: Self.self).pointee.observers
    }

    static func attach(_ observers: KeyObservers, at address: UnsafeMutableRawPointer) {
        address.assumingMemoryBound(to: Self.self).pointee.observers = observers
    }
}
