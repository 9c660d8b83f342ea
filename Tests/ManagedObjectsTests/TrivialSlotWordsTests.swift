import Foundation
import Testing
@testable import ManagedObjects

/// Validation's check by type through ``TrivialSlotWords`` (session 16): it finds exactly the
/// slots the traits' own check finds, slot by slot, for every mix of values; saves collect every
/// error as before; and the IDs a save gives new objects of one entity follow their insert order.
@Suite struct TrivialSlotWordsTests {
    /// Attributes of every trivially checkable kind, with and without rules, optional and
    /// mandatory, a relationship and a transient attribute.
    static let properties: [PropertyDescription] = {
        func attribute(_ type: AttributeDescription.AttributeType, optional: Bool = true,
                       _ rules: [AttributeValidationRule] = [], transient: Bool = false) -> PropertyDescription {
            var a = AttributeDescription(name: "a\(type)\(optional)\(rules.count)", type: type, isOptional: optional,
                                         isTransient: transient)
            a.validationRules = rules
            return .attribute(a)
        }
        return [
            attribute(.string), attribute(.string, optional: false), attribute(.string, [.maximumLength(3)]),
            attribute(.integer64), attribute(.integer64, optional: false), attribute(.integer16),
            attribute(.integer32, [.maximumValue(.integer(5))]), attribute(.double), attribute(.float, optional: false),
            attribute(.boolean), attribute(.date), attribute(.date, optional: false),
            attribute(.date, [.minimumValue(.date(Date(timeIntervalSinceReferenceDate: 0)))]),
            attribute(.binaryData), attribute(.uuid), attribute(.decimal), attribute(.string, transient: true),
            .relationship(RelationshipDescription(name: "owner", destination: "Owner")),
        ]
    }()

    /// Values of several types, `nil` and non-finite dates among them.
    static func candidates() -> [Any?] { [
        nil, "text", "a longer text that is not small", Int64(7), Int16(2), Int32(9), Int(4), 2.5, Float(1.5), true,
        Date(timeIntervalSinceReferenceDate: 100), Date(timeIntervalSinceReferenceDate: .infinity),
        Date(timeIntervalSinceReferenceDate: -.infinity), Date(timeIntervalSinceReferenceDate: .nan), Data([1, 2]),
        UUID(), Decimal(3), NSNull(), NSNumber(value: 3),
    ] }

    @Test func findsWhatTheTraitsFindSlotBySlot() {
        let traits = Self.properties.map(SlotTraits.init)
        let words = TrivialSlotWords(traits)
        // A fixed generator: the same mixes every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let candidates = Self.candidates()
        var sawValid = false, sawInvalid = false
        for _ in 0..<2000 {
            let values = ContiguousArray<Any?>(traits.indices.map { _ in candidates[next() % candidates.count] })
            var expected: UInt64 = 0
            for slot in traits.indices where traits[slot].isTriviallyValid(values[slot]) { expected |= 1 << UInt64(slot) }
            let found = values.withUnsafeBufferPointer { buffer in
                words.validSlots(valuesAt: UnsafeRawPointer(buffer.baseAddress!), traits: traits)
            }
            // (Values are not printed: an infinite date has no description.)
            #expect(found == expected, "found \(String(found, radix: 2)), expected \(String(expected, radix: 2))")
            if found != 0 { sawValid = true }
            if found != (1 << UInt64(traits.count)) - 1 { sawInvalid = true }
        }
        #expect(sawValid && sawInvalid)
        // Each slot with a value of exactly its type (a finite date), then with a non-finite date.
        let exact: [Any?] = ["s", "s", "s", Int64(1), Int64(1), Int16(1), Int32(1), 1.0, Float(1), false, Date(),
                             Date(), Date(), Data(), UUID(), Decimal(1), "t", nil]
        let exactValues = ContiguousArray(exact)
        let exactBits = exactValues.withUnsafeBufferPointer { words.validSlots(valuesAt: UnsafeRawPointer($0.baseAddress!), traits: traits) }
        var exactExpected: UInt64 = 0
        for slot in traits.indices where traits[slot].isTriviallyValid(exactValues[slot]) { exactExpected |= 1 << UInt64(slot) }
        #expect(exactBits == exactExpected)
        // The rule-free date slots (10, 11) are valid with a finite date, not with an infinite one.
        #expect(exactBits & (1 << 10) != 0 && exactBits & (1 << 11) != 0)
        var infinite = exactValues
        infinite[10] = Date(timeIntervalSinceReferenceDate: .infinity)
        let infiniteBits = infinite.withUnsafeBufferPointer { words.validSlots(valuesAt: UnsafeRawPointer($0.baseAddress!), traits: traits) }
        #expect(infiniteBits == exactBits & ~(1 << 10))
    }

    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [
                .attribute("title", .string, isOptional: false), .attribute("rank", .integer64),
                .attribute("when", .date), .attribute("size", .double),
                .attribute("code", .string, rules: [.maximumLength(2)]),
            ]),
        ])
    }()

    func stack() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func saveCollectsEveryErrorBesideTriviallyValidValues() throws {
        let context = try stack()
        let valid = try context.insertNewObject(forEntityNamed: "Entry")
        try valid.setValue("fine", forKey: "title")
        try valid.setValue("ok", forKey: "code")
        try valid.setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "when")
        // A mandatory value missing and a string too long: both reported, in one error.
        let invalid = try context.insertNewObject(forEntityNamed: "Entry")
        try invalid.setValue("long", forKey: "code")
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.code == .multipleErrors)
        #expect(Set(error.underlyingErrors.map(\.code)) == [.missingMandatoryProperty, .stringTooLong])
        #expect(Set(error.underlyingErrors.compactMap(\.key)) == ["title", "code"])
        #expect(valid.objectID.isTemporaryID && invalid.objectID.isTemporaryID)
        try invalid.setValue("now", forKey: "title")
        try invalid.setValue("ab", forKey: "code")
        try context.save()
        #expect(!valid.objectID.isTemporaryID && !invalid.objectID.isTemporaryID)
    }

    @Test func newObjectsTakeRisingKeysInInsertOrder() throws {
        let context = try stack()
        var entries: [ManagedObject] = []
        for rank in 0..<50 {
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue(Int64(rank), forKey: "rank")
            try entry.setValue("t", forKey: "title")
            entries.append(entry)
        }
        try context.save()
        let keys = entries.map { $0.objectID.integerKey }
        #expect(keys.allSatisfy { $0 != nil })
        let first = try #require(keys.first ?? nil)
        #expect(keys == (0..<50).map { first + Int64($0) })
        for (rank, entry) in entries.enumerated() {
            #expect(context.registeredObject(for: entry.objectID) === entry)
            #expect(try entry.value(forKey: "rank") as? Int64 == Int64(rank))
        }
    }
}
