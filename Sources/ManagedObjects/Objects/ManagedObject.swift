// The managed object: an object whose keys are its entity's properties.
import Foundation
import KeyValueCoding
import KeyValueObserving
import Observation

/// An object whose properties are those of an entity in a managed object model
/// (Apple: `NSManagedObject`).
///
/// Key-value coding and observing work on a managed object as on any observable object: string
/// keys and key paths (`value(forKey:)`, `setValue(_:forKey:)`), collection operators,
/// predicates, sort descriptors and observers all see the entity's attributes and
/// relationships. Values live in the object's storage, one slot per property (inherited ones
/// included).
///
/// Attribute keys hold optional values of the attribute type's Swift type (`Int16?`,
/// `String?`, `Date?`…), converting what they are given as key-value coding does (numbers
/// bridge; a value of another type is a thrown ``KeyValueCodingError``). To-one relationships
/// hold a `ManagedObject?`, to-many relationships a `Set<ManagedObject>`, ordered ones a
/// `[ManagedObject]`. A key the entity does not have throws
/// ``KeyValueCodingError/undefinedKey(_:type:)``.
///
/// - Important: Thread safety: not `Sendable`. Use an object only where it was made (later:
///   on its context's queue); pass its ``objectID`` to other threads.
open class ManagedObject: KeyValueObject, KeyValueKeyTableProviding {
    /// The object's entity (Apple: `entity`).
    public let entity: EntityDescription
    /// The model the entity belongs to.
    public let model: ManagedObjectModel
    /// The object's identity (Apple: `objectID`): temporary until saved to a store.
    public package(set) var objectID: ManagedObjectID
    package let layout: EntityLayout
    package var values: ContiguousArray<Any?>
    /// The context the object is registered in (Apple: `managedObjectContext`); `nil` for an
    /// object made outside a context, and after its context is gone.
    public package(set) weak var managedObjectContext: ManagedObjectContext?
    /// The registrar that reports typed reads and every change to Swift's Observation; made by
    /// the first typed read (nobody can track an object before it).
    // Unchecked: read on every change (a dynamic exclusivity check would cost more than the
    // read); only this object's own methods, on its thread, touch it.
    @exclusivity(unchecked) package var observationTracking: ObservationTrackingBox?
    /// Whether typed reads report to Observation: the class's
    /// ``isObservationTrackingEnabled``, read once.
    @usableFromInline let reportsObservationAccess: Bool

    /// The name of the entity this class is bound to by
    /// ``ManagedObjectModel/setManagedObjectClasses(_:)`` and that ``init(in:)`` makes
    /// (Apple: the class's `entity()`). The default is the class's name.
    open class var entityName: String { String(describing: self) }

    /// Whether typed (`@Managed`) reads of this class's objects report to Swift's Observation,
    /// so that `withObservationTracking` (and SwiftUI) see them. The default is `true`.
    ///
    /// A report costs a call into the Observation registrar on every typed read (tens of
    /// nanoseconds; see Docs/Performance.md); a class whose objects are never tracked can
    /// override this with `false` to make a typed read a field load. Changes still tell
    /// Observation about objects that were read while tracking was enabled.
    open class var isObservationTrackingEnabled: Bool { true }

    /// Creates an object of an entity, outside any context (Apple:
    /// `NSManagedObject(entity:insertInto: nil)`), with the attributes' default values.
    ///
    /// Call it on the class bound to the entity (``ManagedObjectModel/managedObjectClass(forEntityNamed:)``;
    /// `ManagedObject` for an entity without a class): `Apple(entityName: "Apple", in: model)`.
    ///
    /// - Parameters:
    ///   - entityName: The entity's name.
    ///   - model: The model that has the entity.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)`` when the model has no such
    ///   entity; ``ManagedObjectModelError/Code/classMismatch(_:)`` when the entity's objects
    ///   are of another class.
    public required init(entityName: String, in model: ManagedObjectModel) throws(ManagedObjectModelError) {
        let (graph, classes) = model.graphAndClasses
        guard let entity = graph.entity(named: entityName) else {
            throw ManagedObjectModelError(.unknownEntity(entityName))
        }
        let objectClass = ClassBindingCheck(graph: graph, classes: classes).effectiveClass(of: entityName)
        guard objectClass == Self.self else {
            throw ManagedObjectModelError(.classMismatch("the entity's objects are of class \(objectClass), not \(Self.self)"),
                                          entity: entityName)
        }
        self.entity = entity
        self.model = model
        let layout = graph.layouts.layout(of: entity, objectClass: objectClass)
        self.layout = layout
        self.objectID = .temporary(entityName: entityName)
        self.reportsObservationAccess = Self.isObservationTrackingEnabled
        self.values = ContiguousArray(layout.properties.map { property in
            layout.hasFields ? nil : property.attribute?.defaultValueForNewObject
        })
        super.init()
        if layout.hasFields { initializeFields() }
    }

    /// Creates an object of the entity this class is bound to (``entityName``), outside any
    /// context.
    ///
    /// - Parameter model: The model the class is bound in.
    /// - Throws: As ``init(entityName:in:)``.
    public convenience init(in model: ManagedObjectModel) throws(ManagedObjectModelError) {
        try self.init(entityName: Self.entityName, in: model)
    }

    /// Gives every `@Managed` property its slot, and every slot its default value.
    private func initializeFields() {
        for (slot, property) in layout.properties.enumerated() {
            let initial = property.attribute?.defaultValueForNewObject
            if let field = layout.fields[slot] {
                let address = Self.fieldAddress(self, field.offset)
                field.storage.setSlot(slot, at: address)
                field.storage.storeBoxedValue(initial, at: address)
            } else {
                values[slot] = initial
            }
        }
    }

    // MARK: Change hooks

    /// Called before every notified change; tells Swift's Observation. Overrides must call
    /// `super`. See ``KeyValueObject/keyValueWillChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    open override func keyValueWillChange(_ event: KeyValueChangeEvent) {
        if let tracking = observationTracking { observationWillChange(event, tracking) }
    }

    /// Called after every notified change; tells Swift's Observation. Overrides must call
    /// `super`. See ``KeyValueObject/keyValueDidChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    open override func keyValueDidChange(_ event: KeyValueChangeEvent) {
        if let tracking = observationTracking { observationDidChange(event, tracking) }
    }

    // MARK: Key tables

    /// The entity's keys.
    public var keyValueKeyTable: KeyValueKeyTable { layout.keyTable }

    /// The entity's keys, unretained (tables live for the rest of the process).
    public var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> { Unmanaged.passUnretained(layout.keyTable) }

    // MARK: Primitive access

    /// The stored value of a property, without notifications or faulting
    /// (Apple: `primitiveValue(forKey:)`). `nil` for a key the entity does not have.
    ///
    /// - Parameter key: The property's name.
    public func primitiveValue(forKey key: String) -> Any? {
        guard let slot = layout.slotByName[key] else { return nil }
        return slotValue(slot)
    }

    /// Stores a value without notifications or change tracking
    /// (Apple: `setPrimitiveValue(_:forKey:)`).
    ///
    /// - Parameters:
    ///   - value: The value, of the property's type.
    ///   - key: The property's name.
    /// - Throws: ``KeyValueCodingError/undefinedKey(_:type:)`` for a key the entity does not have.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws {
        guard let slot = layout.slotByName[key] else {
            throw KeyValueCodingError.undefinedKey(key, type: entity.name)
        }
        storeSlotValue(value, slot)
    }

    /// The value of a slot, boxed: from the value array, or from a `@Managed` property's
    /// storage. With ``storeSlotValue(_:_:)`` the only way the context reaches values.
    @inline(__always)
    package func slotValue(_ slot: Int) -> Any? {
        if layout.hasFields, let field = layout.fields[slot] {
            return field.storage.boxedValue(at: Self.fieldAddress(self, field.offset))
        }
        return values[slot]
    }

    /// Stores a boxed value into a slot, without notifications. See ``slotValue(_:)``.
    @inline(__always)
    package func storeSlotValue(_ value: Any?, _ slot: Int) {
        if layout.hasFields, let field = layout.fields[slot] {
            field.storage.storeBoxedValue(value, at: Self.fieldAddress(self, field.offset))
            return
        }
        values[slot] = value
    }

    /// The address `offset` bytes into `object` (a `@Managed` property's storage).
    @inline(__always)
    package static func fieldAddress(_ object: AnyObject, _ offset: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
    }

    // MARK: Typed access (`@Managed`)

    /// The hook a typed read passes first: where faulting will fire a fault (a check of a
    /// flag). Costs nothing now.
    @inlinable @inline(__always)
    func willReadManagedValue() {}

    /// The key of `slot` for a typed store's notifications; `nil` when the class does not
    /// notify that key automatically.
    @usableFromInline
    func notifyingKey(slot: Int) -> String? {
        layout.notifiesAutomatically[slot] ? layout.keys[slot] : nil
    }
}

extension ManagedObject: Hashable {
    /// Objects are equal only to themselves (Apple: `NSManagedObject` uses identity).
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension ManagedObject: CustomStringConvertible {
    /// The entity, the ID and the values.
    public var description: String {
        let pairs = layout.properties.enumerated().map { slot, property -> String in
            let value = slotValue(slot)
            switch property {
            case .relationship(let r) where r.isToMany:
                return "\(property.name): \((value as? Set<ManagedObject>)?.count ?? (value as? [ManagedObject])?.count ?? 0) objects"
            case .relationship:
                return "\(property.name): \((value as? ManagedObject)?.objectID.description ?? "nil")"
            default:
                return "\(property.name): \(value.map { String(describing: $0) } ?? "nil")"
            }
        }
        return "<\(entity.name) \(objectID)> { \(pairs.joined(separator: "; ")) }"
    }
}
