// How a managed object of one entity stores its values: a slot per property, and the key table
// that gives key-value coding (and so observing, predicates and sorting) the entity's keys.
import Foundation
import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// The storage plan of one entity's objects of one class: every property (inherited ones
/// first) has a slot, held in the object's value array, or, for a typed subclass's `@Managed`
/// property, in the property's own storage inside the object (reached by byte offset). A key
/// table of accessor properties reads and writes the slots. One layout per entity and class
/// per model, built on first use and kept by the model graph.
@usableFromInline
package final class EntityLayout: Sendable {
    /// The resolved entity.
    package let entity: EntityDescription
    /// The class of the entity's objects (`ManagedObject` unless a subclass is bound).
    package let objectClass: ManagedObject.Type
    /// Whether ``objectClass`` is `ManagedObject` itself (no subclass can have overridden the
    /// change hooks): a field load, where comparing an object's class calls the class's
    /// metadata accessor.
    package let isGenericClass: Bool
    /// The properties in slot order (the entity's `allProperties`).
    package let properties: [PropertyDescription]
    /// The property names in slot order.
    @usableFromInline package let keys: [String]
    /// The slot of each property name.
    package let slotByName: [String: Int]
    /// Per slot, whether the class notifies its key automatically
    /// (`automaticallyNotifiesObservers(forKey:)`, asked once).
    package let notifiesAutomatically: [Bool]
    /// For each slot held in a `@Managed` property's storage, where; `nil` for array slots.
    package let fields: [ManagedLayoutField?]
    /// Whether any slot is held in a `@Managed` property's storage.
    package let hasFields: Bool
    /// The entity's keys for key-value coding.
    package let keyTable: KeyValueKeyTable
    /// Per slot (the position of its key in ``keyTable``), how a store by key of a value of
    /// exactly the attribute's type may reach it directly (ManagedObject+StoresByKey.swift);
    /// empty when the table's keys are not the slots' names in slot order.
    package let directStores: [DirectStore]
    /// Each slot's key as the two words a `String` is (``StringWords``), in slot order, when the
    /// table's keys are the slots' names in slot order (else empty): a store by key checks the
    /// key it expects next against these, in this module, without a call into the table.
    package let keyWords: [StringWords]
    /// The key paths that name each slot to Swift's Observation.
    package let trackingKeyPaths: TrackingKeyPaths
    /// ``trackingKeyPaths``' buffer and count, kept here so that the checks of every change
    /// (``anySlotMayBeTracked``) read plain fields and retain nothing.
    // nonisolated(unsafe): the pointer is written once, before the layout is published;
    // `trackingKeyPaths` owns the buffer and only `init` and `deinit` write its elements.
    @usableFromInline nonisolated(unsafe) let trackingBase: UnsafeMutablePointer<KeyPath<ManagedObject, Int>>
    /// The key paths' addresses (``TrackingKeyPaths/addresses``), for reading their reference
    /// counts in place.
    @usableFromInline nonisolated(unsafe) let trackingAddresses: UnsafeMutablePointer<UnsafeRawPointer>
    @usableFromInline let trackingCount: Int
    /// Whether the checks read the key paths' reference counts in place
    /// (``StrongReferenceCount/inlineReadsHold``), rather than through the runtime's call.
    @usableFromInline let readsTrackingCountsInline: Bool
    /// How a store row fills each slot, made once so that filling an object copies no
    /// property description.
    package let fillPlan: [SlotFill]

    /// An attribute of a fill plan.
    package final class AttributeFill: Sendable {
        package let attribute: AttributeDescription
        init(_ attribute: AttributeDescription) { self.attribute = attribute }
    }

    /// How a store row's value reaches one slot.
    package enum SlotFill: Sendable {
        /// An attribute value, converted by the attribute to its Swift type (boxed, so that
        /// reading the plan retains one reference instead of copying the description).
        case attribute(AttributeFill)
        /// A relationship's related IDs: its name, cardinality and destination entity (only
        /// IDs of that entity or a subentity are filled in).
        case relationship(String, RelationshipDescription.Cardinality, destination: String)
        /// Nothing (fetched properties).
        case none
    }
    /// What the save pipeline needs to know of each slot, without copying its (large)
    /// property description.
    package let slotTraits: [SlotTraits]
    /// The slots' metadata words for validation's check by type (``TrivialSlotWords``).
    package let trivialSlotWords: TrivialSlotWords
    /// The slots of relationships, of saved (non-transient) ones, and of derived attributes.
    package let relationshipSlots: [Int]
    package let derivedSlots: [Int]
    /// The attribute slots (below 64, one bit each) that notify automatically: those whose
    /// stores into an object inserted in the current event are quiet from its insert on
    /// (``ManagedObjectContext/recordInsertedEventStart(of:)``); 0 for a layout of more than
    /// 64 slots.
    package let insertQuietSlots: UInt64

    /// Whether Observation may be tracking `slot` of some object of the layout (see
    /// ``TrackingKeyPaths``): anything but the layout holds the slot's key path.
    @inlinable @inline(__always)
    package func slotMayBeTracked(_ slot: Int) -> Bool {
        if readsTrackingCountsInline { return StrongReferenceCount.mayHaveOtherOwners(trackingAddresses[slot]) }
        // Reads the reference count only: the buffer is never written here.
        return !isKnownUniquelyReferenced(&trackingBase[slot])
    }

    /// Whether Observation may be tracking any slot of some object of the layout; `true`
    /// unchecked for layouts of more than 16 slots (a change then checks its own slot).
    ///
    /// Every typed store of an object that was read typed checks it twice (its will-change and
    /// did-change hooks): the counts are read in place, one load per slot and no call, where the
    /// runtime's check is a call per slot. Inlinable: the change hooks that read it are inlined
    /// into typed setters.
    @inlinable @inline(__always)
    package var anySlotMayBeTracked: Bool {
        guard trackingCount <= 16 else { return true }
        // ``slotMayBeTracked(_:)`` per slot, with its choice of read made once, outside the loop
        // (this runs twice per typed store; the loop through `slotMayBeTracked` timed no faster,
        // and up to 15 % slower, in alternated runs of `mo_set_attr`).
        if readsTrackingCountsInline {
            for slot in 0..<trackingCount where StrongReferenceCount.mayHaveOtherOwners(trackingAddresses[slot]) {
                return true
            }
            return false
        }
        for slot in 0..<trackingCount where !isKnownUniquelyReferenced(&trackingBase[slot]) { return true }
        return false
    }

    /// The value of a slot with nothing in it: an empty collection for a to-many relationship
    /// (those are never `nil`), `nil` otherwise.
    package func emptyValue(_ slot: Int) -> Any? { sharedEmptyValues.values[slot] }

    private static func emptyValue(_ property: PropertyDescription) -> Any? {
        guard case .relationship(let relationship) = property else { return nil }
        switch relationship.cardinality {
        case .toOne: return nil
        case .toMany: return Set<ManagedObject>()
        case .orderedToMany: return [ManagedObject]()
        }
    }

    /// Every slot empty (see ``emptyValue(_:)``), made once.
    package var emptyValues: ContiguousArray<Any?> { sharedEmptyValues.values }
    private let sharedEmptyValues: SlotValues
    /// Every slot of a new object: attributes' default values where they are plain values
    /// (shared by every new object), empty values elsewhere, made once.
    package var newObjectValues: ContiguousArray<Any?> { sharedNewObjectValues.values }
    private let sharedNewObjectValues: SlotValues

    /// The value array a new object starts with: ``emptyValues`` when `@Managed` storage
    /// holds some slots (``ManagedObject`` fills them all), else ``newObjectValues`` (shared
    /// until the object's first store) with the defaults made anew for each object
    /// (``freshDefaultSlots``) put in.
    package func newObjectArrayValues() -> ContiguousArray<Any?> {
        if hasFields { return emptyValues }
        if freshDefaultSlots.isEmpty { return newObjectValues }
        var values = newObjectValues
        for slot in freshDefaultSlots { values[slot] = properties[slot].attribute?.defaultValueForNewObject }
        return values
    }

    /// ``newObjectValues`` in an array of the caller's own, made by copying memory (no value
    /// copied one by one); `nil` when a value holds a reference (the caller copies as usual).
    package func newObjectValuesCopiedBitwise() -> ContiguousArray<Any?>? { sharedNewObjectValues.bitwiseCopy() }

    /// Whether `values` is ``newObjectValues`` itself, not a copy (a new object that has stored
    /// nothing since it was made).
    package func isNewObjectValues(_ values: ContiguousArray<Any?>) -> Bool {
        values.withUnsafeBufferPointer { mine in
            sharedNewObjectValues.values.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
    }
    /// The attribute slots whose default value is made anew for each object (a transformable or
    /// other value that might be a class instance).
    package let freshDefaultSlots: [Int]
    /// The transient attribute slots that have a default value: a store row has no value for
    /// them, so an object loaded from a row (fetched, or a fault fired, also after a refresh)
    /// starts with the default, as a new object does (Apple initialises transient attributes
    /// of a fetched object to their defaults).
    package let transientDefaultSlots: [Int]

    /// Whether every value of an attribute type is a value type (an immutable value that new
    /// objects can share).
    private static func hasSharableValues(_ type: AttributeDescription.AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData, .uuid, .uri:
            return true
        case .objectID, .transformable, .composite, .undefined:
            return false
        }
    }

    package init(entity: EntityDescription, objectClass: ManagedObject.Type = ManagedObject.self,
                 kinds: [String: Set<String>] = [:]) {
        self.entity = entity
        self.objectClass = objectClass
        isGenericClass = objectClass == ManagedObject.self
        properties = entity.allProperties
        keys = properties.map(\.name)
        let notifies = keys.map { objectClass.automaticallyNotifiesObservers(forKey: $0) }
        notifiesAutomatically = notifies
        var slots: [String: Int] = [:]
        for (slot, property) in properties.enumerated() { slots[property.name] = slot }
        slotByName = slots
        var fields = [ManagedLayoutField?](repeating: nil, count: properties.count)
        for field in ManagedClassFields.fields(of: objectClass) {
            if let slot = slots[field.key] { fields[slot] = field }
        }
        self.fields = fields
        hasFields = fields.contains { $0 != nil }
        keyTable = KeyValueKeyTable(properties: properties.enumerated().map { slot, property in
            Self.keyValueProperty(for: property, slot: slot, field: fields[slot], kinds: kinds, notifies: notifies[slot])
        })
        var direct: [DirectStore] = []
        if keyTable.allKeys == keys {
            for slot in properties.indices { direct.append(DirectStore.of(properties[slot], field: fields[slot])) }
        }
        directStores = direct
        keyWords = direct.isEmpty || !StringWords.isAvailable ? [] : keys.map(StringWords.init)
        trackingKeyPaths = TrackingKeyPaths(paths: properties.indices.map { \ManagedObject.[observationSlot: $0] })
        trackingBase = trackingKeyPaths.base
        trackingAddresses = trackingKeyPaths.addresses
        trackingCount = properties.count
        readsTrackingCountsInline = StrongReferenceCount.inlineReadsHold
        fillPlan = properties.map { property in
            switch property {
            case .attribute(let attribute): return .attribute(AttributeFill(attribute))
            case .relationship(let relationship):
                return .relationship(relationship.name, relationship.cardinality, destination: relationship.destinationEntityName)
            case .fetchedProperty: return .none
            }
        }
        let described = entity.allProperties
        let empty = ContiguousArray(described.map(Self.emptyValue))
        sharedEmptyValues = SlotValues(values: empty)
        var initial = empty
        var fresh: [Int] = []
        for (slot, property) in described.enumerated() {
            guard let attribute = property.attribute, attribute.defaultValue != nil else { continue }
            if Self.hasSharableValues(attribute.attributeType) {
                initial[slot] = attribute.defaultValueForNewObject
            } else {
                fresh.append(slot)
            }
        }
        sharedNewObjectValues = SlotValues(values: initial)
        freshDefaultSlots = fresh
        transientDefaultSlots = described.indices.filter {
            guard let attribute = described[$0].attribute else { return false }
            return attribute.isTransient && attribute.defaultValue != nil
        }
        slotTraits = described.map(SlotTraits.init)
        trivialSlotWords = TrivialSlotWords(slotTraits)
        relationshipSlots = described.indices.filter { described[$0].relationship != nil }
        derivedSlots = described.indices.filter { described[$0].attribute?.isDerived == true }
        var quiet: UInt64 = 0
        if described.count <= 64 {
            for slot in described.indices where notifies[slot] && described[slot].attribute != nil { quiet |= 1 << UInt64(slot) }
        }
        insertQuietSlots = quiet
    }

    private static func keyValueProperty(for property: PropertyDescription, slot: Int,
                                         field: ManagedLayoutField?, kinds: [String: Set<String>],
                                         notifies: Bool) -> KeyValueProperty {
        switch property {
        case .attribute(let attribute):
            return attributeProperty(attribute, slot: slot, field: field, notifies: notifies)
        case .relationship(let relationship):
            let check = RelationshipCheck(relationship: relationship,
                                          allowed: kinds[relationship.destinationEntityName] ?? [relationship.destinationEntityName])
            switch relationship.cardinality {
            case .toOne:
                return KeyValueProperty(key: relationship.name, type: ManagedObject?.self,
                                        get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? ManagedObject },
                                        set: { object, value in
                                            try ManagedObject.checkKeyedChange(of: object)
                                            let source = unsafeDowncast(object, to: ManagedObject.self)
                                            if let value { try check.check(value, from: source) }
                                            source.storeSlotValue(value, slot)
                                        })
            case .toMany:
                return KeyValueProperty(key: relationship.name, type: Set<ManagedObject>.self,
                                        get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Set<ManagedObject> ?? [] },
                                        set: { object, value in
                                            try ManagedObject.checkKeyedChange(of: object)
                                            let source = unsafeDowncast(object, to: ManagedObject.self)
                                            for member in value { try check.check(member, from: source) }
                                            source.storeSlotValue(value, slot)
                                        })
            case .orderedToMany:
                return KeyValueProperty(key: relationship.name, type: [ManagedObject].self,
                                        get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? [ManagedObject] ?? [] },
                                        set: { object, value in
                                            try ManagedObject.checkKeyedChange(of: object)
                                            let source = unsafeDowncast(object, to: ManagedObject.self)
                                            for member in value { try check.check(member, from: source) }
                                            try check.checkNoDuplicates(value)
                                            source.storeSlotValue(value, slot)
                                        })
            }
        case .fetchedProperty(let fetched):
            return slotProperty(fetched.name, [ManagedObject].self, slot: slot, field: nil, readOnly: true)
        }
    }

    private static func attributeProperty(_ attribute: AttributeDescription, slot: Int,
                                          field: ManagedLayoutField?, notifies: Bool) -> KeyValueProperty {
        let name = attribute.name
        // Plain value types: EntityLayout+KeyValueCoding.swift.
        func value<Wrapped>(_ type: Wrapped.Type) -> KeyValueProperty {
            valueSlotProperty(name, type, slot: slot, field: field, notifies: notifies)
        }
        switch attribute.attributeType {
        case .integer16: return value(Int16.self)
        case .integer32: return value(Int32.self)
        case .integer64: return value(Int64.self)
        case .decimal: return value(Decimal.self)
        case .double: return value(Double.self)
        case .float: return value(Float.self)
        case .string: return value(String.self)
        case .boolean: return value(Bool.self)
        case .date:
            // In the value array: EntityLayout+KeyValueCoding.swift (changes only the context
            // hears take the short way there).
            if field == nil { return dateSlotProperty(name, slot: slot, notifies: notifies) }
            // A date that is not a finite number of seconds cannot be shown, compared or stored.
            return KeyValueProperty(key: name, type: Date?.self,
                                    get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Date },
                                    set: { object, value in
                                        try ManagedObject.checkKeyedChange(of: object)
                                        if let value, !value.timeIntervalSinceReferenceDate.isFinite {
                                            throw KeyValueCodingError.valueOutOfRange(key: name, type: String(describing: type(of: object)),
                                                                                      value: "a date of \(value.timeIntervalSinceReferenceDate) seconds")
                                        }
                                        unsafeDowncast(object, to: ManagedObject.self).storeSlotValue(value, slot)
                                    })
        case .binaryData: return value(Data.self)
        case .uuid: return value(UUID.self)
        case .uri: return value(URL.self)
        case .objectID: return slotProperty(name, ManagedObjectID?.self, slot: slot)
        case .transformable, .composite, .undefined: return slotProperty(name, Any?.self, slot: slot)
        }
    }

    /// The byte offset of `field`'s value in an object, when its storage holds `Stored`.
    private static func typedOffset<Stored>(_ field: ManagedLayoutField?, _: Stored.Type) -> Int? {
        guard let field, field.storage.storageType == Stored.self else { return nil }
        return field.valueOffset
    }

    /// An optional-valued key reading and writing slot `slot` in the value array (object IDs
    /// and values of any type; plain value types: ``valueSlotProperty(_:_:slot:field:notifies:)``).
    private static func slotProperty<Wrapped>(_ key: String, _ type: Wrapped?.Type, slot: Int) -> KeyValueProperty {
        KeyValueProperty(key: key, type: Wrapped?.self,
                         get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Wrapped },
                         set: { object, value in
                             try ManagedObject.checkKeyedChange(of: object)
                             unsafeDowncast(object, to: ManagedObject.self).storeSlotValue(value.map { $0 as Any }, slot)
                         },
                         // The slot holds the value boxed already (never a nested optional):
                         // predicates and sorting read it without a cast.
                         read: { object in KeyValueReading(unsafeDowncast(object, to: ManagedObject.self).slotValue(slot)) })
    }

    /// A collection-valued key (empty, never nil) reading and writing slot `slot`.
    private static func slotProperty<Value: ExpressibleByArrayLiteral & SendableMetatype>(
        _ key: String, _ type: Value.Type, slot: Int, field: ManagedLayoutField?, readOnly: Bool = false
    ) -> KeyValueProperty {
        if let offset = typedOffset(field, Value.self), !readOnly {
            return KeyValueProperty(key: key, type: Value.self,
                                    get: { object in ManagedObject.loadedFieldAddress(object, offset).assumingMemoryBound(to: Value.self).pointee },
                                    set: { object, value in
                                        ManagedObject.loadedFieldAddress(object, offset).assumingMemoryBound(to: Value.self).pointee = value
                                    })
        }
        let setter: @Sendable (AnyObject, Value) throws -> Void = { object, value in
            unsafeDowncast(object, to: ManagedObject.self).storeSlotValue(value, slot)
        }
        return KeyValueProperty(key: key, type: Value.self,
                                get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Value ?? [] },
                                set: readOnly ? nil : setter)
    }
}

/// Values for every slot of a layout, made once and copied into each new object.
// @unchecked Sendable: the array is a `let` never mutated after the layout is made, and holds
// only values of value types (empty relationship collections, `nil`, and attribute defaults of
// the types `EntityLayout.hasSharableValues` lists), so sharing it between threads is safe.
private struct SlotValues: @unchecked Sendable {
    let values: ContiguousArray<Any?>
    /// Whether every value is `nil` or of a type without references (a number, a flag, a
    /// date): a copy of the array's memory is then a copy of its values.
    let isBitwiseCopyable: Bool

    init(values: ContiguousArray<Any?>) {
        self.values = values
        isBitwiseCopyable = values.allSatisfy { value in
            guard let value else { return true }
            let type = type(of: value)
            return type == Int16.self || type == Int32.self || type == Int64.self || type == Int.self
                || type == Double.self || type == Float.self || type == Bool.self || type == Date.self
        }
    }

    /// A copy of `values` in an array of its own, made by copying memory; `nil` unless
    /// ``isBitwiseCopyable``.
    func bitwiseCopy() -> ContiguousArray<Any?>? {
        // Not for an empty array (the shared empty storage must not be written).
        guard isBitwiseCopyable, !values.isEmpty else { return nil }
        // Storage reserved and its memory written and counted at once (AnyArrayTeardown's
        // layout facts), where they hold.
        if let copy = AnyArrayTeardown.plainDataCopy(of: values) { return copy }
        // Else made by `reserveCapacity` and appends of `nil` (allocated by code specialised for
        // `Any?`, where `init(unsafeUninitializedCapacity:)` and `init(repeating:count:)` look
        // the storage class up at run time), then overwritten: a `nil` holds nothing to release.
        var copy = ContiguousArray<Any?>()
        copy.reserveCapacity(values.count)
        for _ in values.indices { copy.append(nil) }
        copy.withUnsafeMutableBytes { target in values.withUnsafeBytes { target.copyMemory(from: $0) } }
        return copy
    }
}

/// What a slot holds, in a few bits: read per slot by validation and row building instead of the
/// slot's property description (an enumeration whose payload is a large struct, copied on every
/// `switch`).
package struct SlotTraits: Sendable {
    /// The attribute's type; `nil` for a relationship or fetched property.
    package let attributeType: AttributeDescription.AttributeType?
    /// Whether the property is saved (not transient, not fetched).
    package let isSaved: Bool
    /// Whether an attribute's every value of its Swift type is valid as it is: no validation
    /// rules, not derived, and a type whose values need no further check.
    package let acceptsAnyValueOfItsType: Bool
    /// Whether a date attribute accepts every finite `Date` as it is (no rules, not derived).
    package let acceptsAnyFiniteDate: Bool
    /// Whether `nil` is allowed.
    package let isOptional: Bool
    /// The metadata address of the attribute type's Swift type (0 for a relationship or
    /// fetched property): what the metadata word of a slot's `Optional<Any>` container holds
    /// for a value of exactly that type.
    package let valueTypeMetadata: UInt

    init(_ property: PropertyDescription) {
        isOptional = property.isOptional
        isSaved = !property.isTransient
        guard case .attribute(let attribute) = property else {
            attributeType = nil
            acceptsAnyValueOfItsType = false
            acceptsAnyFiniteDate = false
            valueTypeMetadata = 0
            return
        }
        attributeType = attribute.attributeType
        valueTypeMetadata = AnyContainerMetadata.word(of: attribute.attributeType.valueType)
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64, .double, .float, .string, .boolean, .binaryData, .uuid:
            acceptsAnyValueOfItsType = attribute.validationRules.isEmpty && !attribute.isDerived
            acceptsAnyFiniteDate = false
        case .date:
            acceptsAnyValueOfItsType = false
            acceptsAnyFiniteDate = attribute.validationRules.isEmpty && !attribute.isDerived
        case .decimal, .uri, .transformable, .objectID, .composite, .undefined:
            acceptsAnyValueOfItsType = false
            acceptsAnyFiniteDate = false
        }
    }

    /// Whether `value` is valid for the attribute without the full check: present (or `nil`
    /// where allowed) and of exactly the attribute's Swift type, which every value of is valid
    /// (for a date: every finite one).
    @inline(__always)
    package func isTriviallyValid(_ value: Any?) -> Bool {
        if acceptsAnyFiniteDate {
            guard let value else { return isOptional }
            guard ObjectIdentifier(type(of: value)) == ObjectIdentifier(Date.self), let date = value as? Date else { return false }
            return date.timeIntervalSinceReferenceDate.isFinite
        }
        guard acceptsAnyValueOfItsType, let attributeType else { return false }
        guard let value else { return isOptional }
        return ObjectIdentifier(type(of: value)) == ObjectIdentifier(attributeType.valueType)
    }

    /// ``isTriviallyValid(_:)`` of the value in the `Optional<Any>` container at `container`,
    /// read in place: its metadata word (0 for `nil`) and, for a date, the seconds in its
    /// inline buffer (the layout RuntimeLayout verifies). No value is copied.
    @inline(__always)
    package func isTriviallyValid(containerAt container: UnsafeRawPointer) -> Bool {
        let metadata = AnyContainerMetadata.word(at: container)
        // The usual value first: exactly of the type of an attribute without rules (one
        // comparison and one flag). The two flags never hold together.
        if metadata == valueTypeMetadata && acceptsAnyValueOfItsType { return true }
        guard metadata != 0 else { return isOptional && (acceptsAnyValueOfItsType || acceptsAnyFiniteDate) }
        return acceptsAnyFiniteDate && metadata == valueTypeMetadata
            && container.load(as: Date.self).timeIntervalSinceReferenceDate.isFinite
    }
}

/// The key paths that name each slot to Swift's Observation, and whether Observation may be
/// tracking a slot of any object of the layout.
///
/// Observation keeps every key path it tracks: an access recorded inside
/// `withObservationTracking` holds the key path in the tracking's access list, and an installed
/// observer holds it in the registrar's table (until the change fires or the tracking is
/// cancelled). Only the layout makes these key paths, so while the layout's own reference is
/// the only one, no registrar of any of the layout's objects has an observer for the slot, and a
/// change need not call the registrar's will-set and did-set (a lock and a key-path hash each;
/// ``EntityLayout/slotMayBeTracked(_:)``).
/// Any other reference (even a passing copy) only makes the change take the registrar's way.
// @unchecked: key paths are immutable once made, and these are made before the layout is
// published; the buffer is written only by `init` and `deinit`. The standard library only lacks
// the conformance for generic key paths.
package struct TrackingKeyPaths: @unchecked Sendable {
    /// Owns the buffer of key paths (one per slot).
    private final class Storage {
        let base: UnsafeMutablePointer<KeyPath<ManagedObject, Int>>
        let addresses: UnsafeMutablePointer<UnsafeRawPointer>
        let count: Int

        init(_ paths: [KeyPath<ManagedObject, Int>]) {
            count = paths.count
            base = .allocate(capacity: max(paths.count, 1))
            base.initialize(from: paths, count: paths.count)
            addresses = .allocate(capacity: max(paths.count, 1))
            for (slot, path) in paths.enumerated() {
                (addresses + slot).initialize(to: UnsafeRawPointer(Unmanaged.passUnretained(path).toOpaque()))
            }
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
            addresses.deallocate()
        }
    }

    private let storage: Storage
    /// The buffer (``storage`` keeps it; the layout reads it directly).
    package let base: UnsafeMutablePointer<KeyPath<ManagedObject, Int>>
    /// The key paths' addresses, one per slot (``storage`` keeps them alive): what the checks
    /// of every change read the reference counts at.
    package let addresses: UnsafeMutablePointer<UnsafeRawPointer>
    /// The same key paths, unretained, for reports on every typed read.
    private let unretained: [Unmanaged<KeyPath<ManagedObject, Int>>]

    package init(paths: [KeyPath<ManagedObject, Int>]) {
        storage = Storage(paths)
        base = storage.base
        addresses = storage.addresses
        unretained = paths.map { Unmanaged.passUnretained($0) }
    }

    package subscript(slot: Int) -> KeyPath<ManagedObject, Int> { base[slot] }

    /// The key path of `slot`, unretained: valid while this value (its layout) lives.
    @inline(__always)
    package func unretainedPath(_ slot: Int) -> Unmanaged<KeyPath<ManagedObject, Int>> { unretained[slot] }
}

/// A slot held in a `@Managed` property's storage inside the object.
package struct ManagedLayoutField: Sendable {
    /// The entity property's name (the Swift property's, without the wrapper's `_`).
    package var key: String
    /// The wrapper's byte offset in an object.
    package var offset: Int
    /// The wrapper's type.
    package var storage: any ManagedFieldStorage.Type
    /// The byte offset of the stored value in an object.
    package var valueOffset: Int { offset + storage.storageOffset }
}

/// The layouts of a model graph's entities, built on first use.
package final class EntityLayoutCache: Sendable {
    private struct Key: Hashable {
        var entity: String
        var objectClass: ObjectIdentifier
    }

    private let layouts = Mutex<[Key: EntityLayout]>([:])
    /// Each entity's name with its descendants' (what a relationship to it may hold), made on
    /// first use.
    private let makeKinds: @Sendable () -> [String: Set<String>]
    private let kinds = Mutex<[String: Set<String>]?>(nil)

    package init(kinds makeKinds: @escaping @Sendable () -> [String: Set<String>]) { self.makeKinds = makeKinds }

    /// The layout of `entity`'s objects of class `objectClass` (resolved in the graph that owns
    /// this cache).
    package func layout(of entity: EntityDescription, objectClass: ManagedObject.Type = ManagedObject.self) -> EntityLayout {
        let key = Key(entity: entity.name, objectClass: ObjectIdentifier(objectClass))
        if let existing = layouts.withTrackedLock(self, { $0[key] }) { return existing }
        // Built outside the lock: reflection and key tables take their own locks.
        let kinds = self.kinds.withTrackedLock(self) { known in
            if let known { return known }
            let made = makeKinds()
            known = made
            return made
        }
        let layout = EntityLayout(entity: entity, objectClass: objectClass, kinds: kinds)
        return layouts.withTrackedLock(self) { layouts in
            if let existing = layouts[key] { return existing }
            layouts[key] = layout
            return layout
        }
    }
}

/// What a relationship may hold: objects of its destination entity (or a subentity), of the
/// same context as the object that holds them, not deleted by a save; ordered ones without
/// repeats.
private struct RelationshipCheck: Sendable {
    let relationship: RelationshipDescription
    let allowed: Set<String>

    func check(_ target: ManagedObject, from source: ManagedObject) throws {
        guard allowed.contains(target.entity.name) else {
            throw KeyValueCodingError.typeMismatch(key: relationship.name, type: source.entity.name,
                                                   expected: relationship.destinationEntityName,
                                                   actual: target.entity.name)
        }
        guard target.managedObjectContext === source.managedObjectContext else {
            let reason = target.managedObjectContext == nil
                ? "\(target.objectID) is in no context (deleted and saved, or never inserted) while \(source.objectID) is"
                : "\(target.objectID) is registered in another context than \(source.objectID)"
            throw KeyValueCodingError.validationFailed(key: relationship.name, type: source.entity.name,
                                                       reason: "related objects must be in one context: " + reason)
        }
    }

    func checkNoDuplicates(_ members: [ManagedObject]) throws {
        guard Set(members.map(ObjectIdentifier.init)).count == members.count else {
            throw KeyValueCodingError.validationFailed(key: relationship.name, type: relationship.destinationEntityName,
                                                       reason: "an ordered relationship holds each object once")
        }
    }
}

extension EntityLayout {
    /// The position of `key` when it is the key after position `previous` or the key at it,
    /// by the keys' words (``keyWords``); `nil` otherwise (the caller asks the key table).
    @inline(__always)
    func positionOfExpectedKey(_ key: String, after previous: Int) -> Int? {
        keyWords.withUnsafeBufferPointer { all -> Int? in
            guard !all.isEmpty else { return nil }
            let words = StringWords(key)
            let next = previous &+ 1
            if next < all.count && all[next] == words { return next }
            if previous < all.count && all[previous] == words { return previous }
            return nil
        }
    }
}
