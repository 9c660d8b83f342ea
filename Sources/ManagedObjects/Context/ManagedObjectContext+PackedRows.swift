// Saving: the packed rows (StoreRowColumns) a context hands the stores that take them.
import Foundation
import KeyValueCoding
import Predicates

/// How the rows of one entity's objects are packed for one store: the store's shape, and
/// whether an object's value array can be the row's slot values as it is.
struct PackedRowPlan {
    let shape: StoreRowShape
    /// Every slot of the objects is one of the shape's attributes (no relationship, transient
    /// or fetched-property slot to clear in the row's copy).
    let sharesValues: Bool
    /// For new objects' rows of a shape with exact types (``StoreRowShape/exactTypes``):
    /// whether a row whose values are all `nil` or exactly of those types
    /// (``StoreRowShape/holdsExactValues(_:)``) keeps its slot values alone (its constants
    /// made when a store asks for them).
    var keepsExactValues = false

    /// An object's values as a row of the plan holds them: the object's array itself, or a
    /// copy whose slots outside the shape hold nothing (a fault filled from the row fills its
    /// relationships from the row's relationships).
    func rowSlotValues(_ values: ContiguousArray<Any?>) -> ContiguousArray<Any?> {
        guard !sharesValues else { return values }
        var slotValues = values
        for slot in shape.otherSlots { slotValues[slot] = nil }
        return slotValues
    }
}

extension ManagedObjectContext {
    /// How the rows of objects like `object` are packed for `store`, or `nil` when they are
    /// saved as rows with a dictionary.
    ///
    /// - The in-memory store takes packed rows of new objects (`inserting`) of entities whose
    ///   every property is a saved attribute, in a shape of the object's slots.
    /// - A ``PackedRowStore`` takes packed rows of new and changed objects in the shape it
    ///   names, when every saved attribute of the object is in that shape.
    ///
    /// In both cases every saved attribute must be of a type whose constant gives back exactly
    /// the value (strings, integers, doubles, booleans, dates): a fault filled from the packed
    /// row then holds what one filled from the dictionary would; objects that keep values in
    /// stored Swift fields are saved with dictionaries.
    static func packedRowPlan(of object: ManagedObject, for store: any PersistentStore, inserting: Bool) -> PackedRowPlan? {
        let layout = object.layout
        guard !layout.hasFields, !layout.slotTraits.isEmpty else { return nil }
        if store is InMemoryStore {
            guard inserting, layout.relationshipSlots.isEmpty else { return nil }
            for traits in layout.slotTraits {
                guard traits.isSaved, let type = traits.attributeType, AttributeValueConversion.hasExactConstants(type) else { return nil }
            }
            let shape = StoreRowShape(entity: object.entity, names: layout.keys)
            return PackedRowPlan(shape: shape, sharesValues: true, keepsExactValues: shape.exactTypes != nil)
        }
        guard let packing = store as? any PackedRowStore,
              let shape = packing.packedRowShape(forEntityNamed: object.entity.name),
              shape.slotKeys == layout.keys else { return nil }
        var covered = Set<Int>()
        for slot in shape.slots {
            guard slot >= 0, slot < layout.slotTraits.count, layout.slotTraits[slot].isSaved,
                  let type = layout.slotTraits[slot].attributeType, AttributeValueConversion.hasExactConstants(type),
                  covered.insert(slot).inserted else { return nil }
        }
        // Every saved attribute of the object is one of the shape's.
        for slot in layout.slotTraits.indices where layout.slotTraits[slot].isSaved && layout.slotTraits[slot].attributeType != nil {
            guard covered.contains(slot) else { return nil }
        }
        return PackedRowPlan(shape: shape, sharesValues: shape.otherSlots.isEmpty, keepsExactValues: inserting && shape.exactTypes != nil)
    }

    /// The packed row of an object's values (``packedRowPlan(of:for:inserting:)``), with its
    /// current version and its relationships as ``row(of:)`` gives them; the object's values
    /// are shared with the row, not copied, when the plan allows it. `nil` when a value is not
    /// exactly of its attribute's type (the row is then made with a dictionary).
    func packedRow(of object: ManagedObject, plan: PackedRowPlan) -> StoreRow? {
        guard !object.faultFlag else { return nil }
        let values = object.values
        let shape = plan.shape
        // A new object's values all of their exact types: the row keeps them alone.
        if plan.keepsExactValues, shape.holdsExactValues(values) { return exactValuesRow(of: object, plan: plan) }
        let traits = object.layout.slotTraits
        var constants = ContiguousArray<KeyValueConstant>()
        constants.reserveCapacity(shape.slots.count)
        for slot in shape.slots {
            guard let value = values[slot] else {
                constants.append(.null)
                continue
            }
            guard let type = traits[slot].attributeType,
                  let constant = AttributeValueConversion.exactConstant(of: value, type: type) else { return nil }
            constants.append(constant)
        }
        return StoreRow(objectID: object.objectID, version: object.storeVersion, storedAttributes: [:],
                        columns: StoreRowColumns(shape: shape, constants: constants, slotValues: plan.rowSlotValues(values)),
                        relationships: savedRelationships(of: object))
    }

    /// The row of an object whose values are all `nil` or exactly of their attributes' types
    /// (``StoreRowShape/holdsExactValues(_:)``): its values alone, constants made when a store
    /// asks for them (``StoreRowColumns/init(shape:exactSlotValues:)``).
    private func exactValuesRow(of object: ManagedObject, plan: PackedRowPlan) -> StoreRow {
        let columns = StoreRowColumns(shape: plan.shape, exactSlotValues: plan.rowSlotValues(object.values))
        // An entity without relationships has none to list (no dictionary made per row).
        // The memberwise initialiser: the row is built in place (StoreRow's initialisers).
        guard !object.layout.relationshipSlots.isEmpty else {
            return StoreRow(objectID: object.objectID, version: object.storeVersion, storedAttributes: [:], columns: columns,
                            relationships: [:])
        }
        return StoreRow(objectID: object.objectID, version: object.storeVersion, storedAttributes: [:], columns: columns,
                        relationships: savedRelationships(of: object))
    }

    /// Appends the row of a new object without relationships whose values are all `nil` or
    /// exactly of their attributes' types (what ``packedRow(of:plan:)`` makes of it), built in
    /// place: made by ``packedRow(of:plan:)`` (or by any initialiser declared by hand), the
    /// row was copied (a retain per reference it holds) and the original destroyed.
    ///
    /// - Returns: `false`, having appended nothing, for any other object.
    @inline(__always)
    func appendExactValuesRow(of object: ManagedObject, plan: PackedRowPlan, to rows: inout [StoreRow]) -> Bool {
        guard plan.keepsExactValues, !object.faultFlag, object.layout.relationshipSlots.isEmpty,
              plan.shape.holdsExactValues(object.values) else { return false }
        // The memberwise initialiser: the row is built in place (StoreRow's initialisers).
        // `Dictionary()`, not `[:]`: the empty literal is an out-of-line call per dictionary.
        rows.append(StoreRow(objectID: object.objectID, version: object.storeVersion, storedAttributes: Dictionary(),
                             columns: StoreRowColumns(shape: plan.shape, exactSlotValues: plan.rowSlotValues(object.values)),
                             relationships: Dictionary()))
        return true
    }

    /// The row of an updated object and the slots whose columns its store may write alone
    /// (``StoreSaveChanges/updatedSlotMasks``): with a packing plan whose shape has exact
    /// types, an object whose changes are all recorded (``changedSlotMask(of:)``) and whose
    /// values are all exactly of their attributes' types gives its values array as the row's
    /// slot values (shared, no constants made: ``StoreRowColumns/init(shape:exactSlotValues:)``)
    /// and the changed slots; any other object the row ``packedRow(of:plan:)`` or ``row(of:)``
    /// gives, and `UInt64.max` (every column).
    func updatedRow(of object: ManagedObject, plan: PackedRowPlan?) -> (row: StoreRow, slots: UInt64) {
        if let plan, !object.faultFlag, let changed = changedSlotMask(of: object), plan.shape.holdsExactValues(object.values) {
            return (exactValuesRow(of: object, plan: plan), changed)
        }
        return (plan.flatMap { packedRow(of: object, plan: $0) } ?? row(of: object), .max)
    }

    /// The saved slots of an updated object whose values may differ from its store's row at
    /// its version: those with a recorded committed value (changed since the last save or
    /// read) and the derived ones (computed at every save); `nil` when that is not known
    /// (values changed without a record, ``ManagedObject/hasUnrecordedValues``, or an entity
    /// of more than 64 slots).
    func changedSlotMask(of object: ManagedObject) -> UInt64? {
        let layout = object.layout
        guard !object.hasUnrecordedValues, layout.slotTraits.count <= 64, object.committedRecord?.hasHighSlots == false,
              var bits = object.committedRecord?.lowSlotBits else { return nil }
        for slot in layout.derivedSlots { bits |= 1 << UInt64(slot) }
        var mask: UInt64 = 0
        while bits != 0 {
            let slot = bits.trailingZeroBitCount
            bits &= bits &- 1
            if layout.slotTraits[slot].isSaved { mask |= 1 << UInt64(slot) }
        }
        return mask
    }

    /// The related objects' IDs of an object's saved relationships; to-many relationships
    /// still faults are left out (unchanged).
    func savedRelationships(of object: ManagedObject) -> [String: [ManagedObjectID]] {
        let layout = object.layout
        var relationships: [String: [ManagedObjectID]] = [:]
        for slot in layout.relationshipSlots where layout.slotTraits[slot].isSaved && !object.isRelationshipFaulted(slot: slot) {
            if case .relationship(let relationship) = layout.properties[slot] {
                relationships[relationship.name] = Self.members(object.slotValue(slot)).map(\.objectID)
            }
        }
        return relationships
    }
}

/// A layout and a store: the key of a save's packing plans.
struct PackedRowPlanKey: Hashable {
    let layout: ObjectIdentifier
    let store: ObjectIdentifier
}
