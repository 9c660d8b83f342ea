import Foundation
import Testing
import KeyValueCoding

@Suite("Key paths")
struct KeyPathTests {
    func company() -> (Employee, Division) {
        let grace = Employee(name: "Grace", age: 50)
        let division = Division()
        division.name = "Compilers"
        division.head = grace
        let ada = Employee(name: "Ada", age: 36)
        ada.department = division
        ada.manager = grace
        division.members = [ada, grace]
        return (ada, division)
    }

    @Test func walksNestedObjects() throws {
        let (ada, _) = company()
        #expect(try ada.value(forKeyPath: "department.head.name") as? String == "Grace")
        #expect(try ada.value(forKeyPath: "manager.age") as? Int == 50)
        #expect(try ada.value(forKeyPath: "name") as? String == "Ada")
    }

    @Test func nilInTheMiddleGivesNil() throws {
        let ada = Employee(name: "Ada")
        #expect(try ada.value(forKeyPath: "department.head.name") == nil)
        #expect(try ada.value(forKeyPath: "manager.manager.manager") == nil)
        // Setting through nil does nothing, as messaging nil does.
        try ada.setValue("X", forKeyPath: "manager.name")
        #expect(ada.manager == nil)
    }

    @Test func undefinedKeyAnywhereInThePathThrows() throws {
        let (ada, _) = company()
        #expect(throws: KeyValueCodingError.undefinedKey("nope", type: String(reflecting: Division.self))) {
            try ada.value(forKeyPath: "department.nope")
        }
    }

    @Test func setsThroughAPath() throws {
        let (ada, division) = company()
        try ada.setValue("Lin", forKeyPath: "department.head.name")
        #expect(division.head?.name == "Lin")
        try ada.setValue(41, forKeyPath: "department.head.age")
        #expect(division.head?.age == 41)
    }

    @Test func arraysMapOverTheirElementsKeepingPositions() throws {
        let (_, division) = company()
        let lonely = Employee(name: "Lonely")
        division.members.append(lonely)
        let names = try #require(try division.value(forKeyPath: "members.name") as? [Any])
        #expect(names.compactMap { $0 as? String } == ["Ada", "Grace", "Lonely"])
        let managers = try #require(try division.value(forKeyPath: "members.manager.name") as? [Any])
        #expect(managers.count == 3)
        #expect(managers[0] as? String == "Grace")
        #expect(managers[1] is NSNull)  // nil becomes a null marker, keeping positions
        #expect(managers[2] is NSNull)
    }

    @Test func setValueOnAnArraySetsEveryElement() throws {
        let (_, division) = company()
        try KeyValue.setValue(7, forKeyPath: "age", of: division.members)
        #expect(division.members.map(\.age) == [7, 7])
        try division.setValue(8, forKeyPath: "members.age")
        #expect(division.members.map(\.age) == [8, 8])
    }

    @Test func setsGiveSets() throws {
        let ada = Employee(name: "Ada")
        let grace = Employee(name: "Grace")
        let twin = Employee(name: "Ada")
        let people: Set<ObjectIdentity> = [ObjectIdentity(ada), ObjectIdentity(grace), ObjectIdentity(twin)]
        let skills: Set<String> = ["swift", "c", "lisp"]
        let counts = try #require(try KeyValue.value(forKey: "count", of: skills.map { [$0: $0.count] }) as? [Any])
        #expect(counts.allSatisfy { $0 is NSNull })  // dictionaries look the key up
        let names = try #require(try KeyValue.value(forKeyPath: "name", of: people) as? Set<AnyHashable>)
        #expect(names == ["Ada", "Grace"])
    }

    @Test func dictionariesLookTheKeyUp() throws {
        let record: [String: Any] = ["name": "Ada", "address": ["city": "London"], "none": Optional<Int>.none as Any]
        #expect(try KeyValue.value(forKeyPath: "address.city", of: record) as? String == "London")
        #expect(try KeyValue.value(forKey: "missing", of: record) == nil)
        #expect(try KeyValue.value(forKey: "none", of: record) == nil)
        #expect(try KeyValue.value(forKey: "@count", of: record) as? Int == 3)
        let typed: [String: Int] = ["a": 1]
        #expect(try KeyValue.value(forKey: "a", of: typed) as? Int == 1)
    }

    @Test func plainValuesAreReadThroughReflection() throws {
        let point = Point(x: 3, y: 4)
        #expect(try KeyValue.value(forKey: "y", of: point) as? Int == 4)
        #expect(throws: KeyValueCodingError.undefinedKey("z", type: String(reflecting: Point.self))) {
            try KeyValue.value(forKey: "z", of: point)
        }
        #expect(throws: KeyValueCodingError.self) { try KeyValue.setValue(1, forKeyPath: "x", of: point) }
        #expect(try KeyValue.value(forKey: "x", of: nil) == nil)
        #expect(try KeyValue.value(forKey: "x", of: NSNull()) is NSNull)  // NSNull answers itself
        let optional: Point? = point
        #expect(try KeyValue.value(forKey: "x", of: optional as Any) as? Int == 3)
    }

    @Test(arguments: ["", ".", "..", "a..b", "name.", ".name", "department..name", "department.", "@", "@sum",
                      "@sum.", "@nope.x", "manager.@count.", "\u{0}", "😀.😀"])
    func malformedOrHostilePathsThrow(path: String) throws {
        let (ada, _) = company()
        #expect(throws: KeyValueCodingError.self) { try ada.value(forKeyPath: path) }
        #expect(throws: KeyValueCodingError.self) { try ada.setValue(1, forKeyPath: path) }
    }

    @Test func malformedPathsAfterNilStillThrow() throws {
        let ada = Employee()
        #expect(throws: KeyValueCodingError.malformedKeyPath("manager..name", reason: "a key in the path is empty")) {
            try ada.value(forKeyPath: "manager..name")
        }
    }

    @Test func veryLongPathsDoNotOverflowTheStack() throws {
        let first = Employee(name: "0")
        var current = first
        for i in 1...2_000 {
            let next = Employee(name: "\(i)")
            current.manager = next
            current = next
        }
        let path = Array(repeating: "manager", count: 2_000).joined(separator: ".") + ".name"
        #expect(try first.value(forKeyPath: path) as? String == "2000")
        let tooFar = Array(repeating: "manager", count: 5_000).joined(separator: ".")
        #expect(try first.value(forKeyPath: tooFar) == nil)
        var unlinked: Employee? = first
        while let employee = unlinked { unlinked = employee.manager; employee.manager = nil }
    }
}
