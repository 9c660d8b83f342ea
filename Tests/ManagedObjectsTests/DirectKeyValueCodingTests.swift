import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
import UndoManagement
@testable import ManagedObjects

// `value(forKey:)` and `setValue(_:forKey:)` called on a managed object's own type go straight
// to its entity's key table; generic code reaches the protocol's implementation. Both must give
// the same answers, the same errors and the same side effects, and both must reach a subclass's
// undefined-key and nil hooks.

/// A subclass answering keys its entity does not have.
final class UndefinedKeySample: ManagedObject {
    override class var entityName: String { "Sample" }
    @Managed var ratio: Double
    override func value(forUndefinedKey key: String) throws -> Any? { "extra \(key)" }
    override func setValue(_ value: Any?, forUndefinedKey key: String) throws {
        throw SampleRefusal(key: key)
    }
}

/// What ``UndefinedKeySample``'s hooks throw.
struct SampleRefusal: Error, Equatable {
    let key: String
}

/// The protocol's `value(forKey:)`, as generic code calls it.
private func protocolValue<Object: KeyValueCodable>(_ object: Object, _ key: String) throws -> Any? {
    try object.value(forKey: key)
}

/// The protocol's `setValue(_:forKey:)`, as generic code calls it.
private func protocolSetValue<Object: KeyValueCodable>(_ object: Object, _ value: Any?, _ key: String) throws {
    try object.setValue(value, forKey: key)
}

/// The error `body` throws, if any.
private func thrownError(_ body: () throws -> Void) -> (any Error)? {
    do { try body() } catch { return error }
    return nil
}

@Suite struct DirectKeyValueCodingTests {
    @Test(arguments: [false, true])
    func readsMatchTheProtocolsForEveryAttributeType(bound: Bool) throws {
        let object: ManagedObject = bound ? try SlotSample(in: SlotSampleModel.bound())
            : try ManagedObject(entityName: "Sample", in: SlotSampleModel.unbound())
        for (key, value) in SlotSampleModel.values {
            #expect(try object.value(forKey: key) == nil || bound, "\(key) starts empty")
            try object.setValue(value, forKey: key)
            let direct = try object.value(forKey: key)
            #expect(SlotSampleModel.same(direct, value), "\(key): \(String(describing: direct))")
            #expect(SlotSampleModel.same(try protocolValue(object, key), value), "\(key) through the protocol")
        }
    }

    /// A read by key of an attribute kept in the value array skips the call through the key's
    /// property: what it returns is still exactly what the property reads, for every type and
    /// for `nil`, in a plain and in a bound (`@Managed` field) class.
    @Test(arguments: [false, true])
    func readsByKeyAreWhatTheKeysPropertyReads(bound: Bool) throws {
        let object: ManagedObject = bound ? try SlotSample(in: SlotSampleModel.bound())
            : try ManagedObject(entityName: "Sample", in: SlotSampleModel.unbound())
        let table = object.layout.keyTable
        for (key, value) in SlotSampleModel.values {
            let property = try #require(table.unmanagedProperty(forKey: key)?.takeUnretainedValue())
            if !bound {
                #expect(try object.value(forKey: key) == nil && property.value(of: object) == nil, "\(key) empty")
            }
            try object.setValue(value, forKey: key)
            #expect(SlotSampleModel.same(try object.value(forKey: key), value), "\(key)")
            #expect(SlotSampleModel.same(property.value(of: object), value), "\(key) through its property")
        }
    }

    @Test func storesConvertAndRefuseAsTheProtocolDoes() throws {
        let model = SlotSampleModel.unbound()
        let direct = try ManagedObject(entityName: "Sample", in: model)
        let generic = try ManagedObject(entityName: "Sample", in: model)
        // A number of another type is converted.
        try direct.setValue(7, forKey: "small")
        try protocolSetValue(generic, 7, "small")
        #expect(try direct.value(forKey: "small") as? Int16 == 7)
        #expect(try protocolValue(generic, "small") as? Int16 == 7)
        // A wrong type and an undefined key throw the same errors.
        let wrongDirect = thrownError { try direct.setValue("seven", forKey: "small") }
        let wrongGeneric = thrownError { try protocolSetValue(generic, "seven", "small") }
        #expect(wrongDirect != nil)
        #expect(String(describing: wrongDirect) == String(describing: wrongGeneric))
        let undefinedRead = thrownError { _ = try direct.value(forKey: "colour") } as? KeyValueCodingError
        #expect(undefinedRead == .undefinedProperty("colour", entity: "Sample", properties: direct.entity.allProperties.map(\.name)))
        let undefinedGenericRead = thrownError { _ = try protocolValue(generic, "colour") } as? KeyValueCodingError
        #expect(undefinedRead == undefinedGenericRead)
        let undefinedWrite = thrownError { try direct.setValue(1, forKey: "colour") } as? KeyValueCodingError
        #expect(undefinedWrite == undefinedRead)
        // `nil` empties an optional attribute.
        try direct.setValue(nil, forKey: "small")
        #expect(try direct.value(forKey: "small") == nil)
    }

    @Test func selfAndDescriptionAnswerAsOnAnyObject() throws {
        let object = try ManagedObject(entityName: "Sample", in: SlotSampleModel.unbound())
        #expect(try object.value(forKey: "self") as? ManagedObject === object)
        #expect(try object.value(forKey: "description") as? String == String(describing: object))
        #expect(try object.value(forKey: "description") as? String == protocolValue(object, "description") as? String)
    }

    @Test func aSubclassesUndefinedKeyAndNilHooksAreReached() throws {
        let model = SlotSampleModel.unbound()
        try model.setManagedObjectClass(UndefinedKeySample.self, forEntityNamed: "Sample")
        let object = try UndefinedKeySample(in: model)
        let asManaged: ManagedObject = object
        #expect(try asManaged.value(forKey: "colour") as? String == "extra colour")
        #expect(try protocolValue(object, "colour") as? String == "extra colour")
        #expect(thrownError { try asManaged.setValue("red", forKey: "colour") } as? SampleRefusal
                    == SampleRefusal(key: "colour"))
        // `nil` into the optional attribute behind a non-optional `@Managed` property: the
        // same outcome both ways.
        let directNil = thrownError { try asManaged.setValue(nil, forKey: "ratio") }
        let directNilValue = try asManaged.value(forKey: "ratio")
        let genericNil = thrownError { try protocolSetValue(object, nil, "ratio") }
        #expect(String(describing: directNil) == String(describing: genericNil))
        #expect(String(describing: directNilValue) == String(describing: try protocolValue(object, "ratio")))
        // Keys the entity has still go to the key table.
        try asManaged.setValue(2.5, forKey: "ratio")
        #expect(object.ratio == 2.5)
    }

    @Test func aStoreInAContextIsTrackedObservedAndUndoable() throws {
        let model = SlotSampleModel.unbound()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoHistory()
        let object = try context.insertNewObject(forEntityNamed: "Sample")
        try object.setValue(0.5, forKey: "ratio")
        try context.save()
        #expect(!object.hasChanges)

        var changes: [KeyValueChange] = []
        let observation = try object.observe("ratio", options: [.old, .new]) { _, change in changes.append(change) }
        try object.setValue(0.75, forKey: "ratio")
        context.processPendingChanges()
        #expect(object.isUpdated)
        #expect(object.changedValues()["ratio"] as? Double == 0.75)
        #expect(changes.count == 1)
        #expect(changes.first?.oldValue as? Double == 0.5)
        #expect(changes.first?.newValue as? Double == 0.75)
        try context.undoManager?.undo()
        #expect(try object.value(forKey: "ratio") as? Double == 0.5)
        observation.invalidate()
    }
}
