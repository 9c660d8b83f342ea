// Transient attributes of objects loaded from a store start at their default values
// (trial14 F1): on the in-memory store, the atomic file store and user stores (the SQLite
// store's run is in SQLiteStoreTests).
import Foundation
import ManagedObjects
import Testing
import TestSupport

@Suite struct TransientDefaultTests {
    @Test func fetchedObjectsOfTheInMemoryStoreHoldTransientDefaults() throws {
        let memory = InMemoryStore()
        try TransientDefaults.run(TestStoreFactory("in-memory") { memory })
    }

    @Test func fetchedObjectsOfTheAtomicFileStoreHoldTransientDefaults() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("TransientDefaults-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        try TransientDefaults.run(TestStoreFactory("file") { AtomicFileStore(url: url) })
    }

    @Test(arguments: [false, true]) func fetchedObjectsOfAUserStoreHoldTransientDefaults(answersWithRows: Bool) throws {
        let store = KeyedTestStore(seed: "transient-\(answersWithRows)", answersWithRows: answersWithRows)
        try TransientDefaults.run(TestStoreFactory("keyed") { store })
    }

    @Test func aMergeRefreshKeepsATransientValueAndAChildStartsAtTheDefault() throws {
        let memory = InMemoryStore()
        let factory = TestStoreFactory("in-memory") { memory }
        let coordinator = try factory.coordinator(try TransientDefaults.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let person = try context.insertNewObject(forEntityNamed: "Person")
        try person.setValue("Ann", forKey: "name")
        try context.save()
        try person.setValue(true, forKey: "isDriving")
        // A refresh that keeps the changes keeps the transient value (Apple: transient values
        // survive refresh(_:mergeChanges: true)).
        context.refresh(person, mergeChanges: true)
        #expect(try person.value(forKey: "isDriving") as? Bool == true)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: context)
        let mine = try child.existingObject(with: person.objectID)
        #expect(try mine.value(forKey: "mood") as? String == "calm")
        try mine.setValue("Anne", forKey: "name")
        try child.save()
        try context.save()
    }
}
