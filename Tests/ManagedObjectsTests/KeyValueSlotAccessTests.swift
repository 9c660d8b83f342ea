import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

// Key-value coding by string key on managed objects, for every plain attribute type, on generic
// objects (values in the object's value array) and on a bound subclass (values in `@Managed`
// storage): what `value(forKey:)` answers, what `setValue(_:forKey:)` accepts, converts and
// refuses (naming the key), faults, observers and Swift's Observation.

/// Every plain attribute type as a `@Managed` property.
final class SlotSample: ManagedObject {
    override class var entityName: String { "Sample" }
    @Managed var small: Int16
    @Managed var medium: Int32
    @Managed var large: Int64
    @Managed var amount: Decimal?
    @Managed var ratio: Double
    @Managed var weight: Float
    @Managed var title: String?
    @Managed var flag: Bool
    @Managed var blob: Data?
    @Managed var identifier: UUID?
    @Managed var link: URL?
}

/// A class that sends the notifications of `large` itself, and whose `small` depends on `ratio`.
final class ManualSlotSample: ManagedObject {
    override class var entityName: String { "Sample" }
    override class func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "large" }
    override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        key == "small" ? ["ratio"] : super.keyPathsForValuesAffectingValue(forKey: key)
    }
}

enum SlotSampleModel {
    static func unbound() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Sample", properties: [
                .attribute("small", .integer16),
                .attribute("medium", .integer32),
                .attribute("large", .integer64),
                .attribute("amount", .decimal),
                .attribute("ratio", .double),
                .attribute("weight", .float),
                .attribute("title", .string),
                .attribute("flag", .boolean),
                .attribute("blob", .binaryData),
                .attribute("identifier", .uuid),
                .attribute("link", .uri),
            ]),
        ])
    }

    static func bound() throws -> ManagedObjectModel {
        let model = unbound()
        try model.setManagedObjectClass(SlotSample.self, forEntityNamed: "Sample")
        return model
    }

    /// One value of each key, of exactly the attribute's Swift type.
    static var values: [(key: String, value: Any)] {
        [
            ("small", Int16(7)), ("medium", Int32(70_000)), ("large", Int64(1) << 40),
            ("amount", Decimal(string: "12.34")!), ("ratio", 0.25), ("weight", Float(1.5)),
            ("title", "Gala"), ("flag", true), ("blob", Data([1, 2, 3])),
            ("identifier", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            ("link", URL(string: "https://example.com/a")!),
        ]
    }

    /// Whether `lhs` is `rhs`'s value of the same type.
    static func same(_ lhs: Any?, _ rhs: Any) -> Bool {
        guard let lhs, type(of: lhs) == type(of: rhs) else { return false }
        return (lhs as? AnyHashable) == (rhs as? AnyHashable)
    }
}

@Suite struct KeyValueSlotAccessTests {
    /// A generic object and an object of the bound class (the two ways slots are held).
    static func objects() throws -> [ManagedObject] {
        [try ManagedObject(entityName: "Sample", in: SlotSampleModel.unbound()),
         try SlotSample(in: SlotSampleModel.bound())]
    }

    @Test func everyPlainTypeReadsBackAsItsSwiftType() throws {
        for object in try Self.objects() {
            for (key, value) in SlotSampleModel.values {
                #expect(try object.value(forKey: key) == nil, "\(key) starts without a value")
                try object.setValue(value, forKey: key)
                let read = try object.value(forKey: key)
                #expect(SlotSampleModel.same(read, value), "\(type(of: object)).\(key): \(String(describing: read))")
                #expect(SlotSampleModel.same(object.primitiveValue(forKey: key), value))
            }
        }
    }

    @Test func typedPropertiesAndStringKeysShareStorage() throws {
        let sample = try SlotSample(in: SlotSampleModel.bound())
        try sample.setValue(Int16(3), forKey: "small")
        try sample.setValue("Fuji", forKey: "title")
        #expect(sample.small == 3 && sample.title == "Fuji")
        sample.ratio = 0.5
        sample.link = URL(string: "https://example.com/b")
        #expect(try sample.value(forKey: "ratio") as? Double == 0.5)
        #expect(try sample.value(forKey: "link") as? URL == URL(string: "https://example.com/b"))
    }

    @Test func numbersAndOptionalsConvertAsKeyValueCodingDoes() throws {
        for object in try Self.objects() {
            try object.setValue(3, forKey: "ratio")                  // Int into Double
            #expect(SlotSampleModel.same(try object.value(forKey: "ratio"), 3.0))
            try object.setValue(20, forKey: "small")                 // Int into Int16
            #expect(SlotSampleModel.same(try object.value(forKey: "small"), Int16(20)))
            try object.setValue(Int16(5), forKey: "large")           // Int16 into Int64
            #expect(SlotSampleModel.same(try object.value(forKey: "large"), Int64(5)))
            try object.setValue(Optional(Float(2.5)) as Any, forKey: "weight")  // an optional inside Any
            #expect(SlotSampleModel.same(try object.value(forKey: "weight"), Float(2.5)))
            try object.setValue(Optional<String>.none as Any, forKey: "title")
            #expect(try object.value(forKey: "title") == nil)
            try object.setValue("Gala", forKey: "title")
            try object.setValue(NSNull(), forKey: "title")           // NSNull is nil
            #expect(try object.value(forKey: "title") == nil)
            try object.setValue(nil, forKey: "ratio")
            #expect(try object.value(forKey: "ratio") == nil)
            #expect(throws: KeyValueCodingError.self, "an optional of another type is not unwrapped") {
                try object.setValue(Optional(2.5) as Any, forKey: "weight")
            }
        }
    }

    @Test func wrongTypesThrowNamingTheKeyAndKeepTheValue() throws {
        for object in try Self.objects() {
            try object.setValue(12, forKey: "small")
            #expect {
                try object.setValue("many", forKey: "small")
            } throws: { error in
                guard case .typeMismatch(let key, _, _, _) = error as? KeyValueCodingError else { return false }
                return key == "small"
            }
            #expect {
                try object.setValue(70_000, forKey: "small")
            } throws: { error in
                guard case .valueOutOfRange(let key, _, _) = error as? KeyValueCodingError else { return false }
                return key == "small"
            }
            #expect {
                try object.setValue(Data([1]), forKey: "title")
            } throws: { error in
                guard case .typeMismatch(let key, _, _, _) = error as? KeyValueCodingError else { return false }
                return key == "title"
            }
            #expect(SlotSampleModel.same(try object.value(forKey: "small"), Int16(12)))
            #expect(try object.value(forKey: "title") == nil)
            #expect(throws: KeyValueCodingError.self) { try object.value(forKey: "colour") }
        }
    }

    @Test func refusedValuesAreNotAnnounced() throws {
        for object in try Self.objects() {
            let recorder = ChangeRecorder()
            try object.addObserver(recorder, forKeyPath: "small", options: [.new])
            #expect(throws: KeyValueCodingError.self) { try object.setValue("many", forKey: "small") }
            #expect(recorder.count == 0)
            try object.setValue(4, forKey: "small")
            #expect(recorder.records.map { $0.change.newValue as? Int16 } == [4])
            try object.removeObserver(recorder, forKeyPath: "small")
        }
    }

    @Test func keysNotNotifiedAutomaticallyStoreSilentlyByStringKey() throws {
        let model = SlotSampleModel.unbound()
        try model.setManagedObjectClass(ManualSlotSample.self, forEntityNamed: "Sample")
        let sample = try ManualSlotSample(in: model)
        let recorder = ChangeRecorder()
        try sample.addObserver(recorder, forKeyPath: "large", options: [.new])
        try sample.setValue(5, forKey: "large")
        #expect(recorder.count == 0)
        #expect(try sample.value(forKey: "large") as? Int64 == 5)
        sample.willChangeValue(forKey: "large")
        try sample.setValue(6, forKey: "large")
        sample.didChangeValue(forKey: "large")
        #expect(recorder.records.map { $0.change.newValue as? Int64 } == [6])
        try sample.removeObserver(recorder, forKeyPath: "large")
    }

    @Test func dependentKeysHearStoresByStringKey() throws {
        let model = SlotSampleModel.unbound()
        try model.setManagedObjectClass(ManualSlotSample.self, forEntityNamed: "Sample")
        let sample = try ManualSlotSample(in: model)
        try sample.setValue(3, forKey: "small")
        let recorder = ChangeRecorder()
        try sample.addObserver(recorder, forKeyPath: "small", options: [.old, .new])
        try sample.setValue(0.5, forKey: "ratio")
        #expect(recorder.count == 1, "a store of ratio is a change of small")
        #expect(recorder.records.first?.change.newValue as? Int16 == 3)
        try sample.removeObserver(recorder, forKeyPath: "small")
    }

    @Test func faultsFireOnStringKeyReadsAndStores() throws {
        for bound in [false, true] {
            let model = bound ? try SlotSampleModel.bound() : SlotSampleModel.unbound()
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(InMemoryStore())
            let context = ManagedObjectContext(coordinator: coordinator)
            let inserted = try context.insertNewObject(forEntityNamed: "Sample")
            try inserted.setValue(0.75, forKey: "ratio")
            try inserted.setValue("Gala", forKey: "title")
            try context.save()
            let id = inserted.objectID

            let reader = ManagedObjectContext(coordinator: coordinator)
            let fault = try reader.existingObject(with: id)
            reader.refresh(fault, mergeChanges: false)
            #expect(fault.isFault)
            #expect(try fault.value(forKey: "ratio") as? Double == 0.75)
            #expect(!fault.isFault)

            reader.refresh(fault, mergeChanges: false)
            #expect(fault.isFault)
            try fault.setValue("Fuji", forKey: "title")
            #expect(!fault.isFault)
            #expect(try fault.value(forKey: "ratio") as? Double == 0.75, "the store did not overwrite the loaded values")
            #expect(try fault.value(forKey: "title") as? String == "Fuji")
            #expect(fault.changedValues().keys.sorted() == ["title"])
        }
    }

    @Test func observationTrackingSeesTypedReadsAfterUntrackedOnes() throws {
        let sample = try SlotSample(in: SlotSampleModel.bound())
        // Reads outside tracking (the first one makes the object's registrar).
        _ = sample.ratio
        _ = sample.title
        let fired = ChangeRecorder()
        withObservationTracking { _ = sample.ratio } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        sample.title = "Gala"
        #expect(fired.count == 0, "a property not read does not fire")
        try sample.setValue(0.5, forKey: "ratio")
        #expect(fired.count == 1, "a store by string key fires")
        // A second object read in the same scope: a store into either fires once.
        let other = try SlotSample(in: SlotSampleModel.bound())
        withObservationTracking {
            _ = sample.small
            _ = other.small
        } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        other.small = 2
        #expect(fired.count == 2)
        sample.small = 3
        #expect(fired.count == 2, "tracking is one-shot")
    }

    @Test func observationTrackingSeesTheFirstReadOfAnObject() throws {
        let sample = try SlotSample(in: SlotSampleModel.bound())
        let fired = ChangeRecorder()
        // The object has no registrar yet: the read inside the scope makes it.
        withObservationTracking { _ = sample.weight } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        sample.weight = 2
        #expect(fired.count == 1)
    }
}
