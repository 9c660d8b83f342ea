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
    /// A Swift key path naming `slot` to the Observation registrar (never read by it).
    package subscript(observationSlot slot: Int) -> Any? { slotValue(slot) }

    /// Reports a typed read of `slot` to Observation (a no-op unless tracking is active).
    @usableFromInline
    func reportObservationAccess(slot: Int) {
        let registrar: ObservationRegistrar
        if let existing = observationRegistrar {
            registrar = existing
        } else {
            registrar = ObservationRegistrar()
            observationRegistrar = registrar
        }
        registrar.access(self, keyPath: layout.trackingKeyPaths[slot])
    }

    /// Whether typed reads report to Observation. Always: the registrar cannot say whether
    /// anyone tracks.
    @inlinable
    var tracksObservationAccess: Bool { true }

    /// Tells Observation that `event`'s key will change.
    func observationWillChange(_ event: KeyValueChangeEvent) {
        guard let registrar = observationRegistrar, let slot = layout.slotByName[event.key] else { return }
        registrar.willSet(self, keyPath: layout.trackingKeyPaths[slot])
    }

    /// Tells Observation that `event`'s key changed.
    func observationDidChange(_ event: KeyValueChangeEvent) {
        guard let registrar = observationRegistrar, let slot = layout.slotByName[event.key] else { return }
        registrar.didSet(self, keyPath: layout.trackingKeyPaths[slot])
    }
}
