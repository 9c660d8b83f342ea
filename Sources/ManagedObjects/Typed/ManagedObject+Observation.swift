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

    /// Tells Observation that `event`'s key will change.
    func observationWillChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = layout.slotByName[event.key] else { return }
        layout.trackingKeyPaths.unretainedPath(slot)._withUnsafeGuaranteedRef { tracking.willSet(self, keyPath: $0) }
    }

    /// Tells Observation that `event`'s key changed.
    func observationDidChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = layout.slotByName[event.key] else { return }
        layout.trackingKeyPaths.unretainedPath(slot)._withUnsafeGuaranteedRef { tracking.didSet(self, keyPath: $0) }
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
