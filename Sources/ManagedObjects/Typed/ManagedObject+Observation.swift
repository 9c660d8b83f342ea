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

    /// Reports a typed read of `slot` to Observation (a no-op unless tracking is active).
    @usableFromInline
    func reportObservationAccess(slot: Int) {
        let tracking: ObservationTrackingBox
        if let existing = observationTracking {
            tracking = existing
        } else {
            tracking = ObservationTrackingBox()
            observationTracking = tracking
        }
        tracking.registrar.access(self, keyPath: layout.trackingKeyPaths[slot])
    }

    /// Whether typed reads report to Observation: the registrar cannot say whether anyone
    /// tracks, so every read does unless the class opts out.
    @inlinable @inline(__always)
    var tracksObservationAccess: Bool { reportsObservationAccess }

    /// Tells Observation that `event`'s key will change.
    func observationWillChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = layout.slotByName[event.key] else { return }
        tracking.registrar.willSet(self, keyPath: layout.trackingKeyPaths[slot])
    }

    /// Tells Observation that `event`'s key changed.
    func observationDidChange(_ event: KeyValueChangeEvent, _ tracking: ObservationTrackingBox) {
        guard let slot = layout.slotByName[event.key] else { return }
        tracking.registrar.didSet(self, keyPath: layout.trackingKeyPaths[slot])
    }
}

/// An object's Observation registrar, boxed: a reference, so that checking for it is one
/// pointer test (an optional `ObservationRegistrar`, a resilient struct, is checked through
/// value witnesses).
package final class ObservationTrackingBox {
    package let registrar = ObservationRegistrar()
}
