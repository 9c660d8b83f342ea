import KeyValueCoding
import KeyValueObserving
import Testing
@testable import UndoManagement

/// Undo stores through `setValue(_:forKey:)`: a stored property's `willSet`/`didSet` run only
/// when it is exposed as a computed key (issue 11, item 3b).
@Suite("Undo through property observers")
struct PropertyObserverUndoTests {
    final class Thermostat: KeyValueObservable {
        var didSetCount = 0
        var target = 20 {
            didSet { didSetCount += 1 }
        }

        static var computedKeys: [String: AnyKeyPath] { ["target": \Thermostat.target] }
    }

    @Test func undoAndRedoRunDidSet() throws {
        let history = makeHistory(groupsByEvent: false)
        let recorder = UndoRecorder(history: history)
        let thermostat = Thermostat()
        try recorder.record(thermostat, keys: ["target"])
        history.beginUndoGrouping()
        try thermostat.setValue(25, forKey: "target")
        try history.endUndoGrouping()
        #expect(thermostat.didSetCount == 1)
        try history.undo()
        #expect(thermostat.target == 20)
        #expect(thermostat.didSetCount == 2)
        try history.redo()
        #expect(thermostat.target == 25)
        #expect(thermostat.didSetCount == 3)
    }
}
