import Foundation
import Testing
import TestSupport
@testable import ManagedObjects

/// A managed object that goes away drops the slot values it alone holds (destroyed by their own
/// types, ManagedObject's `deinit`), and leaves values it shares (a row cache entry, a copy,
/// another context's object) as they are; reads by key copy values out unchanged.
@Suite struct SlotValuesTeardownTests {
    private final class Payload {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Box", properties: [
            .attribute("payload", .transformable), .attribute("label", .string), .attribute("count", .integer64),
        ])])
    }

    @Test func anObjectAloneReleasesItsValuesOnce() throws {
        let tracker = LifetimeTracker()
        let model = try model()
        do {
            let object = tracker.track(try ManagedObject(entityName: "Box", in: model), "object")
            try object.setValue(tracker.track(Payload(1), "payload"), forKey: "payload")
            try object.setValue(String(repeating: "a label on the heap ", count: 4), forKey: "label")
            try object.setValue(Int64(3), forKey: "count")
            #expect(tracker.survivors == ["object", "payload"])
        }
        tracker.expectAllReleased()
    }

    @Test func sharedValuesOutliveTheObject() throws {
        let tracker = LifetimeTracker()
        let model = try model()
        var kept: ContiguousArray<Any?> = []
        var slot = -1
        do {
            let object = try ManagedObject(entityName: "Box", in: model)
            try object.setValue(tracker.track(Payload(2), "payload"), forKey: "payload")
            try object.setValue("label", forKey: "label")
            slot = try #require(object.layout.slotByName["payload"])
            kept = object.values
        }
        #expect(tracker.survivors == ["payload"], "the copy of the values keeps the payload")
        #expect((kept[slot] as? Payload)?.number == 2)
        #expect(kept.contains { $0 as? String == "label" })
        kept = []
        tracker.expectAllReleased()
    }

    @Test func readsByKeyCopyValuesOut() throws {
        let tracker = LifetimeTracker()
        let model = try model()
        var read: Any?
        do {
            let object = try ManagedObject(entityName: "Box", in: model)
            try object.setValue(tracker.track(Payload(4), "payload"), forKey: "payload")
            try object.setValue(Int64(9), forKey: "count")
            read = try object.value(forKey: "payload")
            #expect(try object.value(forKey: "count") as? Int64 == 9)
            #expect(try object.value(forKey: "label") == nil)
        }
        #expect((read as? Payload)?.number == 4, "the value read outlives its object")
        read = nil
        tracker.expectAllReleased()
    }

    @Test func objectsOfASaveAndAFetchShareTheirRowsSafely() throws {
        let tracker = LifetimeTracker()
        let model = try model()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            for number in 0..<20 {
                let box = try context.insertNewObject(forEntityNamed: "Box")
                try box.setValue(Int64(number), forKey: "count")
                try box.setValue(String(repeating: "box \(number) ", count: 5), forKey: "label")
            }
            try context.save()
        }
        // Each context's objects go away in turn; the rows they read stay readable.
        for _ in 0..<3 {
            let context = ManagedObjectContext(coordinator: coordinator)
            let boxes = try context.fetch(EntityFetchRequest(entityName: "Box"))
            #expect(boxes.count == 20)
            let counts = try boxes.map { try $0.value(forKey: "count") as? Int64 }.compactMap { $0 }.sorted()
            #expect(counts == (0..<20).map(Int64.init))
            for box in boxes {
                let count = try #require(try box.value(forKey: "count") as? Int64)
                #expect(try box.value(forKey: "label") as? String == String(repeating: "box \(count) ", count: 5))
            }
            tracker.track(context, "context")
        }
        tracker.expectAllReleased()
    }
}
