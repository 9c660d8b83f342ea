import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// A change of an object that Observation is not tracking skips the registrar's will-set and
/// did-set, even when the object has a registrar (it was read before). Swift's Observation
/// must still see every change of a property read inside `withObservationTracking`: these
/// tests read objects outside tracking first (the case the skip is for), then track them.
@Suite struct ObservationSkipTests {
    /// A context with one saved crate (capacity 12): the quiet-store tests' fixture.
    static func savedCrate() throws -> (ManagedObjectContext, TypedCrate) {
        try RepeatedTypedStoreTests.savedCrate()
    }

    @Test func readOutsideTrackingThenTrackedThenSet() throws {
        let (context, crate) = try Self.savedCrate()
        _ = crate.capacity                      // untracked read: the object gets its registrar
        crate.capacity = 13                     // the full way (first change of the event)
        crate.capacity = 14                     // a quiet store
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.capacity = 15                     // a quiet store again: must still fire
        #expect(fired.count == 1)
        crate.capacity = 16
        #expect(fired.count == 1, "tracking is one-shot")
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try crate.setValue(Int16(17), forKey: "capacity")   // by string key
        #expect(fired.count == 2)
        context.processPendingChanges()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.capacity = 18                     // the first change of a new event
        #expect(fired.count == 3)
        #expect(crate.capacity == 18 && crate.isUpdated)
    }

    @Test func anotherPropertyOrAnotherObjectDoesNotFire() throws {
        let (context, crate) = try Self.savedCrate()
        let other = try context.insertNewObject(TypedCrate.self)
        _ = crate.capacity
        _ = other.capacity
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        other.capacity = 3                      // same entity and key, another object
        let stand = try context.insertNewObject(TypedStand.self)
        crate.stand = stand                     // another key of the tracked object
        #expect(fired.count == 0)
        crate.capacity = 4
        #expect(fired.count == 1)
    }

    @Test func theSkipHoldsOnlyWhileNothingTracks() throws {
        let (_, crate) = try Self.savedCrate()
        let slot = try #require(crate.layout.slotByName["capacity"])
        let layout = crate.layout
        _ = crate.capacity
        #expect(!layout.slotMayBeTracked(slot), "an untracked read keeps no key path")
        var insideApply = false
        withObservationTracking {
            _ = crate.capacity
            insideApply = layout.slotMayBeTracked(slot)
        } onChange: {}
        #expect(insideApply, "the access list holds the key path")
        #expect(layout.slotMayBeTracked(slot) && layout.anySlotMayBeTracked, "the installed observer holds it")
        crate.capacity = 20
        #expect(!layout.slotMayBeTracked(slot) && !layout.anySlotMayBeTracked, "the fired tracking let it go")
    }

    @Test func anObjectOutsideAContextStillFires() throws {
        let crate = try TypedCrate(in: try TypedFixtures.model())
        _ = crate.capacity
        crate.capacity = 1
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.capacity = 2
        #expect(fired.count == 1)
    }
}
