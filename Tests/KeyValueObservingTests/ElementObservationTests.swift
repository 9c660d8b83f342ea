import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// `addObserver(_:toElementsAt:...)`: Apple's `addObserver:toObjectsAtIndexes:...` registers the
/// observer on each object at the indexes, for a key path relative to the objects.
@Suite("Observing array elements")
struct ElementObservationTests {
    @Test func observesOnlyTheElementsAtTheIndexes() throws {
        let people = [Person(name: "a"), Person(name: "b"), Person(name: "c")]
        let inspector = Inspector()
        try people.addObserver(inspector, toElementsAt: [0, 2], forKeyPath: "name", options: [.old, .new])
        people[0].name = "A"
        people[1].name = "B"
        people[2].name = "C"
        #expect(inspector.received.count == 2)
        #expect(inspector.received.map { $0.1.newValue as? String } == ["A", "C"])
        #expect(inspector.received.map { $0.1.oldValue as? String } == ["a", "c"])
        try people.removeObserver(inspector, fromElementsAt: [0, 2], forKeyPath: "name")
        people[0].name = "x"
        people[2].name = "y"
        #expect(inspector.received.count == 2)
    }

    @Test func notificationsNameTheElementAndTheContext() throws {
        let people = [Person(), Person()]
        let inspector = ObjectRecorder()
        var marker = 7
        try withUnsafeMutablePointer(to: &marker) { context in
            try people.addObserver(inspector, toElementsAt: [1], forKeyPath: "age", context: context)
            people[1].age = 3
            #expect(inspector.objects.count == 1)
            #expect(inspector.objects.first === people[1])
            #expect(inspector.contexts.first == UnsafeMutableRawPointer(context))
            try people.removeObserver(inspector, fromElementsAt: [1], forKeyPath: "age", context: context)
        }
    }

    @Test func keyPathsRelativeToTheElementsMayHaveSeveralLinks() throws {
        let people = [Person(), Person()]
        for person in people { person.department = Department(name: "d") }
        let inspector = Inspector()
        try people.addObserver(inspector, toElementsAt: IndexSet(0..<2), forKeyPath: "department.name",
                               options: [.new])
        people[1].department?.name = "R&D"
        #expect(inspector.received.first?.0 == "department.name")
        #expect(inspector.received.first?.1.newValue as? String == "R&D")
        try people.removeObserver(inspector, fromElementsAt: IndexSet(0..<2), forKeyPath: "department.name")
    }

    @Test func outOfRangeIndexesThrowAndRegisterNothing() throws {
        let people = [Person(), Person()]
        let inspector = Inspector()
        #expect(throws: KeyValueObservingError.indexOutOfRange(2, count: 2)) {
            try people.addObserver(inspector, toElementsAt: [0, 2], forKeyPath: "age")
        }
        people[0].age = 1
        #expect(inspector.received.isEmpty)
        #expect(throws: KeyValueObservingError.indexOutOfRange(5, count: 2)) {
            try people.removeObserver(inspector, fromElementsAt: [5], forKeyPath: "age")
        }
        #expect(throws: KeyValueObservingError.indexOutOfRange(0, count: 0)) {
            try [Person]().addObserver(inspector, toElementsAt: [0], forKeyPath: "age")
        }
    }

    @Test func aBadKeyPathOnALaterElementTakesBackTheEarlierRegistrations() throws {
        let mixed: [any KeyValueObservable] = [Person(), Department()]
        let inspector = Inspector()
        #expect(throws: KeyValueObservingError.self) {
            try mixed.addObserver(inspector, toElementsAt: [0, 1], forKeyPath: "age")
        }
        (mixed[0] as? Person)?.age = 4
        #expect(inspector.received.isEmpty)
        #expect(throws: KeyValueObservingError.observerNotRegistered(keyPath: "age")) {
            try mixed[0].removeObserver(inspector, forKeyPath: "age")
        }
    }

    @Test func mixedArraysOfObservableObjects() throws {
        let mixed: [any KeyValueObservable] = [Person(), Department()]
        let inspector = Inspector()
        try mixed.addObserver(inspector, toElementsAt: [0, 1], forKeyPath: "name", options: [.new])
        (mixed[0] as? Person)?.name = "p"
        (mixed[1] as? Department)?.name = "d"
        #expect(inspector.received.map { $0.1.newValue as? String } == ["p", "d"])
        try mixed.removeObserver(inspector, fromElementsAt: [0, 1], forKeyPath: "name")
    }

    @Test func removingWhereAnElementIsNotRegisteredThrowsAndRemovesNothing() throws {
        let people = [Person(), Person()]
        let inspector = Inspector()
        try people.addObserver(inspector, toElementsAt: [0], forKeyPath: "age")
        #expect(throws: KeyValueObservingError.observerNotRegistered(keyPath: "age")) {
            try people.removeObserver(inspector, fromElementsAt: [0, 1], forKeyPath: "age")
        }
        people[0].age = 1
        #expect(inspector.received.count == 1)   // still registered on element 0
        try people.removeObserver(inspector, fromElementsAt: [0], forKeyPath: "age")
    }

    @Test func anElementAtSeveralIndexesIsRegisteredOncePerIndex() throws {
        let person = Person()
        let people = [person, person]
        let inspector = Inspector()
        try people.addObserver(inspector, toElementsAt: [0, 1], forKeyPath: "age")
        person.age = 1
        #expect(inspector.received.count == 2)
        try people.removeObserver(inspector, fromElementsAt: [0, 1], forKeyPath: "age")
        person.age = 2
        #expect(inspector.received.count == 2)
    }

    @Test func indexOutOfRangeNamesTheIndex() {
        let error = KeyValueObservingError.indexOutOfRange(4, count: 2)
        #expect(error.localizedDescription.contains("4"))
        #expect(error.localizedDescription.contains("2"))
    }
}

/// Records the objects and contexts of observer-object callbacks.
final class ObjectRecorder: KeyValueObserver, @unchecked Sendable {
    // @unchecked: only used on one thread in tests.
    var objects: [AnyObject] = []
    var contexts: [UnsafeMutableRawPointer?] = []

    func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                      context: UnsafeMutableRawPointer?) {
        objects.append(object)
        contexts.append(context)
    }
}
