import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// Key-value observers hear a refresh that changes values (trial12 N8): turning an object with
/// unsaved changes into a fault takes them back as a rollback does, and a merging refresh tells
/// of the row's new values; a refresh that changes nothing tells nobody.
@Suite struct RefreshObservationTests {
    /// A saved crate on a stand, observed for capacity and stand (old and new values).
    static func observedCrate() throws -> (ManagedObjectContext, TypedCrate, TypedStand, ChangeRecorder, [KeyValueObservation]) {
        let (context, crate) = try RepeatedTypedStoreTests.savedCrate()
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "s"
        crate.stand = stand
        try context.save()
        let recorder = ChangeRecorder()
        let tokens = try ["capacity", "stand", "stand.name"].map {
            try crate.observe($0, options: [.old, .new], changeHandler: recorder.handler($0))
        }
        return (context, crate, stand, recorder, tokens)
    }

    @Test func aFaultingRefreshTellsObserversOfTheDroppedValues() throws {
        let (context, crate, stand, recorder, tokens) = try Self.observedCrate()
        defer { tokens.forEach { $0.invalidate() } }
        crate.capacity = 20
        crate.stand = nil
        _ = recorder.removeAll()
        context.refresh(crate, mergeChanges: false)
        let capacity = recorder.records(for: "capacity").map(\.change)
        #expect(capacity.count == 1)
        #expect(capacity.first?.oldValue as? Int16 == 20 && capacity.first?.newValue as? Int16 == 12)
        let related = recorder.records(for: "stand").map(\.change)
        #expect(related.count == 1)
        #expect(related.first?.oldValue == nil && related.first?.newValue as? TypedStand === stand)
        #expect(recorder.records(for: "stand.name").map(\.change).last?.newValue as? String == "s")
        #expect(crate.capacity == 12 && crate.stand === stand && !crate.isUpdated)
        // The stand keeps its own unsaved change (the inverse) until it is refreshed too.
        context.refresh(stand, mergeChanges: false)
        #expect(!context.hasChanges && stand.crates == [crate])
    }

    @Test func theRefreshTellsWhatARollbackTells() throws {
        var heard: [[String]] = []
        for refreshes in [true, false] {
            let (context, crate, _, recorder, tokens) = try Self.observedCrate()
            defer { tokens.forEach { $0.invalidate() } }
            crate.capacity = 30
            _ = recorder.removeAll()
            if refreshes { context.refresh(crate, mergeChanges: false) } else { context.rollback() }
            heard.append(recorder.records.map { "\($0.keyPath) \(String(describing: $0.change.oldValue)) \(String(describing: $0.change.newValue))" })
        }
        #expect(heard[0] == heard[1])
        #expect(heard[0] == ["capacity Optional(30) Optional(12)"])
    }

    @Test func aRefreshThatChangesNothingTellsNobody() throws {
        let (context, crate, _, recorder, tokens) = try Self.observedCrate()
        defer { tokens.forEach { $0.invalidate() } }
        _ = recorder.removeAll()
        // Unchanged, loaded: turns into a fault quietly.
        context.refresh(crate, mergeChanges: false)
        // Already a fault.
        context.refresh(crate, mergeChanges: false)
        // Changed and changed back: nothing to take back.
        crate.capacity = 40
        crate.capacity = 12
        _ = recorder.removeAll()
        context.refresh(crate, mergeChanges: false)
        // Merging a row that equals the object's values.
        _ = crate.capacity
        context.refresh(crate, mergeChanges: true)
        #expect(recorder.count == 0, "\(recorder.records.map(\.keyPath))")
        #expect(crate.capacity == 12)
    }

    @Test func aMergingRefreshTellsOfTheRowsNewValues() throws {
        let (context, crate, _, recorder, tokens) = try Self.observedCrate()
        defer { tokens.forEach { $0.invalidate() } }
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let theirs = try #require(try other.existingObject(with: crate.objectID) as? TypedCrate)
        theirs.capacity = 77
        try other.save()
        context.stalenessInterval = 0
        _ = recorder.removeAll()
        context.refresh(crate, mergeChanges: true)
        let capacity = recorder.records(for: "capacity").map(\.change)
        #expect(capacity.count == 1)
        #expect(capacity.first?.oldValue as? Int16 == 12 && capacity.first?.newValue as? Int16 == 77)
        #expect(recorder.records(for: "stand").isEmpty)
    }
}
