import Foundation
import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// The observers of one key of one object, and the changes announced but not finished yet.
///
/// An `@Observed` property holds a reference to its list once someone observes it; the
/// ``ObservationTable`` holds every list, by object and key, for the other ways of changing a key
/// (`setValue(_:forKey:)` on a plain stored property, manual `willChangeValue(forKey:)`).
///
/// Thread safety: the node list and the pending changes are guarded by a mutex; the list is
/// copied under the lock and observers are called after unlocking.
@usableFromInline
final class KeyObservers: Sendable {
    @usableFromInline let key: String
    /// Whether the object's type sends automatic notifications for `key`.
    @usableFromInline let notifiesAutomatically: Bool
    /// Whether the key's values are optionals, reported flattened (`nil` rather than `.none`).
    @usableFromInline let valueIsOptional: Bool
    /// For the list attached to an `@Observed` property: the byte offset of the property's
    /// storage in the object, so its setter can store without a key path; otherwise -1.
    @usableFromInline let storageOffset: Int
    /// The observation state of the object this list belongs to (for its change sink).
    ///
    /// `unowned`, not `weak`: a weak reference would move the storage's reference counts to a
    /// side table, making every retain and release of it slow. The storage lives as long as its
    /// object (in the object, or in the table until the object is gone), and the list reads it
    /// only while notifying a change of that live object.
    unowned let owner: KeyValueObservationStorage
    /// The key paths that affect `key` (`keyPathsForValuesAffectingValue(forKey:)`), looked
    /// up once when the list is made.
    let dependencyKeyPaths: [String]
    /// Whether the owner has a change sink: read without touching the owner on every store.
    let hasSink = Atomic<Bool>(false)
    let state = Mutex(State())

    struct State {
        var nodes: [ObservationNode] = []
        /// Every node reports its own key on its own object, without a prior notification.
        var isSimple = true
        /// Changes announced by `willChange...` and not yet finished, innermost last.
        var pending: [PendingChange] = []
    }

    init(key: String, notifiesAutomatically: Bool, valueIsOptional: Bool, storageOffset: Int = -1,
         dependencyKeyPaths: [String] = [], owner: KeyValueObservationStorage) {
        self.dependencyKeyPaths = dependencyKeyPaths
        self.key = key
        self.notifiesAutomatically = notifiesAutomatically
        self.valueIsOptional = valueIsOptional
        self.storageOffset = storageOffset
        self.owner = owner
    }

    func add(_ node: ObservationNode) {
        state.withTrackedLock(self) { state in
            state.nodes.append(node)
            state.isSimple = state.isSimple && node.isSimple
        }
    }

    func remove(_ node: ObservationNode) {
        state.withTrackedLock(self) { state in
            guard let position = state.nodes.firstIndex(where: { $0 === node }) else { return }
            state.nodes.remove(at: position)
            state.isSimple = state.nodes.allSatisfy(\.isSimple)
        }
    }

    var observerCount: Int { state.withTrackedLock(self) { $0.nodes.count } }

    // MARK: Setting through an @Observed property

    /// Stores a new value with `store`, telling the object's hooks, change sink and this key's
    /// observers around it (see ``ObservationCenter`` for the order).
    ///
    /// - Parameters:
    ///   - object: The object whose property changes.
    ///   - old: The value before the change.
    ///   - new: The value after the change.
    ///   - store: Performs the store.
    /// When the thread is already ``KeyValueObservingDiagnostics/maximumNestingDepth``
    /// notifications deep, only stores and reports the suppressed notification.
    @usableFromInline
    func notifyingSet(object: some KeyValueObservable, old: consuming Any, new: consuming Any, store: () -> Void) {
        guard let depth = enterNotification() else {
            store()
            reportSuppressed(object: object)
            return
        }
        defer { leaveNotification(depth) }
        // The hooks get the plain event (no values: nothing to allocate); the sink, when
        // there is one, the values too.
        object.keyValueWillChange(KeyValueChangeEvent(.willChange, key: key))
        deliverSet(object: object, old: old, new: new, store: store)
        object.keyValueDidChange(KeyValueChangeEvent(.didChange, key: key))
    }

    /// Enters one level of notification on this thread for a store (see
    /// ``notifyingSet(object:old:new:store:)``); nil when the thread is too deep, and then
    /// the caller stores and calls ``reportSuppressed(object:)``.
    ///
    /// An `@Observed` setter calls this, the object's hooks and ``deliverSet(object:old:new:store:)``
    /// itself, from code specialised for the object's class, so that the hooks it does not
    /// implement cost nothing.
    @usableFromInline
    func enterNotification() -> UnsafeMutableRawPointer? {
        NotificationDepth.enter().map { UnsafeMutableRawPointer($0) }
    }

    /// Leaves the level entered by ``enterNotification()``.
    @usableFromInline
    func leaveNotification(_ depth: UnsafeMutableRawPointer) {
        NotificationDepth.leave(depth.assumingMemoryBound(to: NotificationDepth.Counts.self))
    }

    /// Reports a store whose notification ``enterNotification()`` refused.
    @usableFromInline
    func reportSuppressed(object: AnyObject) {
        KeyValueObservingDiagnostics.reportSuppressed(key: key, object: object)
    }

    /// The part of ``notifyingSet(object:old:new:store:)`` between the hooks: the change sink
    /// and the observers around `store`. Call it between ``enterNotification()`` and
    /// ``leaveNotification(_:)``.
    @usableFromInline
    func deliverSet(object: some KeyValueObservable, old: consuming Any, new: consuming Any, store: () -> Void) {
        // No conditional expressions over `Any?` here: each builds `Any??` temporaries, and
        // every copy or destruction of an `Any?` goes through the runtime's value witnesses.
        let oldValue: Any?
        let newValue: Any?
        if valueIsOptional {
            oldValue = flattenOptional(old)
            newValue = flattenOptional(new)
        } else {
            oldValue = consume old
            newValue = consume new
        }
        // The sink's events carry the values; made only when there is a sink.
        var sinkEvent: (sink: any KeyValueChangeSink, event: KeyValueChangeEvent)?
        if hasSink.load(ordering: .acquiring), let sink = owner.sink {
            var event = KeyValueChangeEvent(.willChange, key: key, oldValue: oldValue, newValue: newValue)
            sink.observedObject(object, willChange: event)
            event.phase = .didChange
            sinkEvent = (sink, event)
        }
        let (nodes, isSimple) = state.withTrackedLock(self) { ($0.nodes, $0.isSimple) }
        guard isSimple else {
            let pending = prepare(nodes, object: object, kind: .setting, indexes: nil,
                                  setMutation: nil, suppliedOld: .some(oldValue))
            store()
            if let sinkEvent { sinkEvent.sink.observedObject(object, didChange: sinkEvent.event) }
            finish(pending, object: object, suppliedNew: .some(newValue))
            return
        }
        store()
        if let sinkEvent { sinkEvent.sink.observedObject(object, didChange: sinkEvent.event) }
        if nodes.count == 1 {
            // One observer, the common case: the values move into its record, uncopied.
            let node = nodes[0]
            node.deliver(object, Self.settingRecord(node, old: consume oldValue, new: consume newValue))
            return
        }
        // One record per combination of options, shared by the observers asking for it
        // (a record holds two existentials and an optional index set: copying it is not free).
        var change = KeyValueChange(kind: .setting)
        var madeFor = -1
        for index in nodes.indices {
            let node = nodes[index]
            let options = (node.wantsOld ? 1 : 0) | (node.wantsNew ? 2 : 0)
            if options != madeFor {
                madeFor = options
                change = Self.settingRecord(node, old: oldValue, new: newValue)
            }
            node.deliver(object, change)
        }
    }

    /// The record of a whole-value change for `node`, with the values it asked for.
    ///
    /// Made by initialisation, never by assigning the record's `Any?` fields: an assignment
    /// destroys the field's previous value through the runtime's value witnesses.
    @inline(__always)
    private static func settingRecord(_ node: ObservationNode, old: consuming Any?, new: consuming Any?)
        -> KeyValueChange {
        switch (node.wantsOld, node.wantsNew) {
        case (true, true): KeyValueChange(kind: .setting, oldValue: old, newValue: new)
        case (true, false): KeyValueChange(kind: .setting, oldValue: old)
        case (false, true): KeyValueChange(kind: .setting, newValue: new)
        case (false, false): KeyValueChange(kind: .setting)
        }
    }

    // MARK: Manual notification

    /// Announces a change (Apple: `willChangeValueForKey:` and relatives).
    func willChange(object: AnyObject, kind: KeyValueChangeKind, indexes: IndexSet?,
                    setMutation: SetMutation? = nil) {
        guard let depth = NotificationDepth.enter() else {
            // Too deep: the matching didChange finds nothing to deliver.
            let empty = PendingChange(kind: kind, indexes: indexes, setMutation: setMutation, entries: [])
            state.withTrackedLock(self) { $0.pending.append(empty) }
            return
        }
        defer { NotificationDepth.leave(depth) }
        let nodes = state.withTrackedLock(self) { $0.nodes }
        let pending = prepare(nodes, object: object, kind: kind, indexes: indexes,
                              setMutation: setMutation, suppliedOld: nil)
        state.withTrackedLock(self) { $0.pending.append(pending) }
    }

    /// Finishes the innermost announced change (Apple: `didChangeValueForKey:` and relatives).
    /// Does nothing without a matching announcement.
    func didChange(object: AnyObject) {
        guard let pending = state.withTrackedLock(self, { $0.pending.popLast() }) else { return }
        guard let depth = NotificationDepth.enter() else {
            KeyValueObservingDiagnostics.reportSuppressed(key: key, object: object)
            return
        }
        defer { NotificationDepth.leave(depth) }
        finish(pending, object: object, suppliedNew: nil)
    }

    /// Ends the innermost announced change without delivering it: the change did not happen.
    func cancelChange() {
        _ = state.withTrackedLock(self) { $0.pending.popLast() }
    }

    // MARK: The general path

    /// Reads the old values each registration needs and sends prior notifications.
    ///
    /// The old value of a to-many change is read only when a registration asks for it, and
    /// then once for all of them (see ``readToManyOld(into:kind:indexes:setMutation:)``).
    private func prepare(_ nodes: [ObservationNode], object: AnyObject, kind: KeyValueChangeKind,
                         indexes: IndexSet?, setMutation: SetMutation?,
                         suppliedOld: Any??) -> PendingChange {
        var entries: [PendingEntry] = []
        for node in nodes {
            let registration = node.registration
            guard registration.isActive.load(ordering: .relaxed) else { continue }
            if let existing = entries.firstIndex(where: { $0.node.registration === registration }) {
                entries[existing].others.append(node)
                continue
            }
            var entry = PendingEntry(node: node)
            // A key path ending in @count reports every change of the collection as a setting
            // of its count.
            entry.isToMany = node.isLeaf && (kind != .setting || setMutation != nil) && !registration.countsElements
            if !entry.isToMany && registration.wantsOld {
                if node.isLeaf, let suppliedOld {
                    entry.old = node.reported(supplied: suppliedOld)
                } else {
                    entry.old = node.reportedValue()
                }
            }
            entries.append(entry)
        }
        readToManyOld(into: &entries, kind: kind, indexes: indexes, setMutation: setMutation)
        let pending = PendingChange(kind: setMutation?.changeKind ?? kind, indexes: indexes,
                                    setMutation: setMutation, entries: entries)
        for entry in entries where entry.node.registration.wantsPrior {
            let registration = entry.node.registration
            guard registration.isActive.load(ordering: .relaxed),
                  let root = entry.node.depth == 0 ? object : registration.root else { continue }
            var change = KeyValueChange(kind: entry.isToMany ? pending.kind : .setting, isPrior: true)
            if registration.wantsOld { change.oldValue = entry.old }
            if entry.isToMany && setMutation == nil { change.indexes = indexes }
            entry.node.deliver(root, change)
        }
        return pending
    }

    /// Reads the value before a to-many change once, for the to-many entries that need it.
    ///
    /// An array change needs the elements about to be removed or replaced for registrations
    /// asking for ``KeyValueObservingOptions/old`` (prior notifications included); a set
    /// change needs the whole set for registrations asking for old or new members (the members
    /// are the difference with the set after the change). Nothing is read when no registration
    /// asks. All to-many entries are leaves on this list's object, so they share one read.
    private func readToManyOld(into entries: inout [PendingEntry], kind: KeyValueChangeKind,
                               indexes: IndexSet?, setMutation: SetMutation?) {
        var whole = SharedValue()
        if let setMutation {
            var removal: Set<AnyHashable>?
            for position in entries.indices where entries[position].isToMany {
                let registration = entries[position].node.registration
                guard registration.wantsOld || registration.wantsNew else { continue }
                let node = entries[position].node
                let fullOld = whole.get { node.reportedValue() }
                entries[position].fullOld = fullOld
                guard registration.wantsOld else { continue }
                if removal == nil { removal = setMutation.predictedRemoval(from: fullOld) }
                entries[position].old = removal
            }
            return
        }
        guard kind != .insertion, let indexes else { return }
        var removed: [Any]?
        for position in entries.indices where entries[position].isToMany {
            guard entries[position].node.registration.wantsOld else { continue }
            if removed == nil {
                let node = entries[position].node
                removed = elements(of: whole.get { node.reportedValue() }, at: indexes)
            }
            entries[position].old = removed
        }
    }

    /// Re-wires chains through the changed key, reads new values and notifies.
    ///
    /// The value after a to-many change is read at most once, when a registration needs it.
    private func finish(_ pending: PendingChange, object: AnyObject, suppliedNew: Any??) {
        var whole = SharedValue()
        var inserted: [Any]?
        var difference: (added: Set<AnyHashable>, removed: Set<AnyHashable>)?
        for entry in pending.entries {
            let registration = entry.node.registration
            var rewire: [ObservationNode] = []
            entry.node.nodesToRewire(into: &rewire)
            for other in entry.others { other.nodesToRewire(into: &rewire) }
            if !rewire.isEmpty { registration.rewire(rewire) }
            guard registration.isActive.load(ordering: .relaxed),
                  let root = entry.node.depth == 0 ? object : registration.root else { continue }
            var change = KeyValueChange(kind: .setting)
            if entry.isToMany, let setMutation = pending.setMutation {
                change.kind = setMutation.changeKind
                let wantsRemoved = registration.wantsOld && setMutation.changeKind != .insertion
                let wantsAdded = registration.wantsNew && setMutation.changeKind != .removal
                if wantsRemoved || wantsAdded {
                    let node = entry.node
                    let members = difference ?? setMutation.difference(old: entry.fullOld,
                                                                       new: whole.get { node.reportedValue() })
                    difference = members
                    if wantsRemoved { change.oldValue = members.removed }
                    if wantsAdded { change.newValue = members.added }
                }
            } else if entry.isToMany {
                change.kind = pending.kind
                change.indexes = pending.indexes
                if registration.wantsOld { change.oldValue = entry.old }
                if registration.wantsNew, pending.kind != .removal, let indexes = pending.indexes {
                    let node = entry.node
                    let elements = inserted ?? elements(of: whole.get { node.reportedValue() }, at: indexes)
                    inserted = elements
                    change.newValue = elements
                }
            } else {
                if registration.wantsOld { change.oldValue = entry.old }
                if registration.wantsNew {
                    if entry.node.isLeaf, let suppliedNew {
                        change.newValue = entry.node.reported(supplied: suppliedNew)
                    } else {
                        change.newValue = entry.node.reportedValue()
                    }
                }
            }
            entry.node.deliver(root, change)
        }
    }
}

/// A change announced and not finished yet.
///
/// `@unchecked Sendable`: it holds old values (`Any`) between `willChange` and `didChange`,
/// which Apple's contract pairs on one thread; it is only parked in the list's mutex meanwhile.
struct PendingChange: @unchecked Sendable {
    var kind: KeyValueChangeKind
    var indexes: IndexSet?
    var setMutation: SetMutation?
    var entries: [PendingEntry]
}

/// What one registration needs to finish a pending change.
struct PendingEntry {
    var node: ObservationNode
    /// Other nodes of the same registration on this key (dependency diamonds).
    var others: [ObservationNode] = []
    var isToMany = false
    var old: Any?
    var fullOld: Any?

    init(node: ObservationNode) { self.node = node }
}
