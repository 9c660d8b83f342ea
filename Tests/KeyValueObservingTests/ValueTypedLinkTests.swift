import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Key paths through values that are not objects")
struct ValueTypedLinkTests {
    @Test func structLinkReportsRealOldAndNewValues() throws {
        let object = Probed()
        let recorder = Recorder()
        let token = try object.observe("point.x", options: [.old, .new], changeHandler: recorder.handler)
        try object.setValue(Point(x: 7, y: 0), forKey: "point")
        object.point.x = 9
        object.point = Point(x: 9, y: 1)
        #expect(recorder.all.map { $0.oldValue as? Int } == [0, 7, 9])
        #expect(recorder.all.map { $0.newValue as? Int } == [7, 9, 9])
        token.invalidate()
    }

    @Test func structLinkInitialValueIsTheLeaf() throws {
        let object = Probed()
        object.point = Point(x: 3, y: 4)
        let recorder = Recorder()
        let token = try object.observe("point.y", options: [.initial, .new], changeHandler: recorder.handler)
        #expect(recorder.all.map { $0.newValue as? Int } == [4])
        token.invalidate()
    }

    @Test func selfKeyIsTheObjectItself() throws {
        let object = Probed()
        let recorder = Recorder()
        let token = try object.observe("self.name", options: [.old, .new], changeHandler: recorder.handler)
        object.name = "Ada"
        #expect(recorder.all.map { $0.oldValue as? String } == [""])
        #expect(recorder.all.map { $0.newValue as? String } == ["Ada"])
        token.invalidate()
    }

    @Test func undefinedKeyOfAValueThrowsNamingIt() {
        let object = Probed()
        #expect(throws: KeyValueObservingError.undefinedKey("count", keyPath: "name.count",
                                                            type: String(reflecting: String.self))) {
            _ = try object.observe("name.count") { _, _ in }
        }
        #expect(throws: KeyValueObservingError.undefinedKey("z", keyPath: "point.z",
                                                            type: String(reflecting: Point.self))) {
            _ = try object.observe("point.z") { _, _ in }
        }
    }

    @Test func keyPathsThroughCollectionsAreRejected() {
        let object = Probed()
        #expect(throws: KeyValueObservingError.notObservableThroughCollection("list", keyPath: "list.count")) {
            _ = try object.observe("list.count") { _, _ in }
        }
        object.arr = [1, 2]
        #expect(throws: KeyValueObservingError.notObservableThroughCollection("arr", keyPath: "arr.self")) {
            _ = try object.observe("arr.self") { _, _ in }
        }
    }
}
