import Foundation
import Testing
@testable import ManagedObjects

/// A class bound to the fixture's "Crate" entity by one test only.
private final class LateBoundCrate: ManagedObject {
    override class var entityName: String { "Crate" }
}

/// The model remembers the layout it made an object with last and hands it to the next
/// creation of the same entity and class without its lock (`ManagedObjectModel.lastCreation`):
/// every creation must still get its own entity's layout, under the model's current entities
/// and class bindings, from any thread.
@Suite struct CreationLayoutCacheTests {
    @Test func alternatingEntitiesGetTheirOwnLayouts() throws {
        let model = TypedFixtures.unboundModel()
        var stands: [ManagedObject] = []
        var crates: [ManagedObject] = []
        for round in 0..<6 {
            let kinds = round % 2 == 0 ? ["Stand", "Stand", "Crate"] : ["Crate", "Stand", "Crate"]
            for kind in kinds {
                let object = try ManagedObject(entityName: kind, in: model)
                #expect(object.entity.name == kind)
                (kind == "Stand" ? { stands.append(object) } : { crates.append(object) })()
            }
        }
        // One layout per entity and class, shared by every object made of it.
        #expect(stands.allSatisfy { $0.layout === stands[0].layout })
        #expect(crates.allSatisfy { $0.layout === crates[0].layout })
        #expect(stands[0].layout !== crates[0].layout)
        #expect(try crates.last!.value(forKey: "capacity") as? Int16 == 12, "the crate's default")
        #expect(throws: (any Error).self) { try stands.last!.value(forKey: "capacity") }
    }

    @Test func changedEntitiesAreSeenByTheNextCreation() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("text", .string)]),
        ])
        let before = try ManagedObject(entityName: "Note", in: model)
        _ = try ManagedObject(entityName: "Note", in: model)
        try model.setEntities([
            EntityDescription(name: "Note", properties: [.attribute("text", .string), .attribute("pages", .integer32, defaultValue: 4)]),
        ])
        let after = try ManagedObject(entityName: "Note", in: model)
        #expect(after.entity.allProperties.map(\.name) == ["text", "pages"])
        #expect(try after.value(forKey: "pages") as? Int32 == 4)
        #expect(after.layout !== before.layout)
        // The object made before keeps the entity it was made with.
        #expect(before.entity.allProperties.map(\.name) == ["text"])
        #expect(try ManagedObject(entityName: "Note", in: model).layout === after.layout)
    }

    @Test func aClassBoundAfterCreationsIsTheOneMadeNext() throws {
        let model = TypedFixtures.unboundModel()
        let plain = try ManagedObject(entityName: "Crate", in: model)
        try model.setManagedObjectClass(LateBoundCrate.self, forEntityNamed: "Crate")
        let context = ManagedObjectContext(model: model)
        let inserted = try context.insertNewObject(forEntityNamed: "Crate")
        #expect(inserted is LateBoundCrate)
        #expect(inserted.layout !== plain.layout && inserted.layout.objectClass == LateBoundCrate.self)
        #expect(throws: ManagedObjectModelError.self) { try ManagedObject(entityName: "Crate", in: model) }
    }

    @Test func creationsOnManyThreadsGetTheirOwnEntities() async throws {
        let model = TypedFixtures.unboundModel()
        let kinds = ["Stand", "Crate", "Apple", "Orange"]
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        let kind = kinds[(worker + round) % kinds.count]
                        guard let object = try? ManagedObject(entityName: kind, in: model) else { wrong += 1; continue }
                        if object.entity.name != kind || object.layout.entity.name != kind { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
