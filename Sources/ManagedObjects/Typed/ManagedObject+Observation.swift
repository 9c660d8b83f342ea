// Swift's Observation for managed objects: typed reads are accesses, every change is a
// will-set / did-set.
import Foundation
import KeyValueCoding
import KeyValueObserving
import Observation

/// Managed objects are `Observable`: `withObservationTracking` sees reads of their `@Managed`
/// properties and fires on any change of a property read (typed stores, key-value coding,
/// the context's inverse maintenance and rollback), since every change passes the object's
/// will-change hook.
extension ManagedObject: Observable {}

extension ManagedObject {
    /// A Swift key path naming `slot` to the Observation registrar (never read by it; `Int`, whose
    /// metadata costs nothing to reach, unlike `Any?`'s).
    package subscript(observationSlot slot: Int) -> Int { slot }

    /// Reports a typed read of `slot` to Observation (a no-op unless tracking is active, and
    /// skipped when the class opts out), then to a running key-path probe. Inlined into every
    /// typed getter: two flag tests, and a call only for a class that reports reads.
    @inlinable @inline(__always)
    func reportManagedRead(slot: Int) {
        if reportsObservationAccess { reportObservationAccess(slot: slot) }
        if _slowPath(isReadByKeyPathProbe) { recordProbedRead(slot: slot) }
    }

    /// Reports a typed read of `slot` to Observation: one call, Observation's own, once the
    /// object has its registrar.
    ///
    /// The registrar is borrowed in place, and the box and the slot's key path are used
    /// unretained (the object keeps the box, its layout the key path): a copy of the registrar
    /// (a resilient struct) costs a metadata look-up and value-witness calls, and each retained
    /// reference two atomic operations, on every read. Out of line, and doing nothing after
    /// Observation's call, so that it keeps almost nothing in registers across it, and the
    /// getters that call it need no frame of their own (a class that opts out of reporting
    /// then reads at nearly plain cost).
    @usableFromInline @inline(never)
    func reportObservationAccess(slot: Int) {
        if let tracking = unretainedObservationTracking {
            tracking._withUnsafeGuaranteedRef { $0.access(self, keyPathAt: layout.trackingAddresses[slot]) }
        } else {
            reportFirstObservationAccess(slot: slot)
        }
    }

    /// The object's registrar box, unretained (the object keeps it). The strong reference read
    /// here goes out of scope before the caller's call into Observation: one held across it
    /// would be retained and released around it.
    @inline(__always)
    private var unretainedObservationTracking: Unmanaged<ObservationTrackingBox>? {
        guard let existing = observationTracking else { return nil }
        return .passUnretained(existing)
    }

    /// Makes the object's registrar (at its first typed read) and reports the read to it.
    @inline(never)
    private func reportFirstObservationAccess(slot: Int) {
        let tracking = ObservationTrackingBox()
        observationTracking = tracking
        tracking.access(self, keyPathAt: layout.trackingAddresses[slot])
    }

    /// Tells Observation that `event`'s key will change, unless nothing can be tracking it.
    ///
    /// A registrar's will-set takes a lock and hashes the key path even when nobody tracks, and
    /// an object keeps its registrar once read. Observation holds the key path of every slot
    /// it tracks (``TrackingKeyPaths/mayBeTracked(_:)``), so a slot whose key path only the
    /// layout holds has no observer in any registrar and is skipped: what the registrar would
    /// have done (nothing) without the cost.
    @usableFromInline
    func observationWillChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = observedSlot(of: event) else { return }
        layout.trackingKeyPaths.unretainedPath(slot)._withUnsafeGuaranteedRef { tracking.willSet(self, keyPath: $0) }
    }

    /// Tells Observation that `event`'s key changed, unless nothing can be tracking it (see
    /// ``observationWillChange(_:_:)``).
    @usableFromInline
    func observationDidChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = observedSlot(of: event) else { return }
        layout.trackingKeyPaths.unretainedPath(slot)._withUnsafeGuaranteedRef { tracking.didSet(self, keyPath: $0) }
    }

    /// The slot of `event`'s key when Observation may be tracking it; `nil` when the key is
    /// not the entity's or nothing holds its key path but the layout. The check of every slot
    /// comes first: it spares the look-up by name when nothing of the layout is tracked.
    @inline(__always)
    private func observedSlot(of event: KeyValueChangeEvent) -> Int? {
        guard layout.anySlotMayBeTracked, let slot = layout.slotByName[event.key],
              layout.slotMayBeTracked(slot) else { return nil }
        return slot
    }
}

/// An object's Observation registrar, boxed: a reference, so that checking for it is one
/// pointer test (an optional `ObservationRegistrar`, a resilient struct, is checked through
/// value witnesses).
///
/// The registrar lives at a fixed address and every call borrows it there, as an `inout`
/// argument: a registrar read from a stored property (or a pointer's `pointee`) is copied
/// first (its type's metadata, a copy and a destroy through value witnesses, a retain and a
/// release), which cost more than the report itself.
@usableFromInline
package final class ObservationTrackingBox {
    private let registrar: UnsafeMutablePointer<ObservationRegistrar>

    package init() {
        registrar = .allocate(capacity: 1)
        registrar.initialize(to: ObservationRegistrar())
    }

    deinit {
        registrar.deinitialize(count: 1)
        registrar.deallocate()
    }

    /// Reports a read of the key path at `address` (a slot's key path, which its layout keeps)
    /// of `object`: Observation records it while tracking.
    @inline(__always)
    func access(_ object: ManagedObject, keyPathAt address: UnsafeRawPointer) {
        Unmanaged<KeyPath<ManagedObject, Int>>.fromOpaque(address)._withUnsafeGuaranteedRef {
            Self.access(&registrar.pointee, object, $0)
        }
    }

    /// Tells Observation that `keyPath` of `object` will change.
    @inline(__always)
    func willSet(_ object: ManagedObject, keyPath: KeyPath<ManagedObject, Int>) {
        Self.willSet(&registrar.pointee, object, keyPath)
    }

    /// Tells Observation that `keyPath` of `object` changed.
    @inline(__always)
    func didSet(_ object: ManagedObject, keyPath: KeyPath<ManagedObject, Int>) {
        Self.didSet(&registrar.pointee, object, keyPath)
    }

    // `inout` only so that the registrar is passed by its address, not copied.
    @inline(__always)
    private static func access(_ registrar: inout ObservationRegistrar, _ object: ManagedObject,
                               _ keyPath: KeyPath<ManagedObject, Int>) {
        registrar.access(object, keyPath: keyPath)
    }

    @inline(__always)
    private static func willSet(_ registrar: inout ObservationRegistrar, _ object: ManagedObject,
                                _ keyPath: KeyPath<ManagedObject, Int>) {
        registrar.willSet(object, keyPath: keyPath)
    }

    @inline(__always)
    private static func didSet(_ registrar: inout ObservationRegistrar, _ object: ManagedObject,
                               _ keyPath: KeyPath<ManagedObject, Int>) {
        registrar.didSet(object, keyPath: keyPath)
    }
}
