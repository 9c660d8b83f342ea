// The typed property of a managed-object subclass: the role of Apple's `@NSManaged`.
import Foundation
import KeyValueCoding
import KeyValueObserving

/// A property of a ``ManagedObject`` subclass whose value is the entity property of the same
/// name (Apple: `@NSManaged`).
///
/// ```swift
/// final class Apple: ManagedObject {
///     @Managed var radius: Double          // a missing value reads as 0
///     @Managed var variety: String?
///     @Managed var crate: Crate?           // to-one relationship
/// }
/// final class Crate: ManagedObject {
///     @Managed var fruit: [Apple]          // ordered to-many; Set<Apple> for unordered
/// }
/// try model.setManagedObjectClasses([Apple.self, Crate.self])   // checked here
/// apple.radius = 2.4
/// ```
///
/// The value lives in the object's managed storage: `value(forKey: "radius")` reads the same
/// value, and a store sends the usual will-change and did-change notifications for the key,
/// so the object's context (change tracking, inverse relationships, rollback), key-value
/// observers and Swift's Observation (`withObservationTracking`) all see it. A class whose
/// `automaticallyNotifiesObservers(forKey:)` answers `false` for the key stores silently, as
/// key-value coding does, and sends the notifications itself. Relationships are
/// typed by the destination's class; the storage holds them as `ManagedObject?`,
/// `Set<ManagedObject>` and `[ManagedObject]`, and a typed read of a to-many relationship
/// builds the typed collection (O(*n*)).
///
/// An object whose context was released keeps its last attribute values: a typed attribute
/// store changes the value in the object's memory only (nothing records or saves it), and a
/// typed relationship store changes nothing (its relationships were cut; a store cannot throw
/// where `setValue(_:forKey:)` throws ``ManagedObjectContextError/contextGone(_:)``).
///
/// A property maps to the entity property named as the Swift property. The class must be
/// bound to its entity (``ManagedObjectModel/setManagedObjectClass(_:forEntityNamed:)``),
/// which checks every `@Managed` property against the entity; objects are then made as
/// instances of the class (`Apple(entityName:in:)`, `context.insertNewObject(Apple.self)`).
///
/// - Important: Thread safety: as the object: use it only where it was made.
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue> {
    /// The value, as the managed storage holds it.
    @usableFromInline var storage: Value.ManagedStorage
    /// The property's slot in the object's entity layout, set when the object is made.
    @usableFromInline var slot: Int

    /// Creates the property's storage; the object's entity fills it in when the object is made.
    public init() {
        storage = Value.managedEmptyStorage
        slot = -1
    }

    /// Unavailable: `@Managed` is for properties of `ManagedObject` subclasses only.
    @available(*, unavailable, message: "@Managed is only for properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Managed is only for properties of ManagedObject subclasses") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Managed is only for properties of ManagedObject subclasses") }
    }

    /// Reads and writes the property of `instance` in its managed storage.
    ///
    /// Both accessors are inlined so that the optimiser turns the storage key path into a
    /// direct field access; neither uses a key path otherwise (a used key path is built on
    /// every access). A read is the fault hook, the Observation access report and a field
    /// load; a store is a whole-value change of the key between will-change and did-change.
    @inlinable
    public static subscript<EnclosingSelf: ManagedObject>(
        _enclosingInstance instance: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        @inline(__always) get {
            instance.willReadManagedValue()
            // Constant-folded away for attributes and to-ones.
            if Value.isManagedToManyRelationship, _slowPath(instance.faultedRelationshipSlots != 0) {
                instance.fireRelationshipFault(slot: instance[keyPath: storageKeyPath].slot)
            }
            // Observation, and `observe(\.title)` asking which key a typed property reads. The
            // wrapped key path is not named here: using it on any path builds it on every read.
            instance.reportManagedRead(slot: instance[keyPath: storageKeyPath].slot)
            return Value.managedValue(from: instance[keyPath: storageKeyPath].storage)
        }
        @inline(__always) set {
            let slot = instance[keyPath: storageKeyPath].slot
            // A relationship of an object whose context was released was cut and cannot be
            // set again (no context would keep its inverse or save it): the store changes
            // nothing, as `setValue(_:forKey:)` refuses it (constant-folded for attributes).
            if Value.isManagedRelationship, _slowPath(instance.registrationSequence != 0),
               instance.refusesRelationshipStore() {
                return
            }
            let newStorage = Value.managedStorage(from: newValue)
            if Value.isManagedToManyRelationship {
                // The members it replaces are loaded first (the change records them).
                instance.willReadManagedValue()
                if _slowPath(instance.faultedRelationshipSlots != 0) {
                    instance.fireRelationshipFault(slot: slot)
                }
            }
            if instance.storesQuietly(slot: slot) {
                // The context recorded this slot's change already (this event, the next save)
                // and no key-value observer watches: only the object's hooks hear of it.
                let key = instance.layout.keys[slot]
                instance.keyValueWillChange(KeyValueChangeEvent(.willChange, key: key))
                instance[keyPath: storageKeyPath].storage = newStorage
                instance.keyValueDidChange(KeyValueChangeEvent(.didChange, key: key))
                return
            }
            guard let key = instance.notifyingKey(slot: slot) else {
                // The class sends this key's notifications itself.
                instance[keyPath: storageKeyPath].storage = newStorage
                return
            }
            if !Value.isManagedToManyRelationship, let context = instance.beginQuietChange(slot: slot, key: key) {
                // Only the context hears of it: it records the change itself (first change).
                instance[keyPath: storageKeyPath].storage = newStorage
                context.endQuietAttributeChange(of: instance, slot: slot, key: key)
                return
            }
            instance.willChangeValue(forKey: key)
            instance[keyPath: storageKeyPath].storage = newStorage
            instance.didChangeValue(forKey: key)
        }
    }
}

/// The type-erased view of a `@Managed` property's storage, for the entity layout (reads and
/// writes by byte offset) and for binding checks.
package protocol ManagedFieldStorage: SendableMetatype {
    /// What the property's Swift type stands for.
    static var shape: ManagedPropertyShape { get }
    /// The storage's type (what key-value coding reads and writes).
    static var storageType: Any.Type { get }
    /// The offset of the stored value inside the wrapper.
    static var storageOffset: Int { get }
    /// The stored value at `address`, boxed as the context holds it.
    static func boxedValue(at address: UnsafeMutableRawPointer) -> Any?
    /// Stores a value boxed as the context holds it.
    static func storeBoxedValue(_ value: Any?, at address: UnsafeMutableRawPointer)
    /// Records the slot of the wrapper at `address`.
    static func setSlot(_ slot: Int, at address: UnsafeMutableRawPointer)
}

extension Managed: ManagedFieldStorage {
    package static var shape: ManagedPropertyShape { Value.managedShape }
    package static var storageType: Any.Type { Value.ManagedStorage.self }
    package static var storageOffset: Int { MemoryLayout<Self>.offset(of: \Self.storage) ?? 0 }

    package static func boxedValue(at address: UnsafeMutableRawPointer) -> Any? {
        Value.boxedManagedStorage(address.assumingMemoryBound(to: Self.self).pointee.storage)
    }

    package static func storeBoxedValue(_ value: Any?, at address: UnsafeMutableRawPointer) {
        address.assumingMemoryBound(to: Self.self).pointee.storage = Value.unboxedManagedStorage(value)
    }

    package static func setSlot(_ slot: Int, at address: UnsafeMutableRawPointer) {
        address.assumingMemoryBound(to: Self.self).pointee.slot = slot
    }
}
