import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Key-path chains")
struct ChainTests {
    func makeGraph() -> (Person, Department, Person, Person) {
        let boss = Person(name: "Ada")
        let other = Person(name: "Grace")
        let department = Department(name: "R&D", manager: boss)
        let person = Person(name: "Linus")
        person.department = department
        return (person, department, boss, other)
    }

    @Test func leafChangeNotifies() throws {
        let (person, _, boss, _) = makeGraph()
        let recorder = Recorder()
        let token = try person.observe("department.manager.name", options: [.old, .new]) { _, c in recorder.record(c) }
        boss.name = "Countess"
        #expect(recorder.all.map { $0.oldValue as? String } == ["Ada"])
        #expect(recorder.all.map { $0.newValue as? String } == ["Countess"])
        _ = token
    }

    @Test func middleReplacementRewiresAndReportsLeafValues() throws {
        let (person, department, boss, other) = makeGraph()
        let recorder = Recorder()
        let token = try person.observe("department.manager.name", options: [.old, .new]) { _, c in recorder.record(c) }
        department.manager = other
        #expect(recorder.all.last?.oldValue as? String == "Ada")
        #expect(recorder.all.last?.newValue as? String == "Grace")
        boss.name = "detached"          // no longer on the path
        #expect(recorder.count == 1)
        other.name = "Hopper"
        #expect(recorder.count == 2)
        #expect(recorder.all.last?.newValue as? String == "Hopper")
        _ = token
    }

    @Test func firstLinkReplacementAndNilLinks() throws {
        let (person, department, _, other) = makeGraph()
        let recorder = Recorder()
        let token = try person.observe("department.manager.name", options: [.old, .new]) { _, c in recorder.record(c) }
        person.department = nil
        #expect(recorder.all.last?.oldValue as? String == "Ada")
        #expect(recorder.all.last?.newValue == nil)
        department.name = "ignored"
        department.manager = other      // detached department
        #expect(recorder.count == 1)
        person.department = Department(name: "Ops", manager: other)
        #expect(recorder.all.last?.newValue as? String == "Grace")
        #expect(recorder.count == 2)
        _ = token
    }

    @Test func handlerGetsTheRootObject() throws {
        let (person, _, boss, _) = makeGraph()
        let identifier = ObjectIdentifier(person)
        let roots = Recorder()
        let token = try person.observe("department.manager.name") { root, c in
            if ObjectIdentifier(root) == identifier { roots.record(c) }
        }
        boss.name = "x"
        #expect(roots.count == 1)
        _ = token
    }

    @Test func invalidatingDetachesEveryLink() throws {
        let (person, department, boss, _) = makeGraph()
        let token = try person.observe("department.manager.name") { _, _ in }
        #expect(ObservationCenter.existingStorage(ofAny: boss)?.existingObservers(key: "name")?.observerCount == 1)
        token.invalidate()
        #expect(ObservationCenter.existingStorage(ofAny: boss)?.existingObservers(key: "name")?.observerCount == 0)
        #expect(ObservationCenter.existingStorage(ofAny: department)?.existingObservers(key: "manager")?.observerCount == 0)
    }
}

@Suite("Dependent keys")
struct DependentKeyTests {
    @Test func computedKeyNotifiesWhenADependencyChanges() throws {
        let person = Person()
        person.firstName = "Ada"
        person.lastName = "Byron"
        let recorder = Recorder()
        let token = try person.observe("fullName", options: [.old, .new]) { _, c in recorder.record(c) }
        person.lastName = "Lovelace"
        try person.setValue("Augusta", forKey: "firstName")
        #expect(recorder.all.map { $0.oldValue as? String } == ["Ada Byron", "Ada Lovelace"])
        #expect(recorder.all.map { $0.newValue as? String } == ["Ada Lovelace", "Augusta Lovelace"])
        _ = token
    }

    @Test func diamondNotifiesOnce() throws {
        let shape = Shape()
        let recorder = Recorder()
        let token = try shape.observe("summary", options: [.old, .new, .prior]) { _, c in recorder.record(c) }
        shape.width = 3
        #expect(recorder.count == 2)   // one prior, one after
        #expect(recorder.all.last?.oldValue as? String == "1/4")
        #expect(recorder.all.last?.newValue as? String == "3/8")
        _ = token
    }

    @Test func cyclesTerminate() throws {
        let shape = Shape()
        let recorder = Recorder()
        let token = try shape.observe("ping", options: [.new]) { _, c in recorder.record(c) }
        shape.width = 5
        #expect(recorder.count == 1)
        #expect(recorder.all.first?.newValue as? Int == 5)
        _ = token
    }

    @Test func dependentKeyAtTheEndOfAChain() throws {
        let boss = Person()
        boss.firstName = "Ada"
        let department = Department(manager: boss)
        let recorder = Recorder()
        let token = try department.observe("manager.fullName", options: [.new]) { _, c in recorder.record(c) }
        boss.lastName = "L"
        #expect(recorder.all.map { $0.newValue as? String } == ["Ada L"])
        _ = token
    }
}
