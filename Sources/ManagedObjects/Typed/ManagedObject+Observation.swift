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

    /// Reports a typed read of `slot` to Observation (a no-op unless tracking is active), and
    /// to a running key-path probe.
    ///
    /// The registrar is borrowed in place, and the registrar's box and the slot's key path are
    /// used unretained (the object keeps the box, its layout the key path): a copy of the
    /// registrar (a resilient struct) costs a metadata look-up and value-witness calls, and
    /// each retained reference two atomic operations, on every read.
    @usableFromInline @inline(never)
    func reportObservationAccess(slot: Int) {
        let tracking: Unmanaged<ObservationTrackingBox>
        if let existing = observationTracking {
            tracking = .passUnretained(existing)
        } else {
            tracking = .passUnretained(makeObservationTracking())
        }
        tracking._withUnsafeGuaranteedRef { box in
            layout.trackingKeyPaths.unretainedPath(slot)._withUnsafeGuaranteedRef { keyPath in
                box.access(self, keyPath: keyPath)
            }
        }
        if _slowPath(KeyPathProbe.isProbing) { recordProbedRead(slot: slot) }
    }

    /// Makes the object's registrar (at its first typed read).
    @inline(never)
    private func makeObservationTracking() -> ObservationTrackingBox {
        let tracking = ObservationTrackingBox()
        observationTracking = tracking
        return tracking
    }

    /// Whether typed reads report to Observation: the registrar cannot say whether anyone
    /// tracks, so every read does unless the class opts out.
    @inlinable @inline(__always)
    var tracksObservationAccess: Bool { reportsObservationAccess }

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

    /// Reports a read of `keyPath` of `object` (Observation records it while tracking).
    @inline(__always)
    func access(_ object: ManagedObject, keyPath: KeyPath<ManagedObject, Int>) {
        Self.access(&registrar.pointee, object, keyPath)
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
