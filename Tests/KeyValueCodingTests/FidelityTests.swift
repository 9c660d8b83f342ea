import Foundation
import Testing
import KeyValueCoding

/// Apple's rules that issue 10 found broken: validation defaults, the inert null sentinel,
/// strings' keys, `description`, and casts that bridged Swift sets through Foundation.
@Suite("Key-value coding fidelity")
struct FidelityTests {
    final class Holder: KeyValueCodable {
        var name = ""
        var flag = false
        var decimals: Set<Decimal> = [1.5]
        var members: [Holder] = []
        var friends: Set<Friend> = []
        var anything: Any?
        var child: Holder?
    }

    final class Friend: Hashable {
        static func == (lhs: Friend, rhs: Friend) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    final class Rank: Comparable {
        static func < (lhs: Rank, rhs: Rank) -> Bool { false }
        static func == (lhs: Rank, rhs: Rank) -> Bool { lhs === rhs }
    }

    // MARK: Validation

    /// Apple: "If the object has no such method, the validation succeeds by default" — for any
    /// key, defined or not; the value is left unchanged.
    @Test func validationWithoutAValidatorAcceptsTheValueUnchanged() throws {
        let holder = Holder()
        var value: Any? = "anything"
        try holder.validateValue(&value, forKey: "noSuchKey")
        #expect(value as? String == "anything")
        try holder.validateValue(&value, forKey: "name")
        #expect(value as? String == "anything")
    }

    /// Apple: `validateValue:forKeyPath:` validates on the object at the end of the path; the
    /// last key need not be a property, and what is not an object (a dictionary, a collection,
    /// `NSNull`, a plain value) accepts the value (its default implementation says yes).
    @Test func validationThroughAPathAcceptsUndefinedLastKeysAndNonObjects() throws {
        let holder = Holder()
        holder.child = Holder()
        holder.anything = ["a": 1]
        var value: Any? = 7
        try holder.validateValue(&value, forKeyPath: "child.noSuchKey")
        try holder.validateValue(&value, forKeyPath: "anything.a")       // a dictionary
        try holder.validateValue(&value, forKeyPath: "members.name")     // an array
        try holder.validateValue(&value, forKeyPath: "decimals.flag")    // a set of Decimal
        try holder.validateValue(&value, forKeyPath: "name.length")      // a string
        try holder.validateValue(&value, forKeyPath: "child.child.name") // stops at nil
        #expect(value as? Int == 7)
        // The keys before the last are still read, and must exist.
        #expect(throws: KeyValueCodingError.undefinedKey("nope", type: String(reflecting: Holder.self))) {
            try holder.validateValue(&value, forKeyPath: "nope.name")
        }
    }

    @Test func validatorsStillRunThroughPaths() throws {
        let division = Division()
        division.head = Employee()
        var value: Any? = -1
        #expect(throws: KeyValueCodingError.self) { try division.validateValue(&value, forKeyPath: "head.age") }
        value = 200
        try division.validateValue(&value, forKeyPath: "head.age")
        #expect(value as? Int == 150)
    }

    // MARK: The null sentinel

    /// Apple's `NSNull` answers itself for every key and key path, and raises
    /// `NSUndefinedKeyException` for every key set.
    @Test func nullAnswersItselfForEveryKeyAndKeyPath() throws {
        #expect(try KeyValue.value(forKey: "anything", of: NSNull()) is NSNull)
        #expect(try KeyValue.value(forKeyPath: "some.path", of: NSNull()) is NSNull)
        #expect(try KeyValue.value(forKeyPath: "@count", of: NSNull()) is NSNull)
        #expect(try KeyValue.value(forKeyPath: "@sum.x", of: NSNull()) is NSNull)
        #expect(try KeyValue.value(forKeyPath: "description", of: NSNull()) is NSNull)
        // Through a container holding it, the walk goes on from the null, which answers itself.
        let record: [String: Any] = ["gap": NSNull()]
        #expect(try KeyValue.value(forKeyPath: "gap.some.path", of: record) is NSNull)
        // `nil` is not the null sentinel: a path still stops at nil.
        let holder = Holder()
        #expect(try holder.value(forKeyPath: "child.name") == nil)
    }

    @Test func nullCannotBeSet() throws {
        let type = String(reflecting: NSNull.self)
        #expect(throws: KeyValueCodingError.undefinedKey("key", type: type)) {
            try KeyValue.setValue("value", forKeyPath: "key", of: NSNull())
        }
        #expect(throws: KeyValueCodingError.undefinedKey("path", type: type)) {
            try KeyValue.setValue("value", forKeyPath: "some.path", of: NSNull())
        }
        // An array holding the sentinel sets the key on every element, the sentinel included.
        let elements: [Any] = [Holder(), NSNull()]
        #expect(throws: KeyValueCodingError.undefinedKey("name", type: type)) {
            try KeyValue.setValue("x", forKeyPath: "name", of: elements)
        }
        // Messaging nil still does nothing.
        let holder = Holder()
        try holder.setValue("x", forKeyPath: "child.name")
        #expect(holder.child == nil)
    }

    /// Apple (`-[NSSet valueForKey:]`): the set leaves out elements whose value is nil, "which is
    /// distinct from returning NSNull": the sentinel's answer (itself) is kept.
    @Test func setsKeepTheNullSentinelButNotNil() throws {
        let members: Set<AnyHashable> = [AnyHashable(NSNull()), AnyHashable(Point3(x: 1))]
        let xs = try #require(try KeyValue.value(forKey: "x", of: members) as? Set<AnyHashable>)
        #expect(xs.count == 2)
        #expect(xs.contains(AnyHashable(1)))
        #expect(xs.contains { $0.base is NSNull })
    }

    struct Point3: Hashable {
        var x: Int
    }

    // MARK: Strings and description

    /// Apple: a string's `length` is its number of UTF-16 code units (`-[NSString length]`).
    @Test(arguments: [("Ada", 3), ("Lücke", 5), ("😀", 2), ("", 0), ("e\u{301}", 2)])
    func stringLengthIsItsUTF16Count(text: String, length: Int) throws {
        #expect(try KeyValue.value(forKey: "length", of: text) as? Int == length)
        #expect(try KeyValue.value(forKey: "length", of: NSString(string: text)) as? Int == length)
        #expect(try KeyValue.value(forKey: "length", of: text.dropFirst(0)) as? Int == length)
        let holder = Holder()
        holder.name = text
        #expect(try holder.value(forKeyPath: "name.length") as? Int == length)
        guard case .number(let number) = try KeyValuePath("name.length").reading(of: holder) else {
            Issue.record("name.length is not a number")
            return
        }
        #expect(number.doubleValue == Double(length))
    }

    @Test func stringsHaveNoOtherKeys() throws {
        #expect(throws: KeyValueCodingError.undefinedKey("count", type: String(reflecting: String.self))) {
            try KeyValue.value(forKey: "count", of: "abc")
        }
        let names = try #require(try KeyValue.value(forKeyPath: "length", of: ["Do", "Ré", "😀"]) as? [Any])
        #expect(names.compactMap { $0 as? Int } == [2, 2, 2])
    }

    /// Apple: every object answers `description`, so a key path `description` works on
    /// strings, numbers and other values (filtering `["Do", "Re"]` by `description`).
    @Test func everyValueAnswersDescription() throws {
        #expect(try KeyValue.value(forKeyPath: "description", of: "Do") as? String == "Do")
        #expect(try KeyValue.value(forKeyPath: "description", of: 42) as? String == "42")
        #expect(try KeyValue.value(forKeyPath: "description", of: Point3(x: 1)) as? String
                == String(describing: Point3(x: 1)))
        let notes = try #require(try KeyValue.value(forKeyPath: "description", of: ["Do", "Re"]) as? [Any])
        #expect(notes.compactMap { $0 as? String } == ["Do", "Re"])
        guard case .string(let text) = try KeyValuePath("description").reading(of: "Re") else {
            Issue.record("description is not a string")
            return
        }
        #expect(text == "Re")
        let holder = Holder()
        #expect(try holder.value(forKey: "description") as? String == String(describing: holder))
        // Read-only: setting it is an undefined key, as for Apple's read-only `description`.
        #expect(throws: KeyValueCodingError.self) { try holder.setValue("x", forKey: "description") }
    }

    /// A stored property named `description` is found before the fallback.
    @Test func aPropertyNamedDescriptionWins() throws {
        struct Labelled { var description = "mine" }
        #expect(try KeyValue.value(forKey: "description", of: Labelled()) as? String == "mine")
    }

    /// Operators see through optionals, as the casts they replaced did.
    @Test func operatorsSeeThroughOptionals() throws {
        let numbers: [Int]? = [1, 2, 3]
        #expect(try KeyValue.value(forKeyPath: "@count", of: numbers as Any) as? Int == 3)
        #expect(try KeyValue.value(forKeyPath: "@sum.self", of: numbers as Any) as? Int == 6)
        let record: [String: Int]? = ["a": 1]
        #expect(try KeyValue.value(forKeyPath: "@count", of: record as Any) as? Int == 1)
    }

    // MARK: No bridging of Swift sets

    /// Casting a Swift `Set` of `Decimal` to a class-bound existential or a Foundation class
    /// bridges it through Foundation on Linux, which recursed until the stack overflowed.
    /// Apple: setting a key on a set sets it on every member; a number has no key `flag`.
    @Test func settingThroughASetOfDecimalsThrowsInsteadOfCrashing() throws {
        #expect(throws: KeyValueCodingError.undefinedKey("flag", type: String(reflecting: Decimal.self))) {
            try KeyValue.setValue(true, forKeyPath: "flag", of: Set([Decimal(1.5)]))
        }
        let holder = Holder()
        #expect(throws: KeyValueCodingError.undefinedKey("flag", type: String(reflecting: Decimal.self))) {
            try holder.setValue(true, forKeyPath: "decimals.flag")
        }
        #expect(throws: KeyValueCodingError.self) { try holder.mutableArrayValue(forKeyPath: "decimals.flag") }
        #expect(try KeyValue.value(forKeyPath: "@count", of: Set([Decimal(1.5)])) as? Int == 1)
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "flag", of: Set([Decimal(1.5)])) }
        let nested: [Any] = [Set([Decimal(1.5)])]
        #expect(try KeyValue.value(forKeyPath: "@unionOfArrays.self", of: nested) as? [Any] != nil)
    }

    @Test func aSetOfDecimalsIsNeverCastToAClass() throws {
        let holder = Holder()
        let friends = try holder.mutableSetValue(forKey: "friends")
        #expect(throws: KeyValueCodingError.self) { try friends.insert(AnyHashable(Set([Decimal(1.5)]))) }
        #expect(holder.friends.isEmpty)
        let members = try holder.mutableArrayValue(forKey: "members")
        #expect(throws: KeyValueCodingError.typeMismatch(
            key: "members[0]", type: String(reflecting: Holder.self), expected: String(reflecting: Holder.self),
            actual: String(reflecting: Set<Decimal>.self))) {
            try members.append(Set([Decimal(1.5)]))
        }
        #expect(holder.members.isEmpty)
        // `@max` compares the second value (a comparable class) with the first (the set).
        let values: [Any] = [Set([Decimal(1.5)]), Rank()]
        #expect(throws: KeyValueCodingError.self) { try KeyValue.value(forKeyPath: "@max.self", of: values) }
    }
}
