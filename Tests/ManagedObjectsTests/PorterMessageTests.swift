import Foundation
import Testing
@testable import ManagedObjects
import KeyValueCoding
import KeyValueObserving

// What a developer porting from Core Data meets first: an unknown key of a managed object, and
// non-optional `Date` and `UUID` properties.

private final class Stamp: ManagedObject {
    @Managed var when: Date
    @Managed var identity: UUID
    @Managed var note: String?
}

@Suite struct PorterMessageTests {
    static func model(optionalDate: Bool = false) -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Stamp", properties: [
                .attribute("when", .date, isOptional: optionalDate),
                .attribute("identity", .uuid, isOptional: false),
                .attribute("note", .string),
            ]),
        ])
    }

    static func error(_ body: () throws -> Void) -> KeyValueCodingError? {
        do { try body() } catch { return error as? KeyValueCodingError }
        return nil
    }

    @Test func anUnknownKeyNamesTheEntityAndTheClosestProperty() throws {
        let object = try ManagedObject(entityName: "Stamp", in: Self.model())
        let properties = ["when", "identity", "note"]
        let read = Self.error { _ = try object.value(forKey: "notes") }
        #expect(read == .undefinedProperty("notes", entity: "Stamp", properties: properties))
        #expect(read?.description == "the entity 'Stamp' has no property 'notes' (did you mean 'note'?)")
        #expect(read?.localizedDescription == read?.description)
        let written = Self.error { try object.setValue(Date(), forKey: "When") }
        #expect(written?.description == "the entity 'Stamp' has no property 'When' (did you mean 'when'?)")
        let primitive = Self.error { try object.setPrimitiveValue(1, forKey: "identitiy") }
        #expect(primitive?.description == "the entity 'Stamp' has no property 'identitiy' (did you mean 'identity'?)")
        let proxy = Self.error { _ = try object.mutableSetValue(forKey: "tags") }
        #expect(proxy == .undefinedProperty("tags", entity: "Stamp", properties: properties))
        // Nothing close: the first properties are listed; never the plain objects' computedKeys advice.
        let far = Self.error { _ = try object.value(forKey: "colour") }
        #expect(far?.description == "the entity 'Stamp' has no property 'colour' (its properties: 'when', 'identity', 'note')")
        #expect(far?.description.contains("computedKeys") == false)
        // NSManagedObject's own properties are Swift properties here, not keys (Porting.md).
        for key in ["objectID", "isDeleted", "isInserted", "entity", "managedObjectContext"] {
            #expect(Self.error { _ = try object.value(forKey: key) } == .undefinedProperty(key, entity: "Stamp", properties: properties))
        }
    }

    @Test func observingAnUnknownKeyNamesTheEntity() throws {
        let object = try ManagedObject(entityName: "Stamp", in: Self.model())
        #expect(throws: KeyValueObservingError.undefinedKey("notes", keyPath: "notes", type: "Stamp")) {
            _ = try object.observe("notes") { _, _ in }
        }
        let token = try object.observe("note") { _, _ in }
        token.invalidate()
    }

    @Test func aLongListOfPropertiesIsCutShort() {
        let names = (1...12).map { "field\($0)" }
        let error = KeyValueCodingError.undefinedProperty("zzz", entity: "Wide", properties: names)
        #expect(error.description == "the entity 'Wide' has no property 'zzz' (its properties: 'field1', 'field2', "
                + "'field3', 'field4', 'field5', 'field6', 'field7', 'field8', …)")
        #expect(KeyValueCodingError.undefinedProperty("a", entity: "Empty", properties: []).description
                == "the entity 'Empty' has no property 'a' (it has no properties)")
    }

    @Test func nonOptionalDateAndUUIDPropertiesReadZeroUntilSet() throws {
        let model = Self.model()
        try model.setManagedObjectClass(Stamp.self, forEntityNamed: "Stamp")
        let stamp = try Stamp(entityName: "Stamp", in: model)
        #expect(stamp.when == Date(timeIntervalSinceReferenceDate: 0))
        #expect(stamp.identity == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
        #expect(try stamp.value(forKey: "when") == nil)   // missing: only the typed read says zero
        let day = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let identity = UUID()
        stamp.when = day
        stamp.identity = identity
        #expect(stamp.when == day)
        #expect(stamp.identity == identity)
        #expect(try stamp.value(forKey: "when") as? Date == day)
        #expect(try stamp.value(forKey: "identity") as? UUID == identity)
        try stamp.setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "when")
        #expect(stamp.when == Date(timeIntervalSinceReferenceDate: 5))
    }

    @Test func aNonOptionalDateNeedsANonOptionalAttribute() throws {
        let error = try #require(throws: ManagedObjectModelError.self) {
            try Self.model(optionalDate: true).setManagedObjectClass(Stamp.self, forEntityNamed: "Stamp")
        }
        #expect("\(error)".contains("@Managed var when: Date"))
        #expect("\(error)".contains("use Date?"))
    }
}
