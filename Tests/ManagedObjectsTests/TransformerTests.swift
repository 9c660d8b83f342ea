import Foundation
import Testing
@testable import ManagedObjects

@Suite struct TransformerTests {
    static let secure = SecureUnarchiveTransformer()

    static func fixture(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/archives/\(name).bplist")
        return try Data(contentsOf: url)
    }

    static func roundTrip(_ value: Any) throws -> Any {
        try secure.reverseTransformedValue(try secure.transformedValue(value))
    }

    @Test func defaultIsRegisteredUnderApplesName() throws {
        #expect(AttributeDescription.secureUnarchiveTransformerName == "NSSecureUnarchiveFromData")
        #expect(AttributeValueTransformers.transformer(named: "NSSecureUnarchiveFromData") is SecureUnarchiveTransformer)
        let attribute = AttributeDescription(name: "tags", type: .transformable)
        #expect(try attribute.valueTransformer() is SecureUnarchiveTransformer)
    }

    @Test func roundTripsPlistLikeValues() throws {
        #expect(try Self.roundTrip("héllo") as? String == "héllo")
        #expect(try Self.roundTrip(42) as? Int == 42)
        #expect(try Self.roundTrip(true) as? Bool == true)
        #expect(try Self.roundTrip(2.5) as? Double == 2.5)
        #expect(try Self.roundTrip(UInt64.max) as? UInt64 == UInt64.max)
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        #expect(try Self.roundTrip(date) as? Date == date)
        #expect(try Self.roundTrip(Data([0, 1, 255])) as? Data == Data([0, 1, 255]))
        let url = try #require(URL(string: "https://example.org/a?b=c"))
        #expect(try Self.roundTrip(url) as? URL == url)
        let uuid = UUID()
        #expect(try Self.roundTrip(uuid) as? UUID == uuid)
        #expect(try Self.roundTrip(NSNull()) is NSNull)
        let nested = try #require(try Self.roundTrip(["a": [1, 2], "b": ["x": "y"]] as [String: Any]) as? [AnyHashable: Any])
        #expect(nested["a"] as? [Any] != nil)
        #expect((nested["a"] as? [Any])?.compactMap { $0 as? Int } == [1, 2])
        #expect((nested["b"] as? [AnyHashable: Any])?["x"] as? String == "y")
        #expect(try Self.roundTrip(Set(["p", "q"])) as? Set<AnyHashable> == Set(["p", "q"]))
        #expect(try Self.roundTrip(NSArray(array: [1, "two"])) as? [Any] != nil)
    }

    @Test func unarchivesArchivesWrittenByApplePlatforms() throws {
        #expect(try Self.secure.reverseTransformedValue(Self.fixture("string")) as? String == "com.apple.Dataclass.Notes")
        #expect(try Self.secure.reverseTransformedValue(Self.fixture("number")) as? Int == 443)
        #expect(try Self.secure.reverseTransformedValue(Self.fixture("bool")) as? Bool == true)
        let date = try #require(try Self.secure.reverseTransformedValue(Self.fixture("date")) as? Date)
        #expect(abs(date.timeIntervalSinceReferenceDate - 606539548.962597) < 0.001)
        let set = try Self.secure.reverseTransformedValue(Self.fixture("set")) as? Set<AnyHashable>
        #expect(set == Set([1, 2, 4, 5, 6].map(AnyHashable.init)))
    }

    struct Opaque { var x = 1 }
    final class Custom {}

    @Test func valuesOutsideTheAllowedClassesAreErrorsNotCrashes() throws {
        for value in [Opaque() as Any, Custom(), [Opaque()], ["k": Custom()], Decimal(1), [1: [Opaque()]]] {
            #expect(throws: AttributeValueTransformerError.self) { try Self.secure.transformedValue(value) }
        }
        let attribute = AttributeDescription(name: "payload", type: .transformable)
        let error = try #require(throws: AttributeValueTransformerError.self) {
            try attribute.transformedData(for: Opaque(), entity: "Note")
        }
        #expect(error.attribute == "payload")
        #expect(error.entity == "Note")
        #expect(error.transformerName == "NSSecureUnarchiveFromData")
        #expect(error.errorDescription?.contains("Note.payload") == true)
        #expect(error.errorDescription?.contains("Opaque") == true)
    }

    @Test func archivesNamingOtherClassesAreRefusedBeforeDecoding() throws {
        // An archive naming a class outside the allowed list (the unarchiver would stop the
        // process on it): the class table is checked first.
        var plist = try #require(try PropertyListSerialization.propertyList(from: Self.fixture("date"), format: nil) as? [String: Any])
        var objects = try #require(plist["$objects"] as? [Any])
        objects[2] = ["$classname": "Color", "$classes": ["Color", "NSObject"]]
        plist["$objects"] = objects
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let error = try #require(throws: AttributeValueTransformerError.self) { try Self.secure.reverseTransformedValue(data) }
        #expect(error.code == .disallowedClass("Color"))
    }

    @Test func garbageIsUnreadableData() {
        for data in [Data(), Data([1, 2, 3]), Data("bplist00".utf8), Data("<plist><dict/></plist>".utf8)] {
            #expect(throws: AttributeValueTransformerError.self) { try Self.secure.reverseTransformedValue(data) }
        }
    }

    @Test func unknownTransformerNameIsAClearError() throws {
        var attribute = AttributeDescription(name: "color", type: .transformable)
        attribute.valueTransformerName = "ColorToDataTransformer"
        let error = try #require(throws: AttributeValueTransformerError.self) { try attribute.valueTransformer() }
        #expect(error.code == .unknownTransformer("ColorToDataTransformer"))
        #expect(error.errorDescription?.contains("ColorToDataTransformer") == true)
        #expect(error.attribute == "color")
        let plain = AttributeDescription(name: "n", type: .string)
        #expect(throws: AttributeValueTransformerError.self) { try plain.valueTransformer() }
    }

    struct Palette: Codable, Sendable, Equatable { var colors: [String] }

    @Test func registryAndCodableTransformer() throws {
        let name = "TransformerTests.Palette"
        AttributeValueTransformers.register(CodableValueTransformer<Palette>(), named: name)
        defer { AttributeValueTransformers.unregister(named: name) }
        #expect(AttributeValueTransformers.registeredNames.contains(name))
        var attribute = AttributeDescription(name: "palette", type: .transformable)
        attribute.valueTransformerName = name
        let palette = Palette(colors: ["red", "blue"])
        let data = try attribute.transformedData(for: palette)
        #expect(String(decoding: data, as: UTF8.self) == #"{"colors":["red","blue"]}"#)
        #expect(try attribute.value(fromTransformedData: data) as? Palette == palette)
        #expect(throws: AttributeValueTransformerError.self) { try attribute.transformedData(for: "not a palette") }
        #expect(throws: AttributeValueTransformerError.self) { try attribute.value(fromTransformedData: Data("{}".utf8)) }
        let plist = CodableValueTransformer<Palette>(format: .propertyList)
        #expect(try plist.reverseTransformedValue(plist.transformedValue(palette)) as? Palette == palette)
    }

    @Test func registryIsThreadSafe() async {
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                group.addTask {
                    let name = "TransformerTests.concurrent.\(i % 5)"
                    AttributeValueTransformers.register(CodableValueTransformer<Palette>(), named: name)
                    _ = AttributeValueTransformers.transformer(named: name)
                    _ = AttributeValueTransformers.registeredNames
                }
            }
        }
        for i in 0..<5 {
            #expect(AttributeValueTransformers.transformer(named: "TransformerTests.concurrent.\(i)") != nil)
            AttributeValueTransformers.unregister(named: "TransformerTests.concurrent.\(i)")
        }
    }

    /// A small fixed-seed generator (SplitMix64), so the mutations are the same on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func mutatedArchivesAreErrorsOrValuesNeverCrashes() throws {
        var generator = SeededGenerator(state: 12)
        let originals = try ["string", "number", "bool", "date", "set"].map(Self.fixture)
            + [try Self.secure.transformedValue(["a": [1, 2.5, "x"], "b": Set([1, 2])] as [String: Any])]
        for _ in 0..<10_000 {
            var data = originals.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<data.count, using: &generator)
                data[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? Self.secure.reverseTransformedValue(data)
        }
    }

    static func xmlArchive(_ objects: [Any]) throws -> Data {
        let plist: [String: Any] = [
            "$archiver": "NSKeyedArchiver", "$version": 100000,
            "$top": ["root": ["CF$UID": 1]], "$objects": objects,
        ]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    }

    @Test func xmlArchivesAndHostileReferences() throws {
        let array = try Self.xmlArchive([
            "$null", ["$class": ["CF$UID": 3], "NS.objects": [["CF$UID": 2]]], "inside",
            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ])
        #expect((try Self.secure.reverseTransformedValue(array) as? [Any])?.first as? String == "inside")
        // An array that holds itself: refused, not followed forever.
        let cycle = try Self.xmlArchive([
            "$null", ["$class": ["CF$UID": 2], "NS.objects": [["CF$UID": 1]]],
            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ])
        #expect(throws: AttributeValueTransformerError.self) { try Self.secure.reverseTransformedValue(cycle) }
        // A reference past the end of the object table.
        let outside = try Self.xmlArchive(["$null", ["$class": ["CF$UID": 9]]])
        #expect(throws: AttributeValueTransformerError.self) { try Self.secure.reverseTransformedValue(outside) }
    }
}
