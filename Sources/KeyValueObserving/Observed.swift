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
    ///
    /// The compiler calls this subscript from the property's accessors with two key-path
    /// literals. Both accessors are always inlined, so that the optimiser folds
    /// `instance[keyPath: storageKeyPath]` into a direct field access and drops the unused key
    /// paths: an unobserved store is one load, one test and the store. A key path used anywhere
    /// in an accessor, even in a branch never taken, is materialised (`swift_getKeyPath`, retain,
    /// release) on every access, so the store's slow path takes none: it reaches the storage
    /// through the byte offset that the observer list records. The getter keeps the wrapped key
    /// path for the typed `observe(\.name)` probe, which needs it to name the property exactly.
    @inlinable
    public static subscript<EnclosingSelf: KeyValueObservable>(
        _enclosingInstance instance: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        @inline(__always) get {
            instance.observationTrackingAccess(wrappedKeyPath)
            if _slowPath(KeyPathProbe.isActive) {
                KeyPathProbe.recordRead(of: instance, property: wrappedKeyPath,
                                        storage: address(of: &instance[keyPath: storageKeyPath]))
            }
            return instance[keyPath: storageKeyPath].value
        }
        @inline(__always) set {
            instance.observationTrackingWillSet(wrappedKeyPath)
            if let observers = instance[keyPath: storageKeyPath].observers {
                setObserved(newValue, instance, observers)
            } else {
                instance[keyPath: storageKeyPath].value = newValue
            }
            instance.observationTrackingDidSet(wrappedKeyPath)
        }
    }

    /// The address of the wrapper's storage, valid while the caller's access lasts.
    @inlinable @inline(__always)
    static func address(of storage: UnsafeMutablePointer<Self>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(storage)
    }

    /// Stores into an observed property of `instance`, notifying `observers` around the store.
    ///
    /// The storage is reached by the offset recorded in `observers`, outside any Swift access to
    /// the property, so observers may read the object (this property included) while notified.
    @inlinable @inline(never)
    static func setObserved<EnclosingSelf: KeyValueObservable>(_ newValue: Value, _ instance: EnclosingSelf,
                                                                _ observers: KeyObservers) {
        let storage = (UnsafeMutableRawPointer(Unmanaged.passUnretained(instance).toOpaque())
            + observers.storageOffset).assumingMemoryBound(to: Self.self)
        guard observers.notifiesAutomatically else {
            storage.pointee.value = newValue
            return
        }
        let old = storage.pointee.value
        // `notifyingSet(object:old:new:store:)` taken apart, so that the object's hooks are
        // called from code specialised for its class: hooks it does not implement vanish.
        guard let depth = observers.enterNotification() else {
            storage.pointee.value = newValue
            observers.reportSuppressed(object: instance)
            return
        }
        instance.keyValueWillChange(KeyValueChangeEvent(.willChange, key: observers.key))
        observers.deliverSet(object: instance, old: old, new: newValue) {
            storage.pointee.value = newValue
        }
        instance.keyValueDidChange(KeyValueChangeEvent(.didChange, key: observers.key))
        observers.leaveNotification(depth)
    }

    // MARK: KeyValuePropertyWrapper

    /// The stored value, read and written without notifications.
    public var keyValueWrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// Where the value lies inside the wrapper, so key-value coding reads it as a stored field.
    public static var keyValueWrappedValueOffset: Int? { MemoryLayout<Self>.offset(of: \Self.value) }

    /// Stores through key-value coding, notifying this key's observers.
    public static func setKeyValueWrappedValue(_ value: Value, storage: UnsafeMutablePointer<Self>,
                                               object: any KeyValueCodable, key: String) {
        guard let observers = storage.pointee.observers, let observable = object as? any KeyValueObservable else {
            // Nobody listens, but a store through key-value coding still tells the hooks, as
            // it does for every other kind of key.
            object.willChangeValue(forKey: key)
            storage.pointee.value = value
            object.didChangeValue(forKey: key)
            return
        }
        let old = storage.pointee.value
        observers.notifyingSet(object: observable, old: old, new: value) {
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
