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
    @Test func hooksHearEveryStoreByKeyInOrder() throws {
        let apple = try HookedApple(in: try HookedApple.model())
        try apple.setValue(2.5, forKey: "radius")
        try apple.setValue("Gala", forKey: "variety")
        try apple.setValue(nil, forKey: "variety")
        #expect(apple.heard == ["will radius", "did radius", "will variety", "did variety", "will variety", "did variety"])
        #expect(apple.radius == 2.5 && apple.variety == nil)
    }

    @Test func aRefusedValueIsNotAnnounced() throws {
        let apple = try HookedApple(in: try HookedApple.model())
        #expect(throws: KeyValueCodingError.self) { try apple.setValue("wide", forKey: "radius") }
        #expect(apple.heard.isEmpty && apple.radius == 0)
    }

    @Test func observersGetOldAndNewValues() throws {
        let apple = try HookedApple(in: try HookedApple.model())
        apple.radius = 1.5
        let recorder = ChangeRecorder()
        try apple.addObserver(recorder, forKeyPath: "radius", options: [.old, .new, .prior])
        try apple.setValue(3.0, forKey: "radius")
        let changes = recorder.changes
        #expect(changes.count == 2, "a prior notification, then the change")
        #expect(changes.last?.oldValue as? Double == 1.5 && changes.last?.newValue as? Double == 3.0)
        try apple.removeObserver(recorder, forKeyPath: "radius")
    }

    @Test func observationSeesAStoreByKey() throws {
        let apple = try HookedApple(in: try HookedApple.model())
        _ = apple.radius
        let fired = ChangeRecorder()
        withObservationTracking { _ = apple.radius } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try apple.setValue("Fuji", forKey: "variety")   // another key does not fire
        #expect(fired.count == 0)
        try apple.setValue(4.0, forKey: "radius")
        #expect(fired.count == 1)
    }

    /// Values boxed in every way a caller can box them reach a `@Managed` Double and a
    /// value-array Double alike: exactly typed, nested in another `Any`, bridged numbers,
    /// optionals and `NSNull`.
    @Test func everyBoxingOfAValueIsStoredAsBefore() throws {
        let typed = try HookedApple(in: try HookedApple.model())
        let generic = try ManagedObject(entityName: "Apple", in: HookedApple.unboundModel())
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

/// An apple whose class overrides the change hooks.
private final class HookedApple: ManagedObject {
    override class var entityName: String { "Apple" }
    @Managed var radius: Double
    @Managed var variety: String?
    var heard: [String] = []

    static func unboundModel() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Apple", properties: [
                .attribute("radius", .double),
                .attribute("variety", .string),
            ]),
        ])
    }

    static func model() throws -> ManagedObjectModel {
        let model = unboundModel()
        try model.setManagedObjectClass(HookedApple.self, forEntityNamed: "Apple")
        return model
    }

    override func keyValueWillChange(_ event: KeyValueChangeEvent) {
        heard.append("will \(event.key)")
        super.keyValueWillChange(event)
    }

    override func keyValueDidChange(_ event: KeyValueChangeEvent) {
        heard.append("did \(event.key)")
        super.keyValueDidChange(event)
    }
}
