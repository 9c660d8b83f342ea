import Foundation
import KeyValueCoding
import Observation
import ObjectGraphInternals
import Synchronization
@testable import KeyValueObserving

/// Collects change records from any thread.
final class Recorder: Sendable {
    private let changes = Mutex<[KeyValueChange]>([])

    var all: [KeyValueChange] { changes.withTrackedLock(self) { $0 } }
    var count: Int { changes.withTrackedLock(self) { $0.count } }

    func record(_ change: KeyValueChange) { changes.withTrackedLock(self) { $0.append(change) } }

    var handler: @Sendable (AnyObject, KeyValueChange) -> Void {
        { [self] _, change in record(change) }
    }
}

final class Person: KeyValueObservable {
    @Observed var name = ""
    @Observed var age = 0
    @Observed var nickname: String?
    @Observed var department: Department?
    var plain = 0
    @Observed var firstName = ""
    @Observed var lastName = ""
    @Observed var tags: [String] = []
    var fullName: String { "\(firstName) \(lastName)" }

    init(name: String = "", age: Int = 0) {
        self.name = name
        self.age = age
    }

    class var computedKeys: [String: AnyKeyPath] { ["fullName": \Person.fullName] }

    class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        key == "fullName" ? ["firstName", "lastName"] : []
    }
}

final class Department: KeyValueObservable {
    @Observed var name = ""
    @Observed var manager: Person?

    init(name: String = "", manager: Person? = nil) {
        self.name = name
        self.manager = manager
    }
}

/// A class that sends notifications for `balance` by itself.
final class Account: KeyValueObservable {
    var balance = 0 {
        willSet { willChangeValue(forKey: "balance") }
        didSet { didChangeValue(forKey: "balance") }
    }
    @Observed var owner = ""

    class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        key != "balance" && key != "owner"
    }
}

/// Keys with dependency diamonds and cycles.
final class Shape: KeyValueObservable {
    @Observed var width = 1
    @Observed var height = 1
    var area: Int { width * height }
    var perimeter: Int { 2 * (width + height) }
    var summary: String { "\(area)/\(perimeter)" }
    var ping: Int { width }
    var pong: Int { width }

    class var computedKeys: [String: AnyKeyPath] {
        ["area": \Shape.area, "perimeter": \Shape.perimeter, "summary": \Shape.summary,
         "ping": \Shape.ping, "pong": \Shape.pong]
    }

    class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        switch key {
        case "area", "perimeter": return ["width", "height"]
        case "summary": return ["area", "perimeter"]          // diamond over width and height
        case "ping": return ["pong", "width"]                  // cycle ping ↔ pong
        case "pong": return ["ping", "width"]
        default: return []
        }
    }
}

/// A class using Observation interop.
final class Thermometer: KeyValueObservationTracking {
    let observationRegistrar = ObservationRegistrar()
    @Observed var celsius = 20.0
}

/// Records observer-object callbacks.
final class Inspector: KeyValueObserver, @unchecked Sendable {
    // @unchecked: only used on one thread in tests.
    var received: [(String, KeyValueChange, UnsafeMutableRawPointer?)] = []

    func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                      context: UnsafeMutableRawPointer?) {
        received.append((keyPath, change, context))
    }
}
