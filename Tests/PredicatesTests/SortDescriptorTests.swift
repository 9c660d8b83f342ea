import Foundation
import Testing
@testable import Predicates

@Suite("Sort descriptors")
struct SortDescriptorTests {
    let people = [
        TestPerson("b", age: 3, nickname: "x"), TestPerson("A", age: 5), TestPerson("a", age: 1, nickname: "y"),
        TestPerson("c", age: 5, nickname: "z"), TestPerson("B", age: 2),
    ]

    @Test func singleKeyAscendingAndDescending() throws {
        #expect(try people.sorted(using: [KeyValueSortDescriptor(key: "age")]).map(\.age) == [1, 2, 3, 5, 5])
        #expect(try people.sorted(using: [KeyValueSortDescriptor(key: "age", ascending: false)]).map(\.age) == [5, 5, 3, 2, 1])
        #expect(try people.sorted(using: [KeyValueSortDescriptor(key: "name")]).map(\.name) == ["A", "B", "a", "b", "c"])
    }

    @Test func chainedDescriptorsAndStability() throws {
        let sorted = try people.sorted(using: [KeyValueSortDescriptor(key: "age", ascending: false),
                                               KeyValueSortDescriptor(key: "name")])
        #expect(sorted.map(\.name) == ["A", "c", "b", "B", "a"])
        // Equal keys keep their order (stable), ascending and descending.
        let byAge = try people.sorted(using: [KeyValueSortDescriptor(key: "age", ascending: false)])
        #expect(byAge.prefix(2).map(\.name) == ["A", "c"])
        let caseless = try people.sorted(using: [KeyValueSortDescriptor(key: "name", comparison: .caseInsensitiveCompare)])
        #expect(caseless.map(\.name) == ["A", "a", "b", "B", "c"])
    }

    @Test func nilSortsFirstAscendingLastDescending() throws {
        let ascending = try people.sorted(using: [KeyValueSortDescriptor(key: "nickname")])
        #expect(ascending.map(\.nickname) == [nil, nil, "x", "y", "z"])
        let descending = try people.sorted(using: [KeyValueSortDescriptor(key: "nickname", ascending: false)])
        #expect(descending.map(\.nickname) == ["z", "y", "x", nil, nil])
    }

    @Test func localizedComparisons() throws {
        let files: [[String: Any]] = [["n": "file 10"], ["n": "file 2"], ["n": "File 1"]]
        let standard = try files.sorted(using: [KeyValueSortDescriptor(key: "n", comparison: .localizedStandardCompare)])
        #expect(standard.map { $0["n"] as? String } == ["File 1", "file 2", "file 10"])
        let localized = try files.sorted(using: [KeyValueSortDescriptor(key: "n", comparison: .localizedCaseInsensitiveCompare)])
        #expect(localized.first?["n"] as? String == "File 1")
        let plain = try files.sorted(using: [KeyValueSortDescriptor(key: "n", comparison: .localizedCompare)])
        #expect(plain.count == 3)
    }

    @Test func comparatorClosureAndReversed() throws {
        let byLength = KeyValueSortDescriptor(key: "name") { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        }
        let words: [[String: Any]] = [["name": "ccc"], ["name": "a"], ["name": "bb"]]
        #expect(try words.sorted(using: [byLength]).map { $0["name"] as? String } == ["a", "bb", "ccc"])
        #expect(try words.sorted(using: [byLength.reversed]).map { $0["name"] as? String } == ["ccc", "bb", "a"])
        let age = KeyValueSortDescriptor(key: "age")
        #expect(age.reversed.ascending == false && age.reversed.reversed.ascending)
        #expect(try age.compare(people[0], to: people[1]) == .orderedAscending)
        #expect(try age.reversed.compare(people[0], to: people[1]) == .orderedDescending)
    }

    @Test func sortingPlainValuesAndKeyPaths() throws {
        #expect(try [3, 1, 2].sorted(using: [KeyValueSortDescriptor(key: nil)]) == [1, 2, 3])
        #expect(try [2.5, -1.0].sorted(using: [KeyValueSortDescriptor(key: nil, ascending: false)]) == [2.5, -1.0])
        let withDepartments = [TestPerson("x", age: 1, department: TestDepartment(name: "Sales")),
                               TestPerson("y", age: 1, department: TestDepartment(name: "Art")), TestPerson("z", age: 1)]
        let sorted = try withDepartments.sorted(using: [KeyValueSortDescriptor(key: "department.name")])
        #expect(sorted.map(\.name) == ["z", "y", "x"])
        var mutable = people
        try mutable.sort(using: [KeyValueSortDescriptor(key: "age")])
        #expect(mutable.first?.age == 1)
        let dates = [Date(timeIntervalSince1970: 5), Date(timeIntervalSince1970: 1)]
        #expect(try dates.sorted(using: [KeyValueSortDescriptor(key: nil)]).first == dates[1])
        let mixed: [Any] = [2, 1.5, 3]
        #expect(try mixed.sorted(using: [KeyValueSortDescriptor(key: nil)]).map { "\($0)" } == ["1.5", "2", "3"])
    }

    @Test func incomparableValuesThrow() throws {
        let mixed: [Any] = [1, "a"]
        #expect(throws: PredicateEvaluationError.self) { try mixed.sorted(using: [KeyValueSortDescriptor(key: nil)]) }
        #expect(throws: (any Error).self) { try people.sorted(using: [KeyValueSortDescriptor(key: "missing")]) }
    }
}

@Suite("Sorting by ranks")
struct SortRankTests {
    @Test func ranksAgreeWithPairwiseComparisons() throws {
        // Many elements, several descriptors and nils: the ranked sort must equal a stable sort
        // with the pairwise comparator (`compare(_:to:)`).
        let names = ["b", "A", nil, "a", "B", "é", "e", "Z"]
        let people = (0..<300).map { i in
            TestPerson(names[(i * 7) % names.count] ?? "x", age: (i * 13) % 11,
                       nickname: names[(i * 5) % names.count], active: i % 3 == 0)
        }
        let descriptorSets: [[KeyValueSortDescriptor]] = [
            [KeyValueSortDescriptor(key: "nickname"), KeyValueSortDescriptor(key: "age", ascending: false)],
            [KeyValueSortDescriptor(key: "nickname", ascending: false, comparison: .caseInsensitiveCompare)],
            [KeyValueSortDescriptor(key: "active"), KeyValueSortDescriptor(key: "nickname", comparison: .localizedStandardCompare)],
            [KeyValueSortDescriptor(key: "name", comparison: .localizedCaseInsensitiveCompare), KeyValueSortDescriptor(key: "age")],
        ]
        for descriptors in descriptorSets {
            let expected = try Array(people.enumerated()).sorted { a, b in
                for descriptor in descriptors {
                    let r = try descriptor.compare(a.element, to: b.element)
                    if r != .orderedSame { return r == .orderedAscending }
                }
                return a.offset < b.offset
            }.map { ObjectIdentifier($0.element) }
            #expect(try people.sorted(using: descriptors).map(ObjectIdentifier.init) == expected)
        }
    }

    @Test func doublesDatesAndMixedNumbers() throws {
        let doubles: [[String: Any]] = [["v": 2.5], ["v": -1.0], [:], ["v": 0.0]]
        #expect(try doubles.sorted(using: [KeyValueSortDescriptor(key: "v")]).map { $0["v"] as? Double } == [nil, -1, 0, 2.5])
        let dates: [[String: Any]] = [["d": Date(timeIntervalSince1970: 9)], ["d": Date(timeIntervalSince1970: 1)]]
        #expect(try dates.sorted(using: [KeyValueSortDescriptor(key: "d", ascending: false)]).first?["d"] as? Date
                == Date(timeIntervalSince1970: 9))
        let mixed: [[String: Any]] = [["v": 2], ["v": 1.5], ["v": true], ["v": UInt8(3)]]
        #expect(try mixed.sorted(using: [KeyValueSortDescriptor(key: "v")]).map { "\($0["v"] ?? "")" } == ["true", "1.5", "2", "3"])
        let datesAndNumbers: [[String: Any]] = [["v": Date()], ["v": 1.5]]
        #expect(throws: PredicateEvaluationError.self) { try datesAndNumbers.sorted(using: [KeyValueSortDescriptor(key: "v")]) }
        #expect(try [Int]().sorted(using: [KeyValueSortDescriptor(key: nil)]).isEmpty)
        #expect(try [5].sorted(using: [KeyValueSortDescriptor(key: nil)]) == [5])
    }
}
