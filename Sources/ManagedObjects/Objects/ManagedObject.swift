// The managed object: an object whose keys are its entity's properties.
import Foundation
import KeyValueCoding
import KeyValueObserving
import Observation
import ObjectGraphInternals

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
/// ``KeyValueCodingError/undefinedProperty(_:entity:properties:)``.
///
/// - Important: Thread safety: not `Sendable`. Use an object where its context is used (for a
///   queue context, inside its perform blocks); pass its ``objectID`` to other threads.
open class ManagedObject: KeyValueObject, KeyValueKeyTableProviding, KeyPathNamingObject,
                           KeepsOwnObservationStorage {
    /// The object's entity (Apple: `entity`).
    // Read through the layout (shared by every object of the entity and class): an object
    // holding its own copy of the description retained and released each of its fields.
    public var entity: EntityDescription { layout.entity }
    /// The model the entity belongs to (Apple: `entity.managedObjectModel`).
    ///
    /// Named so that a subclass can declare `@Managed var model` for an entity attribute
    /// called `model` (see "Names a subclass cannot use" in ManagedObjects.md).
    public let managedObjectModel: ManagedObjectModel
    /// The object's identity (Apple: `objectID`): temporary until saved to a store.
    public package(set) var objectID: ManagedObjectID {
        get {
            if let assigned = assignedObjectID { return assigned }
            return assignTemporaryID()
        }
        set { assignedObjectID = newValue }
    }
    /// The object's ID once it has one: the context sets a fetched object's (permanent) ID
    /// right after making it, so a temporary ID is made only when first asked for
    /// (``assignTemporaryID()``), never for an object that gets a known ID.
    // Unchecked (as `faultFlag`): only this object's own methods and its context, on its
    // thread, touch it.
    @exclusivity(unchecked) private var assignedObjectID: ManagedObjectID?
    /// The object's ID if it has one yet, without making a temporary one (`nil` for a new
    /// object nobody asked for its ID: its context registers it without one, and its first
    /// save gives it its permanent ID directly). Set back to `nil` only by a save that failed
    /// to give an object its first ID.
    package var knownObjectID: ManagedObjectID? {
        get { assignedObjectID }
        set { assignedObjectID = newValue }
    }
    @usableFromInline package let layout: EntityLayout
    /// The values of the slots not held in `@Managed` storage.
    // Unchecked (as `faultFlag`): read and written by every key-value coding access of a
    // slot (a dynamic exclusivity check costs as much as the rest of a read); only this
    // object's own methods and its context, on its thread, touch it.
    @exclusivity(unchecked) package var values: ContiguousArray<Any?>
    /// The context the object is registered in (Apple: `managedObjectContext`); `nil` for an
    /// object made outside a context, and after its context is gone.
    // Unchecked (as `faultFlag`): set by every registration, read by every insert and by
    // changes that take the full way.
    @exclusivity(unchecked) public package(set) weak var managedObjectContext: ManagedObjectContext?
    /// The version of the store row the object's values came from (0: never saved).
    // Unchecked (as `faultFlag`): read and set once per object by every save's rows.
    @exclusivity(unchecked) package var storeVersion: Int64 = 0
    /// Whether the values are not loaded yet: the first access loads them from the store.
    // Unchecked: read on every typed read (a dynamic exclusivity check would cost more than the
    // read); only this object's own methods, on its thread, touch it. Final: a typed read in
    // another module then loads it, where an overridable property is read through a call.
    @exclusivity(unchecked) @usableFromInline package final var faultFlag = false
    /// Whether a key-path probe is reading the object (`observe(\.title)` asking which key a
    /// typed property reads): typed reads then tell the probe their keys.
    // Unchecked (as `faultFlag`): read on every typed read; set only around a probe's read.
    // Final: read by typed getters inlined into subclasses in other modules.
    @exclusivity(unchecked) @usableFromInline package final var isReadByKeyPathProbe = false
    /// The to-many relationships whose members are not loaded yet (relationship faults), one
    /// bit per slot (slots 0–63; later slots always load with the object): the first access
    /// of such a slot asks the store for its members.
    // Unchecked: read on every slot access, like `faultFlag`; only this object's own methods,
    // on its thread, touch it.
    @exclusivity(unchecked) @usableFromInline package final var faultedRelationshipSlots: UInt64 = 0
    /// When the object was registered in its context, relative to the context's other objects.
    /// 0 until the object is first registered in a context (so an object that never was has
    /// no context: a store into it need not look for one).
    // Final: read by inlined setters of subclasses in other modules (no accessor call).
    // Unchecked (as `faultFlag`): only the object's context writes it, on its thread.
    @exclusivity(unchecked) @usableFromInline final package var registrationSequence: UInt64 = 0
    /// The batch of a batched fetch (`fetchBatchSize`) the fault belongs to: firing it fills
    /// the batch's faults with one store query.
    package var fetchBatch: FetchBatch?
    /// Whether `awakeFromInsert()` ran (it runs once in an object's life).
    // Unchecked (as `faultFlag`): read and set by every insert.
    @exclusivity(unchecked) package var hasAwokenFromInsert = false
    /// The position in the entity's key table of the key last set by key
    /// (``setValue(_:forKey:)``), truncated to a byte: the next store by key tries the key after
    /// it, then it, before scanning the keys (``KeyValueKeyTable/position(ofKey:after:)``).
    // Unchecked (as `faultFlag`): read and set by every store by key; a byte beside the flags
    // (no larger object).
    @exclusivity(unchecked) package var keyPositionHint: UInt8 = 0
    /// Which of its context's inserted, updated and deleted sets hold the object (kept by
    /// ``TrackedObjectSet``).
    // Unchecked (as `observationTracking`): touched on every change, only by the object's
    // context on its thread.
    @exclusivity(unchecked) package var changeSetMembership: ChangeSetMembership = []
    /// The object's place in each change set that holds it (kept by ``TrackedObjectSet``).
    // Unchecked (as `changeSetMembership`).
    @exclusivity(unchecked) package var changeSetPlaces = ChangeSetPlaces()
    /// Whether a saved slot may hold a value that differs from the object's stored row at its
    /// ``storeVersion`` although no committed value records the change: set by
    /// ``setPrimitiveValue(_:forKey:)`` and by changes the context does not record (while it
    /// restores or loads values, `awakeFromFetch()` included); cleared when the object's
    /// whole row is written by a save. A save then writes every column of the object's row,
    /// not only the changed ones (``StoreSaveChanges/updatedSlotMasks``).
    @exclusivity(unchecked) package var hasUnrecordedValues = false
    /// The slot of the key last announced to the context (a hint that spares the did-change
    /// half of a change the key look-up; checked against the key before use).
    @exclusivity(unchecked) package var changingSlotHint = -1
    /// The committed values of the slots changed since the last save (what `rollback()`
    /// restores and `committedValues(forKeys:)` answers), recorded by the context on a slot's
    /// first change; `nil` when nothing changed (see ManagedObjectContext+ChangeRecords.swift).
    // Unchecked (as `changeSetMembership`): only the object's context, on its thread.
    @exclusivity(unchecked) package var committedRecord: SlotRecord?
    /// The values of the slots changed in the current user event, as they were at its start
    /// (what `changedValuesForCurrentEvent()` compares with); `nil` when none changed.
    @exclusivity(unchecked) package var eventRecord: SlotRecord?
    /// The slots (below 64, one bit each) whose change the context has fully recorded for the
    /// current event and the next save: a typed store into one tells only the object's hooks
    /// (Swift's Observation) while no key-value observer watches the object. Set by the
    /// context after a slot's first change in an event; cleared whenever what it stands for
    /// may change (a new event, a save, a rollback, a change-set membership change, an undo
    /// manager, a refresh, leaving the context).
    // Unchecked: read on every typed store; only the object's context writes it, on its thread.
    // Final: read by inlined setters of subclasses in other modules (no accessor call).
    @usableFromInline @exclusivity(unchecked) final package var quietSlots: UInt64 = 0
    /// The confinement guard of the context while ``quietSlots`` is not empty (unretained: the
    /// context clears it before it goes away, and when the object leaves it).
    @usableFromInline @exclusivity(unchecked) final package var quietConfinement: Unmanaged<ConfinementGuard>?
    /// The registrar that reports typed reads and every change to Swift's Observation; made by
    /// the first typed read (nobody can track an object before it).
    // Unchecked: read on every change (a dynamic exclusivity check would cost more than the
    // read); only this object's own methods, on its thread, touch it. Final: read by the
    // change hooks inlined into typed setters of subclasses in other modules (no accessor call).
    @usableFromInline @exclusivity(unchecked) final package var observationTracking: ObservationTrackingBox?
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
    /// A report costs a call into the Observation registrar on every typed read (about as much
    /// again as the rest of the read; see Docs/Performance.md); a class whose objects are never
    /// tracked can override this with `false` to make a typed read a field load. Changes still tell
    /// Observation about objects that were read while tracking was enabled.
    open class var isObservationTrackingEnabled: Bool { true }

    // The value array goes with the object: its plain values (numbers, flags, dates, nils)
    // need no destruction one by one through the generic witnesses (AnyArrayTeardown).
    deinit { AnyArrayTeardown.empty(&values) }

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
        // Stored at once and read back from the object: no local copy of the layout or of the
        // values to retain for the store and release at the end.
        self.layout = try Self.creationLayout(entityName: entityName, in: model)
        self.managedObjectModel = model
        self.reportsObservationAccess = Self.isObservationTrackingEnabled
        // Unretained: the object holds the layout.
        self.values = Unmanaged.passUnretained(layout)._withUnsafeGuaranteedRef { $0.newObjectArrayValues() }
        // KeepsOwnObservationStorage: no observation state is made here. A context's objects
        // share its state for its change sink; an object makes its own when first observed,
        // and the process-wide table (a lock per notification) is never used.
        super.init()
        keepOwnObservationStorage()
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

    /// The layout of a new object of `entityName` of this class: the one the model remembers
    /// from an earlier creation, else found (the entity looked up, the class binding checked)
    /// and remembered.
    private static func creationLayout(entityName: String,
                                       in model: ManagedObjectModel) throws(ManagedObjectModelError) -> EntityLayout {
        if let known = model.creationLayout(entityName: entityName, objectClass: Self.self) { return known }
        let (graph, classes, generation) = model.graphClassesAndGeneration
        guard let entity = graph.entity(named: entityName) else {
            throw ManagedObjectModelError(.unknownEntity(entityName))
        }
        let objectClass = ClassBindingCheck(graph: graph, classes: classes).effectiveClass(of: entityName)
        guard objectClass == Self.self else {
            throw ManagedObjectModelError(.classMismatch("the entity's objects are of class \(objectClass), not \(Self.self)"
                + ClassBindingCheck.bindingAdvice(objectClass: objectClass, wanted: Self.self)),
                                          entity: entityName)
        }
        let layout = graph.layouts.layout(of: entity, objectClass: objectClass)
        model.rememberCreationLayout(layout, entityName: entityName, objectClass: objectClass, generation: generation)
        return layout
    }

    /// Makes, assigns and returns a temporary ID: an object's first ID when it was not given
    /// one (an insert's new object).
    @inline(never)
    private func assignTemporaryID() -> ManagedObjectID {
        let id = ManagedObjectID.temporary(entityName: layout.entity.name)
        assignedObjectID = id
        return id
    }

    /// Gives every `@Managed` property its slot, and every slot its default value.
    private func initializeFields() {
        var initialValues = layout.newObjectValues
        for slot in layout.freshDefaultSlots { initialValues[slot] = layout.properties[slot].attribute?.defaultValueForNewObject }
        for slot in layout.properties.indices {
            let initial = initialValues[slot]
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
    // Inlinable: a typed store into an object of a final subclass that does not override the
    // hooks calls this one statically, and inlined it is a few loads unless Observation may be
    // tracking the object's layout (no call, no event made, no key retained).
    @inlinable @inline(__always)
    open override func keyValueWillChange(_ event: KeyValueChangeEvent) {
        // The layout's check first: it loads plain fields, where the registrar is a retain.
        if observationTracking != nil, layout.anySlotMayBeTracked, let tracking = observationTracking {
            observationWillChange(event, tracking)
        }
    }

    /// Called after every notified change; tells Swift's Observation. Overrides must call
    /// `super`. See ``KeyValueObject/keyValueDidChange(_:)``.
    ///
    /// - Parameter event: The key and kind of the change.
    @inlinable @inline(__always)
    open override func keyValueDidChange(_ event: KeyValueChangeEvent) {
        if observationTracking != nil, layout.anySlotMayBeTracked, let tracking = observationTracking {
            observationDidChange(event, tracking)
        }
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

    /// Called for a key the entity does not have (nor the class as a computed key). The default
    /// throws ``KeyValueCodingError/undefinedProperty(_:entity:properties:)`` naming the entity.
    open override func value(forUndefinedKey key: String) throws -> Any? { throw undefinedPropertyError(key) }

    /// Called for a key the entity does not have, when setting. The default throws
    /// ``KeyValueCodingError/undefinedProperty(_:entity:properties:)`` naming the entity.
    open override func setValue(_ value: Any?, forUndefinedKey key: String) throws { throw undefinedPropertyError(key) }

    // MARK: Key tables

    /// The entity's keys.
    public final var keyValueKeyTable: KeyValueKeyTable { layout.keyTable }

    /// The entity's keys, unretained (tables live for the rest of the process). Final: every
    /// key-value coding access reads it, and an overridable property is read through a call.
    public final var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> { Unmanaged.passUnretained(layout.keyTable) }

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
    /// A relationship takes only what ``setValue(_:forKey:)`` takes (a typed read of it could
    /// not give anything else back): an object of the destination entity or one of its
    /// subentities, or `nil`, for a to-one; a `Set<ManagedObject>` (an `[ManagedObject]` without
    /// repeats when ordered) of such objects, or `nil` to empty it, for a to-many.
    ///
    /// - Parameters:
    ///   - value: The value, of the property's type.
    ///   - key: The property's name.
    /// - Throws: ``KeyValueCodingError/undefinedProperty(_:entity:properties:)`` for a key the
    ///   entity does not have; for a relationship, ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)``
    ///   for a value of another shape or an object of another entity, and
    ///   ``KeyValueCodingError/validationFailed(key:type:reason:)`` for an ordered one holding an
    ///   object twice. Nothing is stored then.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws {
        guard let slot = layout.slotByName[key] else { throw undefinedPropertyError(key) }
        var value = value
        if case .relationship(let relationship) = layout.properties[slot] {
            try checkPrimitiveRelationshipValue(value, for: relationship)
            // A to-many relationship is never `nil`: `nil` empties it.
            if value == nil { value = layout.emptyValue(slot) }
        }
        // Not recorded as a change: a later save writes the object's whole row.
        hasUnrecordedValues = true
        storeSlotValue(value, slot)
    }

    /// The value of a slot, boxed: from the value array, or from a `@Managed` property's
    /// storage; a fault loads first. With ``storeSlotValue(_:_:)`` the only way the context
    /// reaches values.
    @inline(__always)
    package func slotValue(_ slot: Int) -> Any? {
        if _slowPath(faultFlag) { fireFault() }
        if _slowPath(faultedRelationshipSlots != 0) { fireRelationshipFault(slot: slot) }
        if layout.hasFields, let field = layout.fields[slot] {
            return field.storage.boxedValue(at: Self.fieldAddress(self, field.offset))
        }
        return copyOfArraySlot(slot)
    }

    /// ``slotValue(_:)`` of a slot that the layout keeps in the value array (not in a
    /// `@Managed` property's storage): no look-up of the slot's field. Key-value coding's
    /// getters of such slots read through it.
    @inline(__always)
    package func arraySlotValue(_ slot: Int) -> Any? {
        if _slowPath(faultFlag) { fireFault() }
        if _slowPath(faultedRelationshipSlots != 0) { fireRelationshipFault(slot: slot) }
        return copyOfArraySlot(slot)
    }

    /// A copy of `values[slot]` made by the stored value's type (``AnyContainerMetadata/copy(at:)``),
    /// not through `Optional<Any>`'s generic witnesses: every read by key copies one out.
    @inline(__always)
    private func copyOfArraySlot(_ slot: Int) -> Any? {
        values.withUnsafeBufferPointer { buffer in
            precondition(slot >= 0 && slot < buffer.count, "slot out of range")
            return AnyContainerMetadata.copy(at: buffer.baseAddress! + slot)
        }
    }

    /// Stores a boxed value into a slot, without notifications. See ``slotValue(_:)``.
    @inline(__always)
    package func storeSlotValue(_ value: Any?, _ slot: Int) {
        if _slowPath(faultFlag) { fireFault() }
        if _slowPath(faultedRelationshipSlots != 0) { fireRelationshipFault(slot: slot) }
        storeLoadedSlotValue(value, slot)
    }

    /// Stores a value into a slot of an object whose values are loaded (or being loaded).
    @inline(__always)
    package func storeLoadedSlotValue(_ value: Any?, _ slot: Int) {
        if layout.hasFields, let field = layout.fields[slot] {
            field.storage.storeBoxedValue(value, at: Self.fieldAddress(self, field.offset))
            return
        }
        values[slot] = value
    }

    /// Empties every slot (to-many relationships become empty collections), without
    /// notifications: the state of a fault.
    package func clearSlotValues() {
        faultedRelationshipSlots = 0
        guard layout.hasFields else {
            values = layout.emptyValues
            return
        }
        for slot in layout.properties.indices { storeLoadedSlotValue(layout.emptyValue(slot), slot) }
    }

    // MARK: Faults

    /// Whether the object's values are not loaded yet (Apple: `isFault`). Reading or writing
    /// any property loads them from the store (fires the fault).
    public var isFault: Bool { faultFlag }

    /// Loads the values of a fault from its context's store. A fault that cannot be fulfilled
    /// (its row is gone, its context is gone) stays a fault with empty values, and the access
    /// that fired it reads those (typed accessors cannot throw); ``fulfillFault()`` and
    /// key-value coding by key throw instead.
    @usableFromInline
    package func fireFault() {
        _ = try? loadFaultValues()
    }

    /// Loads the values of a fault, or throws why they cannot be loaded; the object then stays
    /// a fault (``isFault``), and another access tries again.
    private func loadFaultValues() throws {
        guard let context = managedObjectContext else {
            throw ManagedObjectContextError.faultNotFulfilled(objectID, reason: .contextGone)
        }
        // Not a fault while it loads: what the load runs (`awakeFromFetch()`) reads the values.
        faultFlag = false
        do {
            try context.loadFault(self)
        } catch {
            faultFlag = true
            throw error
        }
    }

    /// Loads the object's values if it is a fault (Apple: firing a fault, which raises "could
    /// not fulfill a fault" when it cannot), throwing when they cannot be loaded.
    ///
    /// Any access loads a fault's values. Typed (`@Managed`) properties cannot throw: a fault
    /// whose row is gone (deleted by another context or process, or never saved: an object
    /// reached by ``ManagedObjectContext/object(with:)`` from an ID or URI) or whose context is
    /// gone (released, or reset) reads as empty values (`nil`, zero, empty collections), and
    /// stays a fault. This method, and key-value coding by key (``value(forKey:)``,
    /// ``setValue(_:forKey:)``), throw instead; call it before typed reads of an object whose
    /// row may be gone. A change made to such an object by a typed property fails the save
    /// (an optimistic-locking conflict: the store does not have the row).
    ///
    /// - Throws: ``ManagedObjectContextError/faultNotFulfilled(_:reason:)`` naming the object;
    ///   the store's error when it cannot read the row.
    /// - Complexity: Nothing for an object that is not a fault; a fault reads its row (the row
    ///   cache's, or its store's).
    public func fulfillFault() throws {
        if faultFlag { try loadFaultValues() }
    }

    /// The address of a `@Managed` property's storage in a managed object whose values are
    /// loaded: a fault fires first, so key-value reads and writes of typed properties see (and
    /// change) the stored values, not a fault's empty ones.
    @inline(__always)
    package static func loadedFieldAddress(_ object: AnyObject, _ offset: Int) -> UnsafeMutableRawPointer {
        let managed = unsafeDowncast(object, to: ManagedObject.self)
        if _slowPath(managed.faultFlag) { managed.fireFault() }
        return fieldAddress(object, offset)
    }

    /// The address `offset` bytes into `object` (a `@Managed` property's storage).
    @inline(__always)
    package static func fieldAddress(_ object: AnyObject, _ offset: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
    }

    // MARK: Typed access (`@Managed`)

    /// The hook a typed read or write passes first: a fault loads its values.
    @inlinable @inline(__always)
    func willReadManagedValue() {
        if _slowPath(faultFlag) { fireFault() }
    }

    /// Tells a running key-path probe which key a typed property read (for `observe(\.title)`).
    @usableFromInline @inline(never)
    func recordProbedRead(slot: Int) {
        guard layout.keys.indices.contains(slot) else { return }
        KeyPathProbe.recordRead(of: self, key: layout.keys[slot])
    }

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

    /// The hash a `Set` or `Dictionary` uses: the object's address mixed with the collection's
    /// seed (``IdentityHashing``), not a `Hasher` round trip. A context hashes each new object
    /// into several sets (inserted, the event's inserted, the event-start holders, and again
    /// whenever one grows).
    public func _rawHashValue(seed: Int) -> Int {
        IdentityHashing.mix(UInt64(UInt(bitPattern: ObjectIdentifier(self))), seed: seed)
    }
}

extension ManagedObject: CustomStringConvertible {
    /// The entity, the ID and the values.
    public var description: String {
        let pairs = layout.properties.enumerated().map { slot, property -> String in
            // A relationship fault is shown as one, not fired.
            if !faultFlag && isRelationshipFaulted(slot: slot) { return "\(property.name): <relationship fault>" }
            let value = slotValue(slot)
            switch property {
            case .relationship(let r) where r.isToMany:
                return "\(property.name): \((value as? Set<ManagedObject>)?.count ?? (value as? [ManagedObject])?.count ?? 0) objects"
            case .relationship:
                return "\(property.name): \((value as? ManagedObject)?.objectID.description ?? "nil")"
            default:
                return "\(property.name): \(value.map { ($0 as? Date).map(printableDate) ?? String(describing: $0) } ?? "nil")"
            }
        }
        return "<\(entity.name) \(objectID)> { \(pairs.joined(separator: "; ")) }"
    }
}

/// A managed object is not `Sendable`: it is used where its context is used, and its
/// ``ManagedObject/objectID`` travels instead.
@available(*, unavailable, message: "use an object inside its context's perform blocks and pass its objectID between queues")
extension ManagedObject: Sendable {}
