// The managed object: an object whose keys are its entity's properties.
import Foundation
import KeyValueCoding
import KeyValueObserving

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
    /// The version of the store row the object's values came from (0: never saved).
    package var storeVersion: Int64 = 0
    /// Whether the values are not loaded yet: the first access loads them from the store.
    package var faultFlag = false
    /// Whether `awakeFromInsert()` ran (it runs once in an object's life).
    package var hasAwokenFromInsert = false

    /// Creates an object of an entity, outside any context (Apple:
    /// `NSManagedObject(entity:insertInto: nil)`), with the attributes' default values.
    ///
    /// - Parameters:
    ///   - entityName: The entity's name.
    ///   - model: The model that has the entity.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)`` when the model has no such
    ///   entity.
    public init(entityName: String, in model: ManagedObjectModel) throws(ManagedObjectModelError) {
        let graph = model.graph
        guard let entity = graph.entity(named: entityName) else {
            throw ManagedObjectModelError(.unknownEntity(entityName))
        }
        self.entity = entity
        self.model = model
        self.layout = graph.layouts.layout(of: entity)
        self.objectID = .temporary(entityName: entityName)
        var values = layout.emptyValues
        for (slot, property) in layout.properties.enumerated() {
            if let attribute = property.attribute { values[slot] = attribute.defaultValueForNewObject }
        }
        self.values = values
        super.init()
    }

    // MARK: Lifecycle

    /// Called once when the object is first inserted into a context; set initial values here
    /// (Apple: `awakeFromInsert()`). Changes made here are part of the insert.
    open func awakeFromInsert() {}

    /// Called after the object's values were loaded from a store (Apple: `awakeFromFetch()`).
    /// Changes made here are not recorded as changes.
    open func awakeFromFetch() {}

    /// Called before the object is saved, for each inserted, updated or deleted object
    /// (Apple: `willSave()`).
    open func willSave() {}

    /// Called after a save reached the store (Apple: `didSave()`).
    open func didSave() {}

    /// Called when the object is about to be deleted, before delete rules run
    /// (Apple: `prepareForDeletion()`).
    open func prepareForDeletion() {}

    /// Called before the object's values are dropped (a refresh turns it into a fault)
    /// (Apple: `willTurnIntoFault()`).
    open func willTurnIntoFault() {}

    /// Called after the object's values were dropped (Apple: `didTurnIntoFault()`).
    open func didTurnIntoFault() {}

    // MARK: Validation

    /// Checks an object about to be inserted by a save (Apple: `validateForInsert()`). The
    /// default checks the entity's rules; override to add your own checks, calling `super`.
    ///
    /// - Throws: ``ManagedObjectValidationError`` (Apple's codes), naming the object and key.
    open func validateForInsert() throws { try validateModelRules() }

    /// Checks a changed object before a save (Apple: `validateForUpdate()`). The default
    /// checks the entity's rules; override to add your own checks, calling `super`.
    open func validateForUpdate() throws { try validateModelRules() }

    /// Checks an object about to be deleted by a save (Apple: `validateForDelete()`): the
    /// default refuses while a deny relationship still has objects
    /// (``ManagedObjectValidationError/Code/relationshipDeniedDelete``).
    open func validateForDelete() throws { try validateDeleteRules() }

    /// Checks one value against the property's rules before it is set (Apple:
    /// `validateValue(_:forKey:)`): the attribute's type, bounds, length and pattern, or the
    /// relationship's count; then any validator of the key table.
    ///
    /// - Throws: ``ManagedObjectValidationError`` for a value the model refuses.
    open override func validateValue(_ value: inout Any?, forKey key: String) throws {
        if let slot = layout.slotByName[key] {
            switch layout.properties[slot] {
            case .attribute(let attribute): try attribute.validate(value, entity: entity.name)
            case .relationship(let relationship): try relationship.validate(value, entity: entity.name)
            case .fetchedProperty: break
            }
        }
        try super.validateValue(&value, forKey: key)
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
        return values[slot]
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
        values[slot] = value
    }

    @inline(__always)
    package func slotValue(_ slot: Int) -> Any? {
        if _slowPath(faultFlag) { fireFault() }
        return values[slot]
    }

    @inline(__always)
    package func storeSlotValue(_ value: Any?, _ slot: Int) {
        if _slowPath(faultFlag) { fireFault() }
        values[slot] = value
    }

    // MARK: Faults

    /// Whether the object's values are not loaded yet (Apple: `isFault`). Reading or writing
    /// any property loads them from the store (fires the fault).
    public var isFault: Bool { faultFlag }

    /// Loads the values of a fault from its context's store. An object whose row is gone keeps
    /// empty values (see ``ManagedObjectContext/existingObject(with:)`` to check first).
    package func fireFault() {
        faultFlag = false
        managedObjectContext?.fulfillFault(self)
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
            switch property {
            case .relationship(let r) where r.isToMany:
                return "\(property.name): \((values[slot] as? Set<ManagedObject>)?.count ?? (values[slot] as? [ManagedObject])?.count ?? 0) objects"
            case .relationship:
                return "\(property.name): \((values[slot] as? ManagedObject)?.objectID.description ?? "nil")"
            default:
                return "\(property.name): \(values[slot].map { String(describing: $0) } ?? "nil")"
            }
        }
        return "<\(entity.name) \(objectID)> { \(pairs.joined(separator: "; ")) }"
    }
}
