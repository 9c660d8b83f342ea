import Foundation
import KeyValueCoding
import Synchronization
import Testing
@testable import KeyValueObserving

struct Point: Equatable, Sendable {
    var x: Int
    var y: Int
}

/// A class with observed and plain collections, a struct-valued property and a computed
/// property with a side effect, for the hostile-input tests.
final class Probed: KeyValueObservable, @unchecked Sendable {
    // @unchecked: used by one test at a time.
    @Observed var list: [Int] = []
    var arr: [Int] = []
    @Observed var point = Point(x: 0, y: 0)
    @Observed var name = ""
    @Observed var count = 0
    var reads = 0
    var touchingList: [Int] {
        reads += 1
        return list
    }
}

@Suite("Typed key paths the probe must not evaluate")
struct KeyPathProbeSafetyTests {
    @Test func subscriptThroughObservedPropertyThrowsInsteadOfTrapping() {
        let object = Probed()
        #expect(throws: KeyValueObservingError.self) {
            _ = try object.observe(\.list[0]) { _, _ in }
        }
    }

    @Test func subscriptThroughStoredPropertyThrowsInsteadOfTrapping() {
        let object = Probed()
        #expect(throws: KeyValueObservingError.self) {
            _ = try object.observe(\.arr[0]) { _, _ in }
        }
    }

    @Test func chainsThroughComputedPropertiesAreNotEvaluated() {
        let object = Probed()
        #expect(throws: KeyValueObservingError.self) {
            _ = try object.observe(\.touchingList.count) { _, _ in }
        }
        #expect(throws: KeyValueObservingError.self) {
            _ = try object.observe(\.touchingList.first) { _, _ in }
        }
        #expect(object.reads == 0)
    }

    @Test func observedPropertyOfSameTypeAsASubscriptResultStillWorks() throws {
        let object = Probed()
        let recorder = Recorder()
        let token = try object.observe(\.count, options: [.new]) { _, change in
            recorder.record(KeyValueChange(kind: .setting, newValue: change.newValue))
        }
        object.count = 5
        #expect(recorder.all.map { $0.newValue as? Int } == [5])
        token.invalidate()
    }
}
