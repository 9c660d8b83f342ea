import Synchronization
import Testing
import KeyValueCoding
import KeyValueObserving

/// Observing subclasses (issue 11, item 2).
@Suite("Class hierarchies")
struct ClassHierarchyTests {
    class Shape: KeyValueObservable {
        @Observed var side = 0
        @Observed var label = ""
        init() {}
    }

    final class Square: Shape {
        @Observed var rotation = 0
        /// Computed properties reading an inherited @Observed property of the same type.
        var doubledSide: Int { side * 2 }
        var halfSide: Int {
            get { side / 2 }
            set { side = newValue * 2 }
        }
    }

    @Test func typedKeyPathToInheritedObservedProperty() throws {
        let square = Square()
        let seen = Mutex<[Int]>([])
        let token = try square.observe(\.side, options: [.new]) { _, change in
            seen.withLock { $0.append(change.newValue ?? -1) }
        }
        square.side = 4
        #expect(seen.withLock { $0 } == [4])
        #expect(token.keyPath == "side")
    }

    @Test func typedKeyPathToOwnAndInheritedPropertiesOfTheSameType() throws {
        let square = Square()
        let rotation = try square.observe(\.rotation) { _, _ in }
        let side = try square.observe(\.side) { _, _ in }
        let label = try square.observe(\.label) { _, _ in }
        #expect(rotation.keyPath == "rotation")
        #expect(side.keyPath == "side")
        #expect(label.keyPath == "label")
    }

    @Test func computedPropertyReadingAnInheritedPropertyIsNotTakenForIt() throws {
        let square = Square()
        square.side = 6
        #expect(throws: KeyValueObservingError.self) {
            _ = try square.observe(\.doubledSide) { _, _ in }
        }
        #expect(throws: KeyValueObservingError.self) {
            _ = try square.observe(\.halfSide) { _, _ in }
        }
    }

    @Test func unnamedComputedKeyPathMessageSaysWhatItIs() throws {
        let square = Square()
        let error = #expect(throws: KeyValueObservingError.self) {
            _ = try square.observe(\.doubledSide) { _, _ in }
        }
        let text = error?.localizedDescription ?? ""
        #expect(text.contains("\\Square.<computed property of type Int>"))
        #expect(!text.contains("0x"))
        #expect(text.contains("@Observed") && text.contains("computedKeys"))
    }

    final class Owner: KeyValueObservable {
        weak var delegate: Shape?
    }

    @Test func observingAWeakPropertySaysWhyItIsNotAKey() throws {
        let error = #expect(throws: KeyValueCodingError.self) {
            _ = try Owner().observe("delegate") { _, _ in }
        }
        let text = error?.localizedDescription ?? ""
        #expect(text.contains("'delegate'") && text.contains("weak"))
    }

    @Test func upcastAndStringFormsAgree() throws {
        let square = Square()
        let shape: Shape = square
        let typed = try square.observe(\.side) { _, _ in }
        let upcast = try shape.observe(\.side) { _, _ in }
        let named = try square.observe("side") { _, _ in }
        #expect(typed.keyPath == upcast.keyPath)
        #expect(typed.keyPath == named.keyPath)
    }
}
