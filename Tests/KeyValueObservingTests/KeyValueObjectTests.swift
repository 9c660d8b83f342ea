import Synchronization
import Testing
import KeyValueCoding
import KeyValueObserving

/// The open base class whose customisation points subclasses override (issue 11, item 2b).
@Suite("KeyValueObject subclasses")
struct KeyValueObjectTests {
    class Shape: KeyValueObject {
        @Observed var width = 0.0
        @Observed var height = 0.0
    }

    final class Rectangle: Shape {
        var area: Double { width * height }
        var balance = 0 {
            willSet { willChangeValue(forKey: "balance") }
            didSet { didChangeValue(forKey: "balance") }
        }
        @Observed var name = ""
        var notes: [String: String] = [:]
        var events: [String] = []

        override class var computedKeys: [String: AnyKeyPath] {
            super.computedKeys.merging(["area": \Rectangle.area, "balance": \Rectangle.balance]) { $1 }
        }
        override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
            key == "area" ? ["width", "height"] : super.keyPathsForValuesAffectingValue(forKey: key)
        }
        override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
            key != "balance" && super.automaticallyNotifiesObservers(forKey: key)
        }
        override class var validators: [String: KeyValueValidator] {
            ["name": { value in
                guard let name = value as? String, !name.isEmpty else {
                    throw KeyValueValidationError("a name is required")
                }
                value = name.capitalized
            }]
        }
        override func value(forUndefinedKey key: String) throws -> Any? {
            if let note = notes[key] { return note }
            return try super.value(forUndefinedKey: key)
        }
        override func setValue(_ value: Any?, forUndefinedKey key: String) throws {
            notes[key] = value as? String
        }
        override func setNilValueForKey(_ key: String) throws {
            try setValue(0, forKey: key)
        }
        override func keyValueDidChange(_ event: KeyValueChangeEvent) {
            events.append(event.key)
        }
    }

    @Test func subclassDependenciesAndComputedKeysTakeEffect() throws {
        let rectangle = Rectangle()
        let areas = Mutex<[Double]>([])
        let token = try rectangle.observe("area", options: [.new]) { _, change in
            areas.withLock { $0.append(change.newValue as? Double ?? -1) }
        }
        rectangle.width = 2
        rectangle.height = 3
        #expect(areas.withLock { $0 } == [0, 6])
        #expect(try rectangle.value(forKey: "area") as? Double == 6)
        token.invalidate()
    }

    @Test func subclassManualNotificationTakesEffect() throws {
        let rectangle = Rectangle()
        let count = Mutex(0)
        let token = try rectangle.observe("balance") { _, _ in count.withLock { $0 += 1 } }
        rectangle.balance = 5
        try rectangle.setValue(7, forKey: "balance")
        // One notification per change: the manual pair only (automatic is off for the key).
        #expect(count.withLock { $0 } == 2)
        token.invalidate()
    }

    @Test func subclassValidatorsAndUndefinedKeyHooksTakeEffect() throws {
        let rectangle = Rectangle()
        var name: Any? = "ada"
        try rectangle.validateValue(&name, forKey: "name")
        #expect(name as? String == "Ada")
        var empty: Any? = ""
        #expect(throws: KeyValueCodingError.self) { try rectangle.validateValue(&empty, forKey: "name") }
        try rectangle.setValue("red", forKey: "colour")
        #expect(try rectangle.value(forKey: "colour") as? String == "red")
        try rectangle.setValue(nil, forKey: "width")
        #expect(rectangle.width == 0)
        rectangle.name = "x"
        #expect(try rectangle.value(forKey: "name") as? String == "x")
    }

    @Test func subclassChangeHookTakesEffect() throws {
        let rectangle = Rectangle()
        // An @Observed store is a notified change while the key has observers.
        let token = try rectangle.observe("width") { _, _ in }
        try rectangle.setValue(4.0, forKey: "width")
        #expect(rectangle.events == ["width"])
        token.invalidate()
    }

    @Test func baseClassDefaultsMatchTheProtocolDefaults() throws {
        let shape = Shape()
        #expect(Shape.computedKeys.isEmpty)
        #expect(Shape.automaticallyNotifiesObservers(forKey: "width"))
        #expect(Shape.keyPathsForValuesAffectingValue(forKey: "width").isEmpty)
        #expect(throws: KeyValueCodingError.undefinedKey("colour", type: String(reflecting: Shape.self))) {
            try shape.value(forKey: "colour")
        }
        #expect(throws: KeyValueCodingError.nilNotAllowed(key: "width", type: String(reflecting: Shape.self))) {
            try shape.setValue(nil, forKey: "width")
        }
    }

    // The pitfall KeyValueObject removes: a subclass of a plain conformer that does not declare
    // the customisation point has its own declaration ignored (Swift's static dispatch rule).
    class PlainBase: KeyValueObservable {
        @Observed var width = 0.0
    }

    final class PlainSub: PlainBase {
        class var computedKeys: [String: AnyKeyPath] { ["double": \PlainSub.double] }
        var double: Double { width * 2 }
    }

    @Test func plainConformerSubclassDeclarationIsIgnored() {
        #expect(throws: KeyValueCodingError.self) { try PlainSub().value(forKey: "double") }
    }
}
