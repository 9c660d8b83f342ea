import Foundation
import Testing
import KeyValueCoding

@Suite("Mutable collection proxies")
struct MutableProxyTests {
    @Test func arrayProxyEditsInPlaceWithToManyNotifications() throws {
        let recorder = Recorder()
        let items = try recorder.mutableArrayValue(forKey: "items")
        try items.append(1)
        try items.append(3)
        try items.insert(2, at: 1)
        #expect(recorder.items == [1, 2, 3])
        try items.replace(at: 0, with: 10)
        try items.remove(at: 2)
        #expect(recorder.items == [10, 2])
        #expect(items.count == 2)
        #expect(items[1] as? Int == 2)
        try items.move(from: 0, to: 1)
        #expect(recorder.items == [2, 10])
        try items.removeAll()
        #expect(recorder.items.isEmpty)
        #expect(recorder.log == [
            "will insertion [0] items", "did insertion [0] items",
            "will insertion [1] items", "did insertion [1] items",
            "will insertion [1] items", "did insertion [1] items",
            "will replacement [0] items", "did replacement [0] items",
            "will removal [2] items", "did removal [2] items",
            "will removal [0] items", "did removal [0] items",
            "will insertion [1] items", "did insertion [1] items",
            "will removal [0, 1] items", "did removal [0, 1] items",
        ])
    }

    @Test func arrayProxyInsertsAtSeveralIndexes() throws {
        let recorder = Recorder()
        recorder.items = [1, 4]
        let items = try recorder.mutableArrayValue(forKey: "items")
        try items.insert([2, 3], at: IndexSet([1, 2]))
        #expect(recorder.items == [1, 2, 3, 4])
        try items.remove(at: IndexSet([0, 3]))
        #expect(recorder.items == [2, 3])
    }

    @Test func arrayProxyRejectsBadInputWithoutNotifying() throws {
        let recorder = Recorder()
        let items = try recorder.mutableArrayValue(forKey: "items")
        #expect(throws: KeyValueCodingError.self) { try items.insert(1, at: 5) }
        #expect(throws: KeyValueCodingError.self) { try items.remove(at: 0) }
        #expect(throws: KeyValueCodingError.self) { try items.append("not a number") }
        #expect(throws: KeyValueCodingError.self) { try items.replace(at: IndexSet([0]), with: []) }
        #expect(recorder.items.isEmpty)
        #expect(recorder.log.isEmpty)
        #expect(throws: KeyValueCodingError.self) { try recorder.mutableArrayValue(forKey: "score") }
        #expect(throws: KeyValueCodingError.self) { try recorder.mutableArrayValue(forKey: "labels") }
        #expect(throws: KeyValueCodingError.self) { try recorder.mutableArrayValue(forKey: "nope") }
    }

    @Test func arrayProxyOfObjects() throws {
        let division = Division()
        let members = try division.mutableArrayValue(forKey: "members")
        let ada = Employee(name: "Ada")
        try members.append(ada)
        #expect(division.members.first === ada)
        #expect(throws: KeyValueCodingError.self) { try members.append(Division()) }
    }

    @Test func setProxyEditsWithSetMutationNotifications() throws {
        let recorder = Recorder()
        let labels = try recorder.mutableSetValue(forKey: "labels")
        try labels.insert("a")
        try labels.union(["b", "c"])
        #expect(recorder.labels == ["a", "b", "c"])
        try labels.remove("a")
        try labels.formIntersection(["b", "z"])
        #expect(recorder.labels == ["b"])
        try labels.replaceAll(with: ["q"])
        #expect(labels.members == ["q"])
        #expect(labels.contains("q") && labels.count == 1)
        #expect(throws: KeyValueCodingError.self) { try labels.insert(5) }
        #expect(recorder.labels == ["q"])
        #expect(recorder.log == [
            "will union 1 labels", "did union 1 labels",
            "will union 2 labels", "did union 2 labels",
            "will minus 1 labels", "did minus 1 labels",
            "will intersect 2 labels", "did intersect 2 labels",
            "will set 1 labels", "did set 1 labels",
        ])
        #expect(throws: KeyValueCodingError.self) { try recorder.mutableSetValue(forKey: "items") }
    }

    @Test func setValueSendsSettingNotificationsUnlessSwitchedOff() throws {
        let recorder = Recorder()
        try recorder.setValue(3, forKey: "score")
        try recorder.setValue(4, forKey: "quiet")
        #expect(recorder.score == 3 && recorder.quiet == 4)
        #expect(recorder.log == ["will score", "did score"])
        #expect(throws: KeyValueCodingError.self) { try recorder.setValue("x", forKey: "score") }
        #expect(recorder.log.count == 2)  // a rejected value sends nothing
    }
}

@Suite("Key-path forms of validation and proxies")
struct KeyPathFormsTests {
    @Test func validateThroughAPath() throws {
        let ada = Employee(name: "Ada")
        let division = Division()
        division.head = ada
        var value: Any? = 200
        try division.validateValue(&value, forKeyPath: "head.age")
        #expect(value as? Int == 150)
        value = -1
        #expect(throws: KeyValueCodingError.self) { try division.validateValue(&value, forKeyPath: "head.age") }
        division.head = nil
        try division.validateValue(&value, forKeyPath: "head.age")  // nothing to validate
        #expect(throws: KeyValueCodingError.self) { try division.validateValue(&value, forKeyPath: "head..age") }
    }

    @Test func proxiesThroughAPath() throws {
        let ada = Employee(name: "Ada")
        let division = Division()
        division.head = ada
        try division.mutableArrayValue(forKeyPath: "head.tags").append("x")
        try division.mutableSetValue(forKeyPath: "head.skills").insert("swift")
        #expect(ada.tags == ["x"] && ada.skills == ["swift"])
        division.head = nil
        #expect(throws: KeyValueCodingError.self) { try division.mutableArrayValue(forKeyPath: "head.tags") }
        #expect(throws: KeyValueCodingError.self) { try division.mutableArrayValue(forKeyPath: "name.count") }
    }
}
