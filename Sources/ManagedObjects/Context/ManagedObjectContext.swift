// The context: a scratch pad of managed objects that tracks every change made to them.
import Foundation
import KeyValueCoding
import KeyValueObserving
import UndoManagement
import Synchronization

/// A set of managed objects and the changes made to them since they were last committed
/// (Apple: `NSManagedObjectContext`).
///
/// Insert objects with ``insert(_:)`` (or make them with ``insertNewObject(forEntityNamed:)``),
/// change them through key-value coding or their typed properties, delete them with
/// ``delete(_:)``. The context sees every change through the objects' change seam (it is their
/// ``KeyValueChangeSink``): it keeps the committed value of each changed property, keeps
/// relationships consistent on both sides, applies delete rules, and can undo it all with
/// ``rollback()``.
///
/// - Important: Thread safety: not `Sendable`. A private-queue context and its objects are used
///   inside its `perform` and ``performAndWait(_:)`` blocks, a main-queue context on the
///   main actor, and a context made with ``init(coordinator:)`` or ``init(model:)`` by one
///   thread at a time; pass ``ManagedObjectID``s between them.
public final class ManagedObjectContext {
    /// The model of the context's objects.
    public let model: ManagedObjectModel
    /// The coordinator whose stores the context fetches from and saves to
    /// (Apple: `persistentStoreCoordinator`); `nil` for a scratch context.
    public let coordinator: PersistentStoreCoordinator?
    // The change-tracking state below is touched on every tracked change and insert, by the
    // context's own thread only (see ConfinementGuard): unchecked, as a dynamic exclusivity
    // check per access would cost more than most of the accesses.
    /// The state behind ``objectObservationStorage``.
    @exclusivity(unchecked) private var sharedObservationStorage: KeyValueObservationStorage?
    /// Registered objects by ID: every registered object (the entries of ``unindexedInserts``
    /// and ``unindexedFetches`` are made first, so any use sees them all).
    package var registered: [ManagedObjectID: ManagedObject] {
        _read {
            indexWaitingEntries()
            yield registeredByID
        }
        _modify {
            indexWaitingEntries()
            yield &registeredByID
        }
    }
    /// The registry's entries made so far: every registered object but those of
    /// ``unindexedInserts`` and ``unindexedFetches``. Read directly only where those cannot
    /// matter (see ManagedObjectContext+Registry.swift).
    @exclusivity(unchecked) package var registeredByID: [ManagedObjectID: ManagedObject] = [:]
    /// New objects inserted without an ID (nobody had asked for one), registered in the
    /// context but without an entry in ``registeredByID`` yet: the entry is made under the
    /// ID they have when the registry is next used, so that objects inserted and saved get
    /// one entry, under their permanent IDs, or none at all when nothing looks them up.
    @exclusivity(unchecked) package var unindexedInserts: [ManagedObject] = []
    /// Objects a fetch made from a store's rows, each of an ID no registered object had,
    /// registered in the context but without an entry in ``registeredByID`` yet (in the order
    /// they were registered): the entries are made when the registry is next used, so that a
    /// fetch whose objects nothing looks up by ID makes no entry per object (see
    /// ManagedObjectContext+Registry.swift).
    @exclusivity(unchecked) package var unindexedFetches: [ManagedObject] = []
    /// Whether the objects of ``unindexedInserts`` took permanent IDs from a save (IDs a
    /// store's later answer must be checked against).
    @exclusivity(unchecked) package var unindexedInsertsHavePermanentIDs = false
    @exclusivity(unchecked) package var inserted = TrackedObjectSet(.inserted)
    @exclusivity(unchecked) package var updated = TrackedObjectSet(.updated)
    @exclusivity(unchecked) package var deleted = TrackedObjectSet(.deleted)
    /// The objects with committed values of changed slots (``ManagedObject/committedRecord``):
    /// what `rollback()` restores and `committedValues(forKeys:)` answers. See
    /// ManagedObjectContext+ChangeRecords.swift.
    @exclusivity(unchecked) package var committedHolders = TrackedObjectSet(.committedValues)
    /// The objects with values of changed slots at the start of the current user event
    /// (``ManagedObject/eventRecord``): what `changedValuesForCurrentEvent()` compares with.
    /// Emptied by `processPendingChanges()`.
    @exclusivity(unchecked) package var eventHolders = TrackedObjectSet(.eventValues)
    /// Values of slots announced by `willChange`, awaiting their `didChange`.
    @exclusivity(unchecked) package var pendingOldValues: [(object: ObjectIdentifier, slot: Int, value: Any?)] = []
    /// Depth of relationship maintenance in progress: changes made by it do not maintain again.
    @exclusivity(unchecked) package var maintenanceDepth = 0
    /// Whether a merge policy's resolution during the current save changed relationships in
    /// the context (quietly or as changes of its own): the undo actions recorded before it no
    /// longer fit the graph, and the save removes them.
    @exclusivity(unchecked) package var resolutionMovedRelationships = false
    /// The entity ``insertNewObject(forEntityNamed:)`` made an object of last and its class,
    /// kept while the model is in use (no longer editable: its class bindings are fixed), so
    /// that a run of inserts looks the class up once.
    @exclusivity(unchecked) package var lastInsertedClass: (entityName: String, objectClass: ManagedObject.Type)?
    /// How many objects were registered so far (gives each its ``ManagedObject/registrationSequence``).
    @exclusivity(unchecked) package var registrationCount: UInt64 = 0
    /// Whether an object with relationship slots was ever registered (the context's teardown
    /// empties those slots).
    @exclusivity(unchecked) package var hasRegisteredRelatedObjects = false
    /// Whether the context is putting committed values back (rollback): not a change.
    @exclusivity(unchecked) package var isRestoring = false
    /// The pending event (``pendingEvent``) but for the objects in ``pendingEventInserts``.
    @exclusivity(unchecked) package var storedPendingEvent = Changes()
    /// Objects inserted in the current event not yet put in ``storedPendingEvent``'s inserted
    /// set: a run of inserts appends them, and the set takes them all at once, sized for them,
    /// the first time the event is read or changed (``pendingEvent``).
    @exclusivity(unchecked) package var pendingEventInserts: [ManagedObject] = []
    /// The object last found in ``pendingEvent``'s inserted objects, while it is certainly
    /// still there (every change of the event forgets it): the changes of one new object's
    /// attributes look the event's inserted objects up once, not once per attribute.
    @exclusivity(unchecked) package var lastPendingInsert: ObjectIdentifier?
    /// Typed callbacks, by the identity of their token.
    package var changeHandlers: [(token: ObjectIdentifier, handler: (Changes) -> Void)] = []
    package var saveHandlers: [(token: ObjectIdentifier, handler: (SaveResult, Changes) -> Void)] = []
    /// Unchanged objects whose store version the next save checks (`detectConflicts(for:)`).
    package var conflictChecked: Set<ManagedObject> = []
    /// Where the context posts its notifications (default: `NotificationCenter.default`).
    public var notificationCenter: NotificationCenter = .default
    /// A name for messages and debugging (Apple: `name`).
    public var name: String?
    /// The author recorded with this context's saves in the persistent history of stores that
    /// track it (Apple: `transactionAuthor`); see ``PersistentHistoryTransaction/author``.
    public var transactionAuthor: String?
    /// Which thread is inside an operation of the context.
    package let confinement: ConfinementGuard
    /// How the context runs its work (Apple: `concurrencyType`).
    public let concurrencyType: ConcurrencyType
    /// The serial queue of a private-queue context.
    package let privateQueue: DispatchQueue?
    /// The context this one fetches from and saves to, or `nil` when it works on its
    /// ``coordinator``'s stores directly (Apple: `parent`).
    public let parent: ManagedObjectContext?
    /// The children (with ``automaticallyMergesChangesFromParent``) told about this context's
    /// saves.
    package let autoMergingChildren = ContextRegistry()
    /// Temporary IDs of objects that have since been saved, and their permanent IDs: how a
    /// child that still knows an object by its temporary ID reaches it here.
    package var permanentIDsOfSavedObjects: [ManagedObjectID: ManagedObjectID] = [:]
    /// Temporary IDs by which this child knows objects of its parent chain: those it pushed
    /// into its parent, and those it fetched, faulted or merged from it (a sibling's unsaved
    /// insert). Each is re-registered under its permanent ID once the chain has one
    /// (``adoptPermanentIDsFromParent()``).
    package var parentTemporaryIDs: Set<ManagedObjectID> = []
    /// The coordinator's ``PersistentStoreCoordinator/permanentIDGeneration`` when this child
    /// last re-keyed its ``parentTemporaryIDs``, and whether it noted new ones since: with
    /// neither changed, none of them can have a permanent ID it has not taken.
    package var parentTemporaryIDsChecked: (generation: Int, notedSince: Bool) = (-1, false)
    /// How many child contexts this context has (they may ask for ``permanentIDsOfSavedObjects``).
    package let childCount = Atomic<Int>(0)
    /// Whether the context merges the changes its parent (or, for a context on a coordinator,
    /// another context of the coordinator) saves (Apple: `automaticallyMergesChangesFromParent`).
    ///
    /// The merge runs on the context's queue (with ``perform(_:)``; at once, on the saving
    /// thread, for a context without a queue) through ``mergeChanges(from:)``.
    public var automaticallyMergesChangesFromParent = false {
        didSet { updateAutoMergeRegistration() }
    }
    /// The undo manager that records the context's changes, or `nil` (the default, as Apple's
    /// contexts on iOS and Linux have none) (Apple: `undoManager`).
    // Unchecked, as the change-tracking state above: read by every insert and change.
    @exclusivity(unchecked) public var undoManager: UndoHistory? {
        // Every change registers an undo action from now on: no store is quiet.
        didSet { endQuietStores() }
    }
    /// How a save resolves conflicts with the store (Apple: `mergePolicy`); the default,
    /// ``MergePolicy/error``, makes a save with conflicts throw ``ManagedObjectMergeError``.
    /// See ``MergePolicy``.
    public var mergePolicy: MergePolicy = .error
    /// The most seconds a row cached by the coordinator may have aged before a fault of this
    /// context is filled from its store instead (Apple: `stalenessInterval`): 0 reads the store
    /// every time; a negative value (the default) takes a cached row of any age. Rows saved
    /// through the same coordinator are always current; the interval matters for changes made
    /// by another coordinator or process.
    public var stalenessInterval: TimeInterval = -1

    /// Creates a context on a coordinator's stores.
    ///
    /// - Parameter coordinator: The coordinator.
    public convenience init(coordinator: PersistentStoreCoordinator) {
        self.init(model: coordinator.model, coordinator: coordinator, parent: nil, concurrencyType: .confinement)
    }

    /// The designated initialiser: every other one names its concurrency type and source.
    package init(model: ManagedObjectModel, coordinator: PersistentStoreCoordinator?, parent: ManagedObjectContext?,
                 concurrencyType: ConcurrencyType) {
        self.model = model
        self.coordinator = coordinator
        self.parent = parent
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .confinement:
            confinement = ConfinementGuard(admission: .anyThread)
            privateQueue = nil
        case .mainQueue:
            confinement = ConfinementGuard(admission: .mainThread)
            privateQueue = nil
        case .privateQueue:
            confinement = ConfinementGuard(admission: .performOnly)
            privateQueue = DispatchQueue(label: "ObjectGraph.ManagedObjectContext.private")
        }
    }

    /// Creates a scratch context for objects of `model`, with no store: objects can be inserted,
    /// changed, deleted and rolled back, and ``save()`` throws
    /// ``ManagedObjectContextError/noStore(_:)``.
    ///
    /// - Parameter model: The model.
    public convenience init(model: ManagedObjectModel) {
        self.init(model: model, coordinator: nil, parent: nil, concurrencyType: .confinement)
    }

    deinit {
        parent?.childCount.subtract(1, ordering: .relaxed)
        // The context's undo actions leave the undo manager with it (Apple's context removes
        // its actions when it is deallocated): undoing them would change nothing. They target
        // the context, which already reads as freed here.
        undoManager?.removeActionsOfFreedTargets()
        // Objects keep each other alive through relationships; a context that goes away
        // breaks those cycles, as Apple's context turns its objects into faults. A context
        // whose objects have no relationships and whose change sets never held an object
        // (every record and membership bit goes with a change set) has nothing to clear: its
        // objects are not visited one by one (a fetch of many objects that only reads them).
        guard hasRegisteredRelatedObjects || inserted.hasHeldObjects || updated.hasHeldObjects
                || deleted.hasHeldObjects || committedHolders.hasHeldObjects || eventHolders.hasHeldObjects else { return }
        // Every part of the registry, without making the missing entries.
        for object in registeredByID.values { forgetContext(of: object) }
        for object in unindexedInserts { forgetContext(of: object) }
        for object in unindexedFetches { forgetContext(of: object) }
    }

    /// Clears what the context left on `object` as it goes away.
    private func forgetContext(of object: ManagedObject) {
        // The objects' references to this context (their change sink and
        // `managedObjectContext`) are weak: they read as `nil` from now on, with no need to
        // clear them one by one (a weak store each, and each object's observation lock).
        // An object in no change set and without records (a saved one) has only its quiet
        // stores to end: no record to release.
        if object.holdsNoChangeRecords {
            object.forgetQuietStores()
        } else {
            object.changeSetMembership = []
            object.forgetChangeRecords()
        }
        // Each relationship is cut and becomes a relationship fault that cannot fire (the
        // context is gone): typed reads give empty values, key-value coding throws
        // `faultNotFulfilled(_, .contextGone)`, `hasFault(forRelationshipNamed:)` is true.
        for slot in object.layout.relationshipSlots where !object.markRelationshipFault(slot: slot) {
            object.storeLoadedSlotValue(object.layout.emptyValue(slot), slot)
        }
    }

    // MARK: Registered objects

    /// Every object registered in the context (Apple: `registeredObjects`).
    public var registeredObjects: Set<ManagedObject> { Set(registered.values) }

    /// Objects inserted since the last save (Apple: `insertedObjects`).
    public var insertedObjects: Set<ManagedObject> { inserted.objects }

    /// Objects with changed properties since the last save, neither inserted nor deleted
    /// (Apple: `updatedObjects`).
    public var updatedObjects: Set<ManagedObject> { updated.objects }

    /// Objects deleted since the last save (Apple: `deletedObjects`).
    public var deletedObjects: Set<ManagedObject> { deleted.objects }

    /// Whether anything was inserted, changed or deleted since the last save
    /// (Apple: `hasChanges`).
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// The registered object with `id`, or `nil` (Apple: `registeredObject(for:)`).
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? { registered[id] }

    // MARK: Inserting and deleting

    /// Makes a new object of an entity and inserts it (Apple:
    /// `NSEntityDescription.insertNewObject(forEntityName:into:)`).
    ///
    /// - Parameter entityName: The entity's name.
    /// - Returns: The new object, with its attributes' default values.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)``; the entity is abstract:
    ///   ``ManagedObjectContextError/abstractEntity(_:)``.
    @discardableResult
    public func insertNewObject(forEntityNamed entityName: String) throws -> ManagedObject {
        // The class bound to the entity (ManagedObject unless a subclass is bound): the one
        // found for the entity inserted last while the model was in use, else looked up.
        let objectClass: ManagedObject.Type
        if let last = lastInsertedClass, last.entityName == entityName {
            objectClass = last.objectClass
        } else {
            objectClass = model.managedObjectClass(forEntityNamed: entityName)
            // Once a coordinator uses the model, its class bindings cannot change.
            lastInsertedClass = model.isEditable ? nil : (entityName, objectClass)
        }
        let object = try objectClass.init(entityName: entityName, in: model)
        try insert(object)
        return object
    }

    /// Registers a new object for saving (Apple: `insert(_:)`). Inserting an object deleted in
    /// this context undoes the delete: the object is back with the changes it had before the
    /// delete (updated if it changed since the last save).
    ///
    /// - Parameter object: An object of this context's model that belongs to no other context.
    /// - Throws: ``ManagedObjectContextError`` when the object belongs to another context or
    ///   model, or its entity is abstract.
    public func insert(_ object: ManagedObject) throws {
        enterConfinement("insert(_:)")
        defer { exitConfinement() }
        // An object never registered (no registration sequence yet) has no context: no weak
        // load for a new object.
        if object.registrationSequence != 0, let owner = object.managedObjectContext, owner !== self {
            throw ManagedObjectContextError.objectInAnotherContext(object.objectID)
        }
        guard object.managedObjectModel === model else { throw ManagedObjectContextError.objectOfAnotherModel(object.objectID) }
        guard !object.entity.isAbstract else { throw ManagedObjectContextError.abstractEntity(object.entity.name) }
        // The membership bit first (inlined): a new object is in no set, and takes no call.
        if deleted.contains(object), deleted.remove(object) != nil {
            // The delete kept its committed values: changed since the last save, it is updated
            // again (the undo of a delete restores the earlier changes, which the next save
            // writes).
            if object.committedRecord != nil { updated.insert(object) }
            noteInserted(object)
            return
        }
        if object.registrationSequence == 0 && object.knownObjectID == nil {
            // Never registered and without an ID: no registered object can have the ID it
            // will get. Its registry entry waits until the registry is used.
            unindexedInserts.append(object)
            didRegister(object)
        } else {
            // One probe of the registry: the object goes in unless its ID names one already.
            guard register(object, unlessRegistered: object.objectID) else { return }
        }
        inserted.insert(object)
        noteInserted(object)
        // Its stores in this event record nothing more (the values at the insert are the
        // event's start; an inserted object has no committed values): quiet from the first.
        recordInsertedEventStart(of: object)
        if !object.hasAwokenFromInsert {
            object.hasAwokenFromInsert = true
            object.awakeFromInsert()
        }
    }

    /// Marks an object for deletion and applies its relationships' delete rules: cascade deletes
    /// the related objects, nullify removes the object from their inverse, deny is checked at
    /// save (Apple: `delete(_:)`). Deleting a newly inserted object just forgets it.
    ///
    /// - Parameter object: A registered object.
    public func delete(_ object: ManagedObject) {
        enterConfinement("delete(_:)")
        defer { exitConfinement() }
        // An object without relationships reaches no other object: the steps below for it
        // alone, without the worklist.
        if object.layout.relationshipSlots.isEmpty { return deleteUnrelated(object) }
        // A worklist, not recursion: a cascade may reach thousands of objects in a chain.
        var pending = [object]
        var reached: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        while let next = pending.popLast() {
            guard next.managedObjectContext === self, !deleted.contains(next),
                  seen.insert(ObjectIdentifier(next)).inserted else { continue }
            markDeleted(next)
            reached.append(next)
            pending += cascadeTargets(of: next)
        }
        for deletedObject in reached { nullifyInverses(of: deletedObject) }
        // After the delete rules' changes, so that undo inserts the objects before it restores
        // the inverses (see noteDeleted).
        for deletedObject in reached { registerUndoOfDelete(deletedObject) }
        for deletedObject in reached where !deleted.contains(deletedObject) {
            unregister(deletedObject)
        }
    }

    /// ``delete(_:)`` of an object whose entity has no relationships (no delete rule to
    /// follow, no inverse to nullify).
    private func deleteUnrelated(_ object: ManagedObject) {
        guard object.managedObjectContext === self, !deleted.contains(object) else { return }
        markDeleted(object)
        registerUndoOfDelete(object)
        if !deleted.contains(object) { unregister(object) }
    }

    /// An object's own steps of a delete, before any delete rule: `prepareForDeletion()`, then
    /// out of the inserted objects (an inserted object is simply dropped) or into the deleted
    /// ones, and the change noted.
    private func markDeleted(_ object: ManagedObject) {
        object.prepareForDeletion()
        let wasInserted = inserted.remove(object) != nil
        if !wasInserted {
            deleted.insert(object)
            updated.remove(object)
        }
        noteDeleted(object, wasInserted: wasInserted)
    }

    package func register(_ object: ManagedObject) {
        registered[object.objectID] = object
        didRegister(object)
    }

    /// Registers `object`, a fetch's new object whose ID no registered object has, without
    /// its registry entry: the entry waits in ``unindexedFetches`` until the registry is used.
    ///
    /// - Precondition: No registered object (entry made or waiting) has the object's ID.
    package func registerAwaitingEntry(_ object: ManagedObject) {
        unindexedFetches.append(object)
        didRegister(object)
    }

    /// Registers `object` under `id`, its ID, unless an object is registered under that ID
    /// already (the registry then stays as it was): one probe of the registry for both.
    ///
    /// - Returns: Whether the object was registered.
    private func register(_ object: ManagedObject, unlessRegistered id: ManagedObjectID) -> Bool {
        if let previous = registered.updateValue(object, forKey: id) {
            registered[id] = previous
            return false
        }
        didRegister(object)
        return true
    }

    /// The steps of a registration after the registry holds the object.
    private func didRegister(_ object: ManagedObject) {
        registrationCount &+= 1
        object.registrationSequence = registrationCount
        if !hasRegisteredRelatedObjects && !object.layout.relationshipSlots.isEmpty { hasRegisteredRelatedObjects = true }
        object.managedObjectContext = self
        // The context's change sink reaches the object through the state all its objects
        // share: no sink reference or observation state per object. Passed unretained (the
        // context holds it; the object retains it for itself): no retain and release per
        // registration around the call.
        unmanagedObjectObservationStorage._withUnsafeGuaranteedRef { object.setOwnerObservationStorage($0) }
    }

    /// ``objectObservationStorage``, unretained (the context holds it).
    private var unmanagedObjectObservationStorage: Unmanaged<KeyValueObservationStorage> {
        if let made = sharedObservationStorage { return Unmanaged.passUnretained(made) }
        return Unmanaged.passUnretained(objectObservationStorage)
    }

    /// Removes `object` from the context: out of its change sets and records, the registry and
    /// its observation state.
    ///
    /// - Parameter leavingRegistry: The caller removed the object from ``registered`` already
    ///   (a save that made the registry anew without its deleted objects).
    package func unregister(_ object: ManagedObject, leavingRegistry: Bool = false) {
        // Delete rules may have marked it updated (an inverse it held) on the way out.
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
        if !pendingEvent.updated.isEmpty { pendingEvent.updated.remove(object) }
        if !leavingRegistry { registered[object.objectID] = nil }
        committedHolders.remove(object)
        eventHolders.remove(object)
        object.forgetChangeRecords()
        object.managedObjectContext = nil
        object.setOwnerObservationStorage(nil)
    }

    /// The observation state the context's objects share (their change sink is the context;
    /// see ``KeyValueObject/setOwnerObservationStorage(_:)``), made when the first object is
    /// registered.
    package var objectObservationStorage: KeyValueObservationStorage {
        if let made = sharedObservationStorage { return made }
        let made = KeyValueObservationStorage(sharingSink: self)
        sharedObservationStorage = made
        return made
    }
}

/// An error from a context operation.
public enum ManagedObjectContextError: Error, Equatable, Sendable {
    /// The object is registered in another context (Apple raises
    /// `NSInvalidArgumentException`).
    case objectInAnotherContext(ManagedObjectID)
    /// The object's entity belongs to another model.
    case objectOfAnotherModel(ManagedObjectID)
    /// Abstract entities have no objects of their own.
    case abstractEntity(String)
    /// No store of the context's coordinator holds the entity (or the context has no
    /// coordinator).
    case noStore(String)
    /// The coordinator's model has no configuration of that name.
    case unknownConfiguration(String)
    /// The object is not in the store (any more): it was deleted elsewhere (Apple:
    /// `existingObject(with:)` fails with `NSManagedObjectReferentialIntegrityError`).
    case objectNotFound(ManagedObjectID)
    /// A fetch request names an entity the model does not have.
    case unknownEntity(String)
    /// A dictionary fetch that cannot be answered (the text says why).
    case invalidDictionaryFetch(String)
    /// No store type of that name is registered.
    case unknownStoreType(String)
    /// A store's answer breaks the store contract (``PersistentStore``): new IDs of the wrong
    /// number, entity or store, temporary or repeated IDs, a fetched object of an entity that
    /// was not asked for, a negative count; a user's store's row with a value that does not fit
    /// its attribute's type, a negative version, several objects on a to-one or an object of
    /// another store. The store's type and identifier, and what is wrong.
    case invalidStoreAnswer(store: String, reason: String)
    /// A child context's save changes or relates objects its parent no longer has: objects
    /// the parent deleted (saved or not) or its store no longer has, and objects the parent
    /// had inserted and then dropped (`reset()`, `rollback()`) before the child saved.
    /// Nothing reaches the parent; the child keeps its changes (Apple's child save fails on an
    /// object its parent deleted and saved, whose fault it cannot fulfill).
    case objectsGoneFromParent([ManagedObjectID])
    /// A fault's values cannot be loaded (Apple raises "CoreData could not fulfill a fault"):
    /// the object and why. Thrown by ``ManagedObject/fulfillFault()`` and key-value coding
    /// by key; typed properties read empty values instead.
    case faultNotFulfilled(ManagedObjectID, reason: FaultFailure)
    /// A change by key-value coding to an object whose context was released (the object was
    /// kept, the context was not). No context would record or save the change (a typed
    /// property's store, which cannot throw, changes the value in memory only). An object that
    /// left a live context (`reset()`) is an object outside any context, and takes changes.
    case contextGone(ManagedObjectID)

    /// Why a fault cannot be fulfilled.
    public enum FaultFailure: Sendable, Equatable {
        /// The store (or, for a child context, the parent) does not have the object: deleted
        /// by another context or process, or never saved.
        case rowGone
        /// The object's context is gone (released, or the object left it by `reset()`).
        case contextGone
    }
}

extension ManagedObjectContextError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the object or entity.
    public var description: String {
        switch self {
        case .objectInAnotherContext(let id): return "the object \(id) is registered in another context"
        case .objectOfAnotherModel(let id): return "the object \(id) belongs to another model than the context's"
        case .abstractEntity(let name): return "the entity '\(name)' is abstract and cannot have objects of its own"
        case .noStore(let name):
            return "no store holds objects of the entity '\(name)': add a store to the context's coordinator "
                + "(coordinator.addStore(_:), or a container's loadPersistentStores()); a context made with "
                + "init(model:) has no coordinator: its objects are scratch objects that cannot be saved"
        case .unknownConfiguration(let name): return "the model has no configuration '\(name)'"
        case .objectNotFound(let id) where id.isTemporaryID:
            return "the object \(id) is not registered in this context: a temporary ID names an object only in the "
                + "context that inserted it, until a save gives the object a permanent ID (read objectID after the save)"
        case .objectNotFound(let id): return "the object \(id) is not in its store (deleted elsewhere?)"
        case .unknownEntity(let name): return "the model has no entity '\(name)'"
        case .unknownStoreType(let type):
            return "no store type '\(type)' is registered (registered: \(PersistentStoreCoordinator.registeredStoreTypes.joined(separator: ", "))); "
                + "a store module registers its type when its first store is made or by its registerStoreType()"
        case .invalidDictionaryFetch(let why): return "the dictionary fetch cannot be answered: \(why)"
        case .invalidStoreAnswer(let store, let reason): return "the store \(store) answered wrongly: \(reason)"
        case .objectsGoneFromParent(let ids):
            return "the child context's save changes or relates objects its parent no longer has (deleted in the parent or "
                + "its store, or dropped by the parent's reset() or rollback() after it inserted them): "
                + ids.map(\.description).joined(separator: ", ")
        case .contextGone(let id):
            return "the object \(id) outlived its context (the context was released): no context would record or save "
                + "a change to it; keep the context, or fetch the object again in a live context"
        case .faultNotFulfilled(let id, .rowGone):
            return "the fault of \(id) cannot be fulfilled: its store (or parent context) does not have the object "
                + "(deleted elsewhere, or never saved)"
        case .faultNotFulfilled(let id, .contextGone):
            return "the fault of \(id) cannot be fulfilled: its context is gone (released, or reset), and what it never loaded "
                + "(its values, or a relationship's members: a released context cuts its objects' relationships) cannot be read"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
