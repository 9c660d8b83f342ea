// Docs/KeyValueObserving.md's other examples (the first one, dependent keys, async sequences,
// Observation interop), kept compiling and true (issue 11); GuideExampleTests.swift has the
// manual-notification and main-actor ones. The code is copied as the guide writes it; its
// `print` calls go to the capturing `print` below, so the tests check what it prints.

import Observation
import Synchronization
import Testing
import KeyValueCoding
import KeyValueObserving

/// What the examples printed, one entry per `print` call.
private let printed = Mutex<[String]>([])

/// Stands in for `Swift.print` in this file: records the line instead of writing it.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.withLock { $0.append(line) }
}

/// The guide's first example.
private enum FirstExample {
    final class Person: KeyValueObservable {
        @Observed var name = ""
        @Observed var age = 0
        @Observed var department: Department?
    }

    final class Department: KeyValueObservable {
        @Observed var name = ""
    }
}

/// "Dependent keys".
private enum DependentKeysExample {
    final class Person: KeyValueObservable {
        @Observed var firstName = ""
        @Observed var lastName = ""
        var fullName: String { "\(firstName) \(lastName)" }
        class var computedKeys: [String: AnyKeyPath] { ["fullName": \Person.fullName] }
        class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
            key == "fullName" ? ["firstName", "lastName"] : []
        }
    }
}

/// "Observation module interop".
private enum InteropExample {
    final class Thermometer: KeyValueObservationTracking {
        let observationRegistrar = ObservationRegistrar()
        @Observed var celsius = 20.0
    }
}

/// "Async sequences": type-checked as the guide writes the loops (they wait for changes forever,
/// so this function is compiled, not run).
private func asyncSequenceExample(person: FirstExample.Person) async throws {
    for await change in try person.changes(forKeyPath: "age", options: [.new]) { print(change.newValue ?? "nil") }
    for await name in try person.values(for: \.name) { print(name) }   // current value first
}

@Suite("Observing guide examples: sections", .serialized)
struct ObservingGuideSectionExampleTests {
    @Test func firstExample() throws {
        typealias Person = FirstExample.Person
        printed.withLock { $0 = [] }

        let ada = Person()
        let token = try ada.observe("name", options: [.old, .new]) { person, change in
            print("name:", change.oldValue ?? "nil", "→", change.newValue ?? "nil")
        }
        ada.name = "Ada"        // prints "name:  → Ada"
        token.invalidate()      // or just release the token

        ada.name = "Grace"      // no longer observed
        #expect(printed.withLock { $0 } == ["name:  → Ada"])
        ada.department = FirstExample.Department()
        #expect(try ada.value(forKeyPath: "department.name") as? String == "")
    }

    @Test func dependentKeys() throws {
        let person = DependentKeysExample.Person()
        let seen = Mutex<[String]>([])
        let token = try person.observe("fullName", options: [.new]) { _, change in
            seen.withLock { $0.append(change.newValue as? String ?? "?") }
        }
        person.firstName = "Ada"
        person.lastName = "Lovelace"
        token.invalidate()
        #expect(seen.withLock { $0 } == ["Ada ", "Ada Lovelace"])
    }

    @Test func observationInterop() throws {
        printed.withLock { $0 = [] }

        let thermometer = InteropExample.Thermometer()
        withObservationTracking { _ = thermometer.celsius } onChange: { print("changing") }
        thermometer.celsius = 21    // onChange fires, and key-value observers are notified

        #expect(printed.withLock { $0 } == ["changing"])
    }

    @Test func asyncSequenceExampleCompiles() {
        // Its loops never end on their own; that it compiles is the check.
        let example: (FirstExample.Person) async throws -> Void = asyncSequenceExample(person:)
        _ = example
    }
}
