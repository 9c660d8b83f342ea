import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// `setValue(_:forKey:)` of a bound subclass's attribute outside any context delivers the
/// will-change and did-change notifications around the store itself (inlined, not through
/// `changingValue`), and a store checks the given value's type from its container's metadata
/// word where it can. Hooks, observers and Swift's Observation must hear every such change
/// exactly as before, and every kind of boxed value must be stored (or refused) as before.
@Suite struct KeyValueStorePathTests {
    /// A crate of a class that overrides the change hooks, outside any context.
    static func hookedCrate() throws -> HookedCrate {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(HookedCrate.self, forEntityNamed: "Crate")
        return try HookedCrate(in: model)
    }

    @Test func hooksHearEveryStoreByKeyInOrder() throws {
        let crate = try Self.hookedCrate()
        crate.heard = []
        try crate.setValue(Int16(20), forKey: "capacity")
        try crate.setValue(nil, forKey: "capacity")
        try crate.setValue(30, forKey: "capacity")   // an Int: converted
        #expect(crate.heard == ["will capacity", "did capacity", "will capacity", "did capacity",
                                "will capacity", "did capacity"])
        #expect(crate.capacity == 30)
    }

    @Test func aRefusedValueIsNotAnnounced() throws {
        let crate = try Self.hookedCrate()
        crate.heard = []
        #expect(throws: KeyValueCodingError.self) { try crate.setValue("wide", forKey: "capacity") }
        #expect(crate.heard.isEmpty && crate.capacity == 12)
    }

    @Test func observersGetOldAndNewValues() throws {
        let crate = try Self.hookedCrate()
        let recorder = ChangeRecorder()
        try crate.addObserver(recorder, forKeyPath: "capacity", options: [.old, .new, .prior])
        try crate.setValue(Int16(40), forKey: "capacity")
        let changes = recorder.changes
        #expect(changes.count == 2, "a prior notification, then the change")
        #expect(changes.last?.oldValue as? Int16 == 12 && changes.last?.newValue as? Int16 == 40)
        try crate.removeObserver(recorder, forKeyPath: "capacity")
    }

    @Test func observationSeesAStoreByKey() throws {
        let crate = try Self.hookedCrate()
        _ = crate.capacity
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try crate.setValue(nil, forKey: "stand")   // another key does not fire
        #expect(fired.count == 0)
        try crate.setValue(Int16(41), forKey: "capacity")
        #expect(fired.count == 1)
    }

    /// Values boxed in every way a caller can box them reach a `@Managed` Double and a
    /// value-array Double alike: exactly typed, nested in another `Any`, bridged numbers,
    /// optionals and `NSNull`.
    @Test func everyBoxingOfAValueIsStoredAsBefore() throws {
        let typed = try TypedApple(in: try TypedFixtures.model())
        let generic = try ManagedObject(entityName: "Apple", in: TypedFixtures.unboundModel())
        func nested<T>(_ value: T) -> Any { value }
        let doubleInAny: Any = 2.5
        let values: [(Any?, Double?)] = [
            (2.5, 2.5),
            (nested(doubleInAny), 2.5),                      // an Any inside an Any
            (NSNumber(value: 3.5), 3.5),                     // a class: converted
            (Int(4), 4),                                     // another number type: converted
            (Optional<Double>.some(5.5) as Any, 5.5),        // an optional boxed whole
            (NSNull(), nil),                                 // NSNull: nil
        ]
        for (value, expected) in values {
            try typed.setValue(value, forKey: "radius")
            try generic.setValue(value, forKey: "radius")
            #expect(try typed.value(forKey: "radius") as? Double == expected, "typed: \(String(describing: value))")
            #expect(typed.radius == expected ?? 0)
            #expect(try generic.value(forKey: "radius") as? Double == expected, "generic: \(String(describing: value))")
        }
        #expect(throws: KeyValueCodingError.self) { try generic.setValue("text", forKey: "radius") }
        #expect(throws: KeyValueCodingError.self) { try typed.setValue(Date(), forKey: "radius") }
    }
}
