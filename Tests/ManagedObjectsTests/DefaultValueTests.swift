import Foundation
import Predicates
import Testing
@testable import ManagedObjects

@Suite struct DefaultValueTests {
    static func build(_ attribute: AttributeDescription) throws(ManagedObjectModelError) -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Thing", properties: [.attribute(attribute)])])
    }

    static func invalid(_ attribute: AttributeDescription) -> ManagedObjectModelError? {
        do { _ = try build(attribute); return nil } catch { return error }
    }

    @Test func defaultsBecomeTheAttributesSwiftType() throws {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        let uuid = UUID()
        let cases: [(AttributeDescription.AttributeType, KeyValueConstant, (Any?) -> Bool)] = [
            (.integer16, 12, { $0 as? Int16 == 12 }),
            (.integer32, 12, { $0 as? Int32 == 12 }),
            (.integer64, 12, { $0 as? Int64 == 12 }),
            (.decimal, .double(1.5), { $0 as? Decimal == Decimal(1.5) }),
            (.double, 2, { $0 as? Double == 2 }),
            (.float, .double(0.5), { $0 as? Float == 0.5 }),
            (.string, "hi", { $0 as? String == "hi" }),
            (.boolean, true, { $0 as? Bool == true }),
            (.boolean, 0, { $0 as? Bool == false }),
            (.date, .date(date), { $0 as? Date == date }),
            (.date, .double(100), { $0 as? Date == date }),
            (.binaryData, .data(Data([1, 2])), { $0 as? Data == Data([1, 2]) }),
            (.uuid, .uuid(uuid), { $0 as? UUID == uuid }),
            (.uuid, .string(uuid.uuidString), { $0 as? UUID == uuid }),
            (.uri, "https://example.org/a", { $0 as? URL == URL(string: "https://example.org/a") }),
        ]
        for (type, constant, check) in cases {
            let attribute = AttributeDescription(name: "a", type: type, defaultValue: constant)
            #expect(check(attribute.defaultValueForNewObject), "\(type) \(constant)")
            #expect(Self.invalid(attribute) == nil, "\(type) \(constant)")
        }
        #expect(AttributeDescription(name: "a", type: .string).defaultValueForNewObject == nil)
    }

    @Test(arguments: [
        (AttributeDescription.AttributeType.integer16, KeyValueConstant.string("12")),
        (.integer16, .integer(70_000)), (.integer32, .double(1.5)), (.boolean, .string("YES")),
        (.string, .integer(1)), (.date, .string("today")), (.uuid, .string("nope")),
        (.float, .double(1e300)), (.binaryData, .string("x")),
    ])
    func defaultsThatDoNotFitAreRejected(type: AttributeDescription.AttributeType, constant: KeyValueConstant) throws {
        let error = try #require(Self.invalid(AttributeDescription(name: "a", type: type, defaultValue: constant)))
        guard case .invalidValue = error.code else { Issue.record("wrong code \(error.code)"); return }
        #expect(error.entity == "Thing")
        #expect(error.property == "a")
    }

    static func rules(_ type: AttributeDescription.AttributeType, _ rules: [AttributeValidationRule]) -> AttributeDescription {
        var a = AttributeDescription(name: "a", type: type)
        a.validationRules = rules
        return a
    }

    @Test func boundsThatDoNotFitAreRejected() {
        let bad: [AttributeDescription] = [
            Self.rules(.integer16, [.maximumValue(70_000)]),
            Self.rules(.integer16, [.minimumValue("1")]),
            Self.rules(.string, [.minimumValue(1)]),
            Self.rules(.integer32, [.minimumLength(1)]),
            Self.rules(.string, [.maximumLength(-1)]),
            Self.rules(.integer32, [.regularExpression("[0-9]+")]),
            Self.rules(.string, [.regularExpression("([a-z")]),
            Self.rules(.integer32, [.minimumValue(10), .maximumValue(5)]),
            Self.rules(.string, [.minimumLength(5), .maximumLength(2)]),
            Self.rules(.date, [.minimumValue("soon")]),
        ]
        for attribute in bad {
            let error = Self.invalid(attribute)
            if case .invalidValue = error?.code {} else { Issue.record("accepted \(attribute.validationRules)") }
            #expect(error?.property == "a")
        }
        let good: [AttributeDescription] = [
            Self.rules(.integer16, [.minimumValue(-5), .maximumValue(5)]),
            Self.rules(.double, [.minimumValue(.double(0.5))]),
            Self.rules(.string, [.minimumLength(1), .maximumLength(64), .regularExpression("^[-_A-Za-z0-9]{1,64}$")]),
            Self.rules(.binaryData, [.maximumLength(10)]),
            Self.rules(.date, [.minimumValue(.double(0)), .maximumValue(.date(Date()))]),
        ]
        for attribute in good { #expect(Self.invalid(attribute) == nil, "\(attribute.validationRules)") }
    }

    @Test func unparsableDerivationIsInvalidPredicate() throws {
        var a = AttributeDescription(name: "a", type: .string)
        a.derivationExpression = "title =="
        let error = try #require(Self.invalid(a))
        guard case .invalidPredicate(let message) = error.code else { Issue.record("wrong code \(error.code)"); return }
        #expect(!message.isEmpty)
        #expect(error.property == "a")
        a.derivationExpression = "frobnicate:(title)"
        #expect(Self.invalid(a) != nil)
    }
}

@Suite struct ModelTextTests {
    typealias AttributeType = AttributeDescription.AttributeType

    @Test func xcodeTextBecomesConstantsTheModelAccepts() throws {
        let cases: [(AttributeType, String, KeyValueConstant)] = [
            (.integer16, "-1", .integer(-1)), (.integer64, "100", .integer(100)),
            (.decimal, "0.0", .decimal(0)), (.double, "0.5", .double(0.5)), (.float, "0", .double(0)),
            (.boolean, "NO", .bool(false)), (.boolean, "YES", .bool(true)),
            (.string, "Set From Core Data Model Editor", "Set From Core Data Model Editor"),
            (.date, "100", .date(Date(timeIntervalSinceReferenceDate: 100))),
        ]
        for (type, text, expected) in cases {
            let constant = try #require(type.modelConstant(fromText: text), "\(type) \(text)")
            #expect(constant == expected, "\(type) \(text)")
            _ = try ManagedObjectModel(entities: [EntityDescription(name: "E", properties: [
                .attribute(AttributeDescription(name: "a", type: type, defaultValue: constant)),
            ])])
        }
        #expect(AttributeType.integer16.modelConstant(fromText: "70000") == nil)
        #expect(AttributeType.integer16.modelConstant(fromText: "x") == nil)
        #expect(AttributeType.boolean.modelConstant(fromText: "maybe") == nil)
        #expect(AttributeType.uri.modelConstant(fromText: "http://exa mple.org/%%") == nil)
        #expect(AttributeType.uri.modelConstant(fromText: "https://example.org") == "https://example.org")
    }

    @Test func minAndMaxTextAreLengthsForStringsAndValuesForNumbers() {
        #expect(AttributeType.string.validationRules(minimumText: "1", maximumText: "64") == [.minimumLength(1), .maximumLength(64)])
        #expect(AttributeType.integer32.validationRules(minimumText: "0", maximumText: "5") == [.minimumValue(0), .maximumValue(5)])
        #expect(AttributeType.binaryData.validationRules(minimumText: nil, maximumText: "10") == [.maximumLength(10)])
        #expect(AttributeType.string.validationRules(minimumText: "-1", maximumText: nil) == nil)
        #expect(AttributeType.boolean.validationRules(minimumText: "0", maximumText: nil) == nil)
    }
}
