// Shared test bodies: transient attributes of objects loaded from a store start at their
// default values (trial14 F1), run on every store kind.
import Foundation
import ManagedObjects
import Testing

package enum TransientDefaults {
    /// People with a saved name, a required transient flag defaulting to `false` (CoreDataPlus's
    /// `Person.isDriving`) and an optional transient mood defaulting to "calm".
    package static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", properties: [
                .attribute("name", .string, isOptional: false),
                .attribute("isDriving", .boolean, isOptional: false, isTransient: true, defaultValue: false),
                .attribute("mood", .string, isTransient: true, defaultValue: "calm"),
            ]),
        ])
    }

    /// Saves a person through one coordinator, then reads it through another (no cached row):
    /// fetched, faulted and refreshed objects hold the transient defaults, and a change to a
    /// fetched person saves (the required transient is not missing).
    package static func run(_ factory: TestStoreFactory) throws {
        let model = try model()
        let writer = ManagedObjectContext(coordinator: try factory.coordinator(model))
        let inserted = try writer.insertNewObject(forEntityNamed: "Person")
        try inserted.setValue("Ann", forKey: "name")
        #expect(try inserted.value(forKey: "isDriving") as? Bool == false, "\(factory)")
        try inserted.setValue(true, forKey: "isDriving")
        try inserted.setValue("cross", forKey: "mood")
        try writer.save()
        let id = inserted.objectID

        let reader = ManagedObjectContext(coordinator: try factory.coordinator(model))
        // Fetched with values.
        let person = try #require(try reader.fetch(EntityFetchRequest(entityName: "Person")).first)
        #expect(try person.value(forKey: "isDriving") as? Bool == false, "\(factory)")
        #expect(try person.value(forKey: "mood") as? String == "calm", "\(factory)")
        try person.setValue("Anne", forKey: "name")
        try reader.save()   // threw 1570 (isDriving missing) before the fix

        // Turned into a fault by a refresh, fired again: the defaults, not the values set.
        try person.setValue(true, forKey: "isDriving")
        try person.setValue(nil, forKey: "mood")
        reader.refresh(person, mergeChanges: false)
        #expect(person.isFault, "\(factory)")
        #expect(try person.value(forKey: "isDriving") as? Bool == false, "\(factory)")
        #expect(try person.value(forKey: "mood") as? String == "calm", "\(factory)")

        // A fault made from the ID in a third context, fired by the first read.
        let third = ManagedObjectContext(coordinator: try factory.coordinator(model))
        let fault = try third.object(with: id)
        #expect(try fault.value(forKey: "isDriving") as? Bool == false, "\(factory)")
        #expect(try fault.value(forKey: "name") as? String == "Anne", "\(factory)")
        // Fetched as faults (no property values), then fired.
        var request = EntityFetchRequest(entityName: "Person")
        request.includesPropertyValues = false
        let fourth = ManagedObjectContext(coordinator: try factory.coordinator(model))
        let unloaded = try #require(try fourth.fetch(request).first)
        #expect(try unloaded.value(forKey: "mood") as? String == "calm", "\(factory)")
        try unloaded.setValue("Annie", forKey: "name")
        try fourth.save()
    }
}
