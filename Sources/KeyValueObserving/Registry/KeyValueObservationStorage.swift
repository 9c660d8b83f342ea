import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// The observation state of one object: its observer lists by key, its observer-object
/// registrations and its change sink.
///
/// Most objects keep this state in a process-wide table, found by the object's identity. An
/// object whose values are not stored in `@Observed` properties (a managed object's attribute
/// storage) can keep it itself: create one per object and return it from
/// ``KeyValueObservable/keyValueObservationStorage``. Notifications then find it without the
/// table or its lock, and an object nobody observes costs one atomic load per notification.
///
/// ```swift
/// final class Record: KeyValueObservable {
///     let keyValueObservationStorage: KeyValueObservationStorage? = KeyValueObservationStorage()
/// }
/// ```
///
/// Thread safety: thread-safe; the state is behind a mutex and no user code runs under it
/// except `automaticallyNotifiesObservers(forKey:)` while a list is first created.
public final class KeyValueObservationStorage: Sendable {
    struct State {
        var lists: [String: KeyObservers] = [:]
        /// Registrations made with `addObserver(_:forKeyPath:options:context:)`, newest last.
        var observerRegistrations: [Registration] = []
        var sink: SinkReference?
        /// Every sink reference installed (one per distinct sink): kept alive so that the
        /// address in `currentSink` stays valid for lock-free readers.
        var installedSinks: [SinkReference] = []
    }

    let state = Mutex(State())
    /// Whether the object has any observer list: read without the lock on every notification,
    /// so that an object with only a sink (a managed object in its context) takes no lock for
    /// observers.
    @usableFromInline let isInUse = Atomic<Bool>(false)
    /// Whether a sink was ever installed: read without the lock on every notification.
    @usableFromInline let hasSink = Atomic<Bool>(false)
    /// The address of the installed sink's reference (0: none), read without the lock on
    /// every notification; the reference is one of `installedSinks`, which outlive it.
    let currentSink = Atomic<UInt>(0)

    /// Whether a sink was ever installed or any key has an observer list: `false` means a
    /// notification has nobody to reach. Lock-free.
    @inlinable
    package var mayHaveListeners: Bool {
        hasSink.load(ordering: .acquiring) || isInUse.load(ordering: .acquiring)
    }

    /// Whether the object has any observer list (someone observes, or once observed, one of
    /// its keys): what a store that skips the notification machinery must check first
    /// (a managed object's quiet store). Lock-free: one atomic load.
    @inlinable
    package var hasObserverLists: Bool { isInUse.load(ordering: .acquiring) }

    /// Whether this state is an owner's, shared by its objects for its change sink alone
    /// (``init(sharingSink:)``): it never gets an observer list or registration.
    let isSharedSinkCarrier: Bool

    /// Creates empty observation state for one object.
    public init() {
        isSharedSinkCarrier = false
    }

    /// Creates the state an owner shares among its objects (see
    /// ``KeyValueObject/setOwnerObservationStorage(_:)``): it holds only `sink`, weakly.
    ///
    /// - Parameter sink: The owner's change sink (a managed object's context).
    package init(sharingSink sink: any KeyValueChangeSink) {
        isSharedSinkCarrier = true
        setSink(sink)
    }

    /// Returns the list for `key` of `object`, creating it (and attaching it to an `@Observed`
    /// property's storage) on first use.
    func observers(of object: AnyObject, key: String) -> KeyObservers {
        precondition(!isSharedSinkCarrier, "an owner's shared observation state got an observer list")
        return state.withTrackedLock(self) { state -> KeyObservers in
            if let existing = state.lists[key] { return existing }
            let list = KeyObservers.make(for: object, key: key, in: self)
            if state.sink != nil { list.hasSink.store(true, ordering: .releasing) }
            state.lists[key] = list
            isInUse.store(true, ordering: .releasing)
            return list
        }
    }

    /// Returns the list for `key` when someone has observed it (or a sink-aware list was made).
    @inline(__always)
    func existingObservers(key: String) -> KeyObservers? {
        guard isInUse.load(ordering: .acquiring) else { return nil }
        return state.withTrackedLock(self) { $0.lists[key] }
    }

    /// The change sink, if one is installed and still alive.
    var sink: (any KeyValueChangeSink)? {
        let address = currentSink.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        // Lock-free: the reference lives in `installedSinks` as long as this storage.
        return Unmanaged<SinkReference>.fromOpaque(pointer).takeUnretainedValue().sink
    }

    func setSink(_ sink: (any KeyValueChangeSink)?) {
        state.withTrackedLock(self) { state in
            // One reference per distinct sink (an object moving in and out of the same
            // context reuses it), so the kept references do not grow with each install.
            var reference: SinkReference?
            if let sink {
                if let known = state.installedSinks.first(where: { $0.sink === sink }) {
                    reference = known
                } else {
                    let made = SinkReference(sink)
                    state.installedSinks.append(made)
                    reference = made
                }
            }
            install(reference, in: &state)
        }
    }

    /// Installs the sink of `owner`, an owner's shared state (`nil`: removes the sink): the
    /// same reference, so no reference is made per object.
    func adoptSink(of owner: KeyValueObservationStorage?) {
        let reference = owner?.state.withTrackedLock(owner!) { $0.sink }
        state.withTrackedLock(self) { state in
            if let reference, !state.installedSinks.contains(where: { $0 === reference }) {
                state.installedSinks.append(reference)
            }
            install(reference, in: &state)
        }
    }

    /// Makes `reference` (one of `installedSinks`, or `nil`) the current sink.
    private func install(_ reference: SinkReference?, in state: inout State) {
        state.sink = reference
        for list in state.lists.values { list.hasSink.store(reference != nil, ordering: .releasing) }
        let address = reference.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
        currentSink.store(address, ordering: .releasing)
        if reference != nil { hasSink.store(true, ordering: .releasing) }
    }

    func addObserverRegistration(_ registration: Registration) {
        precondition(!isSharedSinkCarrier, "an owner's shared observation state got an observer registration")
        state.withTrackedLock(self) { $0.observerRegistrations.append(registration) }
    }

    /// Finds and forgets the newest observer-object registration matching the arguments
    /// (any context when `context` is nil).
    func takeObserverRegistration(observer: ObjectIdentifier, keyPath: String, context: UInt?) -> Registration? {
        state.withTrackedLock(self) { state in
            guard let position = state.observerRegistrations.lastIndex(where: {
                $0.observerIdentity == observer && $0.keyPath == keyPath && (context == nil || $0.context == context)
            }) else { return nil }
            return state.observerRegistrations.remove(at: position)
        }
    }

    func removeObserverRegistration(_ registration: Registration) {
        state.withTrackedLock(self) { state in
            state.observerRegistrations.removeAll { $0 === registration }
        }
    }

    /// Forgets every observer-object registration (the object is gone) and returns them.
    func takeAllObserverRegistrations() -> [Registration] {
        state.withTrackedLock(self) { state in
            defer { state.observerRegistrations = [] }
            return state.observerRegistrations
        }
    }
}

/// A weak reference to a change sink (a context owns its objects, not the other way round).
///
/// `@unchecked Sendable`: the sink is only called on the thread that makes a change, as
/// observers are; the reference itself is immutable.
final class SinkReference: @unchecked Sendable {
    weak let sink: (any KeyValueChangeSink)?
    init(_ sink: any KeyValueChangeSink) { self.sink = sink }
}
