// Rows to objects: the entities and stores of a request, registered objects found or made for
// store rows, faults filled from rows.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// The request's entity and, when asked, its concrete descendants.
    package func entityNames(for request: EntityFetchRequest) throws -> [String] {
        guard let entity = model.entity(named: request.entityName) else {
            throw ManagedObjectContextError.unknownEntity(request.entityName)
        }
        var names: [String] = []
        var pending = [entity]
        while let next = pending.popLast() {
            if !next.isAbstract { names.append(next.name) }
            if request.includesSubentities { pending += model.subentities(of: next) }
        }
        return names
    }

    package func storesHolding(_ names: [String]) -> [any PersistentStore] {
        guard let coordinator else { return [] }
        var stores: [any PersistentStore] = []
        for name in names {
            for store in coordinator.stores(forEntityNamed: name) where !stores.contains(where: { $0 === store }) {
                stores.append(store)
            }
        }
        return stores
    }

    /// The predicate with managed objects replaced by their IDs, for a store.
    func storePredicate(_ predicate: KeyValuePredicate) -> KeyValuePredicate {
        predicate.mappingConstants { constant in
            guard case .object(let reference) = constant, let object = reference.object as? ManagedObject else { return constant }
            return KeyValueConstant(object.objectID)
        }
    }

    /// The registered object of a row, made (and filled) when new; a registered fault is filled.
    /// Registered objects keep their values (and unsaved changes).
    func registeredObject(for row: StoreRow, filled: inout [StoreRow]) throws -> ManagedObject {
        if let object = registered[row.objectID] {
            if object.faultFlag {
                fill(object, from: row)
                filled.append(row)
            }
            return object
        }
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let object = try makeObject(entityName: row.objectID.entityName, id: row.objectID)
        register(object)
        noteParentTemporaryID(row.objectID)
        fill(object, from: row)
        filled.append(row)
        return object
    }

    /// The object of a row that is not registered (`known` is `nil`: made, registered and
    /// filled) or registered as a fault (`known`: filled).
    func filledObject(for row: StoreRow, known: ManagedObject?,
                              classes: inout ObjectClassCache) throws -> ManagedObject {
        if let known {
            fill(known, from: row)
            return known
        }
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let name = row.objectID.entityName
        let object = try classes.objectClass(of: name, in: model).init(entityName: name, in: model)
        object.objectID = row.objectID
        object.clearSlotValues()
        register(object)
        fill(object, from: row)
        return object
    }

    /// ``filledObject(for:known:classes:)`` for a row whose object is not registered, read
    /// where it lies in the store's answer (passing the row on would copy it: a retain per
    /// value it holds). A packed row of the object's entity whose slots are all stored
    /// attributes gives the object its values array as it is (what ``fillValues(_:from:)``
    /// does for it); any other row is filled by ``fill(_:from:)``. With `awaitingEntry` (no
    /// registered object has the row's ID), the object's registry entry waits
    /// (``registerAwaitingEntry(_:)``).
    func newFilledObject(at row: UnsafePointer<StoreRow>, classes: inout ObjectClassCache,
                         awaitingEntry: Bool = false) throws -> ManagedObject {
        // A store (possibly a user's own) may hand back a row of an entity the model lacks.
        let name = row.pointee.objectID.entityName
        let object = try classes.objectClass(of: name, in: model).init(entityName: name, in: model)
        object.objectID = row.pointee.objectID
        if awaitingEntry { registerAwaitingEntry(object) } else { register(object) }
        let layout = object.layout
        guard !layout.hasFields, let values = classes.packedSlotValues(of: row, layout: layout) else {
            object.clearSlotValues()
            fill(object, from: row.pointee)
            return object
        }
        // The row's values replace every slot at once: nothing to clear first.
        object.faultFlag = false
        object.faultedRelationshipSlots = 0
        object.storeVersion = row.pointee.version
        // No transient defaults to give: a row fits as a whole only when every slot is a stored
        // attribute (``StoreRow/storedSlotValues(forSlotKeys:)``), so the layout has no
        // transient attribute.
        object.values = values
        // Changes made while waking are the object's loaded state, not changes.
        let wasRestoring = isRestoring
        isRestoring = true
        object.awakeFromFetch()
        isRestoring = wasRestoring
        return object
    }

    /// A registered fault for `id`, made by a fetch without property values: `version` is the
    /// version of its row the store gave (checked when the fault is saved or deleted unloaded).
    /// With `awaitingEntry` (no registered object has the ID), its registry entry waits
    /// (``registerAwaitingEntry(_:)``).
    func newFault(for id: ManagedObjectID, version: Int64, classes: inout ObjectClassCache,
                  awaitingEntry: Bool = false) throws -> ManagedObject {
        // A store (possibly a user's own) may hand back an ID of an entity the model lacks.
        let name = id.entityName
        let object = try classes.objectClass(of: name, in: model).init(entityName: name, in: model)
        object.objectID = id
        object.clearSlotValues()
        object.faultFlag = true
        object.storeVersion = version
        if awaitingEntry { registerAwaitingEntry(object) } else { register(object) }
        return object
    }

    /// A registered fault for `id`.
    package func fault(for id: ManagedObjectID) throws -> ManagedObject {
        guard model.entity(named: id.entityName) != nil else { throw ManagedObjectContextError.unknownEntity(id.entityName) }
        let object = try makeObject(entityName: id.entityName, id: id)
        object.faultFlag = true
        register(object)
        noteParentTemporaryID(id)
        return object
    }

    /// A new object of an entity with a given ID, values empty.
    package func makeObject(entityName: String, id: ManagedObjectID) throws -> ManagedObject {
        let object = try model.managedObjectClass(forEntityNamed: entityName).init(entityName: entityName, in: model)
        object.objectID = id
        object.clearSlotValues()
        return object
    }

    /// Loads a fault's values from its store (its parent's values, for a child).
    /// A row younger than ``stalenessInterval`` comes from the coordinator's row cache.
    ///
    /// - Throws: ``ManagedObjectContextError/faultNotFulfilled(_:reason:)`` when the store (or
    ///   the parent) does not have the object; the store's error.
    package func loadFault(_ object: ManagedObject) throws {
        checkConfinement("firing a fault")
        if let batch = object.fetchBatch, fillBatch(batch, firing: object) { return }
        guard let row = try sourceRow(for: object.objectID) else {
            throw ManagedObjectContextError.faultNotFulfilled(object.objectID, reason: .rowGone)
        }
        fill(object, from: row)
    }

    /// The row of `id`: the coordinator's cached row when younger than ``stalenessInterval``,
    /// else the store's (then cached); `nil` when the store does not have it.
    package func currentRow(for id: ManagedObjectID) -> StoreRow? {
        (try? storeRow(for: id)) ?? nil
    }

    /// ``currentRow(for:)``, with the store's error thrown (a damaged file, a row of an
    /// entity the model lacks) rather than taken for a missing row.
    package func storeRow(for id: ManagedObjectID) throws -> StoreRow? {
        guard let coordinator else { return nil }
        if let row = coordinator.rowCache.row(for: id, maximumAge: stalenessInterval) { return row }
        guard let storeID = id.storeIdentifier, let store = coordinator.store(withIdentifier: storeID),
              let row = try store.row(for: id) else { return nil }
        try checkRow(row, for: id, of: store)
        coordinator.rowCache.store(CollectionOfOne(row))
        return row
    }

    /// The row the store has now for an object, read from the store whatever the row cache
    /// holds, and cached (a row the store no longer has leaves the cache); `nil` without a
    /// store or row.
    package func currentStoreRow(for id: ManagedObjectID) throws -> StoreRow? {
        guard let coordinator, let storeID = id.storeIdentifier, let store = coordinator.store(withIdentifier: storeID) else { return nil }
        guard let row = try store.row(for: id) else {
            coordinator.rowCache.remove(CollectionOfOne(id))
            return nil
        }
        try checkRow(row, for: id, of: store)
        coordinator.rowCache.store(CollectionOfOne(row))
        return row
    }

    /// Puts a row's values into an object's slots, without notifications, and wakes it.
    package func fill(_ object: ManagedObject, from row: StoreRow) {
        fillValues(object, from: row)
        // Changes made while waking are the object's loaded state, not changes.
        let wasRestoring = isRestoring
        isRestoring = true
        object.awakeFromFetch()
        isRestoring = wasRestoring
    }

    /// Puts a row's values into an object's slots, without notifications.
    package func fillValues(_ object: ManagedObject, from row: StoreRow) {
        object.faultFlag = false
        object.faultedRelationshipSlots = 0
        object.storeVersion = row.version
        let layout = object.layout
        defer { if !layout.transientDefaultSlots.isEmpty { fillTransientDefaults(object) } }
        if let columns = row.columns, columns.shape.slotKeys == layout.keys {
            fillPackedValues(object, from: row, columns: columns)
            return
        }
        for slot in layout.fillPlan.indices {
            switch layout.fillPlan[slot] {
            case .attribute(let fill):
                let value = row.attributes[layout.keys[slot]].flatMap { fill.attribute.typedValue(from: $0) ?? nil }
                object.storeLoadedSlotValue(value, slot)
            case .relationship(let name, let cardinality, let destination):
                fillRelationship(object, slot: slot, from: row, name: name, cardinality: cardinality, destination: destination)
            case .none:
                break
            }
        }
    }

    /// Gives the transient attributes that hold nothing after a load their default values
    /// (a row has no transient values: a child's row from its parent may).
    private func fillTransientDefaults(_ object: ManagedObject) {
        let layout = object.layout
        for slot in layout.transientDefaultSlots where object.slotValue(slot) == nil {
            object.storeLoadedSlotValue(layout.properties[slot].attribute?.defaultValueForNewObject, slot)
        }
    }

    /// ``fillValues(_:from:)`` for a packed row of the object's entity: the slot values are
    /// taken as one array (shared with the row until the object changes), then the
    /// relationships are filled.
    func fillPackedValues(_ object: ManagedObject, from row: StoreRow, columns: StoreRowColumns) {
        let layout = object.layout
        let shape = columns.shape
        if layout.hasFields {
            for slot in shape.slots where slot >= 0 {
                object.storeLoadedSlotValue(columns.slotValues[slot], slot)
            }
            // Transient attributes hold nothing after a load, as with an unpacked row.
            for slot in shape.otherSlots {
                if case .attribute = layout.fillPlan[slot] { object.storeLoadedSlotValue(nil, slot) }
            }
        } else {
            var values = columns.slotValues
            // Fetched properties keep what they hold; relationships are filled below.
            for slot in shape.otherSlots {
                if case .none = layout.fillPlan[slot] { values[slot] = object.values[slot] }
            }
            object.values = values
        }
        for slot in shape.otherSlots {
            if case .relationship(let name, let cardinality, let destination) = layout.fillPlan[slot] {
                fillRelationship(object, slot: slot, from: row, name: name, cardinality: cardinality, destination: destination)
            }
        }
    }

    /// Puts a row's related objects into a relationship's slot.
    func fillRelationship(_ object: ManagedObject, slot: Int, from row: StoreRow, name: String,
                                  cardinality: RelationshipDescription.Cardinality, destination: String) {
        // A to-many the row left out is a relationship fault, loaded on first access.
        guard let ids = row.relationships[name] ?? missingRelationship(name, cardinality, slot: slot, of: object) else { return }
        let related = relatedObjects(ids, destination: destination)
        switch cardinality {
        case .toOne: object.storeLoadedSlotValue(related.first, slot)
        case .toMany: object.storeLoadedSlotValue(Set(related), slot)
        case .orderedToMany: object.storeLoadedSlotValue(related, slot)
        }
    }
}

/// The class of the last entity whose object a fetch made: the rows of one answer are mostly
/// of one entity, so its class is looked up once rather than once per row. Likewise the last
/// row shape found to fit a layout as a whole values array.
struct ObjectClassCache {
    private var name: String?
    private var type: ManagedObject.Type?
    /// The last shape and layout ``packedSlotValues(of:layout:)`` found to fit each other.
    private var fittingShape: StoreRowShape?
    private var fittingLayout: EntityLayout?

    /// The packed slot values of a row whose shape has the layout's slot keys and whose slots
    /// are all stored attributes (what ``StoreRow/storedSlotValues(forSlotKeys:)`` answers):
    /// the keys are compared once per shape and layout, not once per row.
    mutating func packedSlotValues(of row: UnsafePointer<StoreRow>, layout: EntityLayout) -> ContiguousArray<Any?>? {
        // The usual case (a row of the shape the answer's previous row had) without copying
        // the row's packed columns out (three references retained and released).
        if layout === fittingLayout, let fittingShape, let values = row.pointee.slotValues(ifShapeIs: fittingShape) {
            return values
        }
        guard let shape = row.pointee.columns?.shape else { return nil }
        guard let values = row.pointee.storedSlotValues(forSlotKeys: layout.keys) else { return nil }
        fittingShape = shape
        fittingLayout = layout
        return values
    }

    mutating func objectClass(of entityName: String, in model: ManagedObjectModel) -> ManagedObject.Type {
        if let type, name == entityName { return type }
        let found = model.managedObjectClass(forEntityNamed: entityName)
        name = entityName
        type = found
        return found
    }
}
