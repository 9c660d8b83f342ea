import Foundation
import Predicates
import Testing
@testable import ManagedObjects

/// Attribute validation, one test per Apple error code (the raw values are Core Data's).
@Suite struct AttributeValidationTests {
    typealias Code = ManagedObjectValidationError.Code

    static func attribute(_ type: AttributeDescription.AttributeType, optional: Bool = true,
                          _ rules: [AttributeValidationRule] = []) -> AttributeDescription {
        var a = AttributeDescription(name: "field", type: type, isOptional: optional)
        a.validationRules = rules
        return a
    }

    /// The code thrown, or nil when valid.
    static func code(_ a: AttributeDescription, _ value: Any?) -> Code? {
        do {
            try a.validate(value, entity: "Thing")
            return nil
        } catch {
            return error.code
        }
    }

    @Test func codesHaveApplesIntegers() {
        let expected: [Code: Int] = [
            .managedObjectValidation: 1550, .constraintValidation: 1551, .multipleErrors: 1560,
            .missingMandatoryProperty: 1570, .relationshipLacksMinimumCount: 1580,
            .relationshipExceedsMaximumCount: 1590, .relationshipDeniedDelete: 1600,
            .numberTooLarge: 1610, .numberTooSmall: 1620, .dateTooLate: 1630, .dateTooSoon: 1640,
            .invalidDate: 1650, .stringTooLong: 1660, .stringTooShort: 1670,
            .stringPatternMatching: 1680, .invalidURI: 1690,
        ]
        #expect(Code.allCases.count == expected.count)
        for code in Code.allCases { #expect(code.rawValue == expected[code], "\(code)") }
        #expect(Code(rawValue: 1570) == .missingMandatoryProperty)
        #expect(Code.stringTooLong.appleName == "NSValidationStringTooLongError")
    }

    @Test func missingMandatoryProperty() {
        let mandatory = Self.attribute(.string, optional: false)
        #expect(Self.code(mandatory, nil) == .missingMandatoryProperty)
        #expect(Self.code(mandatory, NSNull()) == .missingMandatoryProperty)
        let nested: String?? = .some(nil)
        #expect(Self.code(mandatory, nested as Any) == .missingMandatoryProperty)
        #expect(Self.code(mandatory, "x") == nil)
        #expect(Self.code(Self.attribute(.string), nil) == nil)
    }

    @Test func errorNamesEntityKeyAndValue() throws {
        let a = Self.attribute(.string, [.maximumLength(3)])
        let error = try #require(throws: ManagedObjectValidationError.self) { try a.validate("abcd", entity: "Movie") }
        #expect(error.entity == "Movie")
        #expect(error.key == "field")
        #expect(error.value == .string("abcd"))
        #expect(error.objectDescription == nil)
        let text = try #require(error.errorDescription)
        #expect(text.contains("Movie.field") && text.contains("abcd") && text.contains("1660"))
        let attributed = error.attributed(toObject: "x-coredata://S/Movie/p1")
        #expect(attributed.objectDescription == "x-coredata://S/Movie/p1")
        #expect(attributed.errorDescription?.contains("x-coredata://S/Movie/p1") == true)
    }

    @Test(arguments: [
        (AttributeDescription.AttributeType.string, 5 as any Sendable),
        (.integer16, "5" as any Sendable), (.integer32, 2.5 as any Sendable), (.integer64, true as any Sendable),
        (.double, "1" as any Sendable), (.decimal, Date() as any Sendable), (.boolean, 1 as any Sendable),
        (.date, 0.0 as any Sendable), (.binaryData, "bytes" as any Sendable), (.uuid, "not a uuid object" as any Sendable),
        (.uri, "https://example.org" as any Sendable), (.float, [1] as any Sendable),
    ])
    func wrongTypeIsGenericValidationError(type: AttributeDescription.AttributeType, value: any Sendable) {
        #expect(Self.code(Self.attribute(type), value) == .managedObjectValidation)
    }

    @Test func rightTypesPass() {
        let cases: [(AttributeDescription.AttributeType, Any)] = [
            (.integer16, Int16(3)), (.integer16, 3), (.integer16, UInt8(7)), (.integer32, Int64(1 << 30)),
            (.integer64, Int.max), (.decimal, Decimal(string: "1.25")!), (.decimal, 3), (.double, 2.5),
            (.double, Float(1)), (.float, 1.5), (.string, "s"), (.string, Substring("sub")),
            (.boolean, false), (.date, Date()), (.binaryData, Data([1])), (.uuid, UUID()),
            (.uri, URL(string: "https://example.org")!), (.transformable, [1, 2]),
            (.integer32, NSNumber(value: 5)),
        ]
        for (type, value) in cases {
            #expect(Self.code(Self.attribute(type), value) == nil, "\(type) \(value)")
        }
    }

    @Test func integerWidthOverflowIsTooLargeOrTooSmall() {
        #expect(Self.code(Self.attribute(.integer16), 70_000) == .numberTooLarge)
        #expect(Self.code(Self.attribute(.integer16), -40_000) == .numberTooSmall)
        #expect(Self.code(Self.attribute(.integer16), Int(Int16.max)) == nil)
        #expect(Self.code(Self.attribute(.integer32), Int64(Int32.max) + 1) == .numberTooLarge)
        #expect(Self.code(Self.attribute(.integer64), UInt64.max) == .numberTooLarge)
        #expect(Self.code(Self.attribute(.float), 1e300) == .numberTooLarge)
        #expect(Self.code(Self.attribute(.float), -1e300) == .numberTooSmall)
    }

    @Test func numberBounds() {
        let a = Self.attribute(.integer32, [.minimumValue(1), .maximumValue(10)])
        #expect(Self.code(a, 0) == .numberTooSmall)
        #expect(Self.code(a, 11) == .numberTooLarge)
        #expect(Self.code(a, 1) == nil)
        #expect(Self.code(a, 10) == nil)
        let d = Self.attribute(.double, [.minimumValue(0.5), .maximumValue(.decimal(Decimal(string: "2.5")!))])
        #expect(Self.code(d, 0.25) == .numberTooSmall)
        #expect(Self.code(d, 2.75) == .numberTooLarge)
        #expect(Self.code(d, 2.5) == nil)
        let dec = Self.attribute(.decimal, [.maximumValue(1)])
        #expect(Self.code(dec, Decimal(string: "1.01")!) == .numberTooLarge)
    }

    @Test func dateBounds() {
        let start = Date(timeIntervalSinceReferenceDate: 1000)
        let end = Date(timeIntervalSinceReferenceDate: 2000)
        let a = Self.attribute(.date, [.minimumValue(.date(start)), .maximumValue(.date(end))])
        #expect(Self.code(a, Date(timeIntervalSinceReferenceDate: 999)) == .dateTooSoon)
        #expect(Self.code(a, Date(timeIntervalSinceReferenceDate: 2001)) == .dateTooLate)
        #expect(Self.code(a, Date(timeIntervalSinceReferenceDate: 1500)) == nil)
        // Xcode writes date bounds as seconds since 2001.
        let numeric = Self.attribute(.date, [.maximumValue(.double(2000))])
        #expect(Self.code(numeric, Date(timeIntervalSinceReferenceDate: 2001)) == .dateTooLate)
        #expect(Self.code(Self.attribute(.date), Date(timeIntervalSinceReferenceDate: .infinity)) == .invalidDate)
    }

    @Test func stringLengthCountsCharacters() {
        let a = Self.attribute(.string, [.minimumLength(2), .maximumLength(4)])
        #expect(Self.code(a, "a") == .stringTooShort)
        #expect(Self.code(a, "abcde") == .stringTooLong)
        #expect(Self.code(a, "abcd") == nil)
        #expect(Self.code(a, "👩‍👩‍👧‍👧é") == nil)   // two characters
    }

    @Test func dataLengthCountsBytes() {
        let a = Self.attribute(.binaryData, [.minimumLength(2), .maximumLength(3)])
        #expect(Self.code(a, Data([1])) == .stringTooShort)
        #expect(Self.code(a, Data([1, 2, 3, 4])) == .stringTooLong)
        #expect(Self.code(a, Data([1, 2])) == nil)
    }

    @Test func patternMustMatchWholeString() {
        let a = Self.attribute(.string, [.regularExpression("[a-z]+")])
        #expect(Self.code(a, "abc") == nil)
        #expect(Self.code(a, "abc1") == .stringPatternMatching)
        #expect(Self.code(a, "1abc") == .stringPatternMatching)
        let alternation = Self.attribute(.string, [.regularExpression("a|ab")])
        #expect(Self.code(alternation, "ab") == nil)
        // The rule from a real model file.
        let slug = Self.attribute(.string, [.regularExpression("^[-_A-Za-z0-9]{1,64}$")])
        #expect(Self.code(slug, "my-slug_1") == nil)
        #expect(Self.code(slug, "no spaces") == .stringPatternMatching)
    }

    @Test func invalidPatternIsAnErrorNotACrash() {
        let a = Self.attribute(.string, [.regularExpression("([a-z")])
        #expect(Self.code(a, "abc") == .managedObjectValidation)
    }

    @Test func invalidURI() {
        #expect(Self.code(Self.attribute(.uri), "http://exa mple.org/%%") == .invalidURI)
    }

    @Test func severalFailuresAreCollected() throws {
        let a = Self.attribute(.string, [.maximumLength(2), .regularExpression("[0-9]+")])
        #expect(a.validationErrors(for: "abc").map(\.code) == [.stringTooLong, .stringPatternMatching])
        let error = try #require(throws: ManagedObjectValidationError.self) { try a.validate("abc") }
        #expect(error.code == .multipleErrors)
        #expect(error.code.rawValue == 1560)
        #expect(error.underlyingErrors.map(\.code) == [.stringTooLong, .stringPatternMatching])
        #expect(error.errors.count == 2)
        #expect(ManagedObjectValidationError.combining([]) == nil)
        let one = ManagedObjectValidationError(.stringTooLong, key: "k")
        #expect(ManagedObjectValidationError.combining([one]) == one)
        let nested = try #require(ManagedObjectValidationError.combining([error, one]))
        #expect(nested.underlyingErrors.count == 3)
    }
}
