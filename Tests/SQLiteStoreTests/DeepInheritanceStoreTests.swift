import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A store of a model at the maximum inheritance depth: schema, entity numbers, saves and
/// fetches through the root walk the hierarchy without trouble (trial 11, F2).
@Suite struct DeepInheritanceStoreTests {
    @Test func aChainAtTheMaximumDepthSavesAndFetches() throws {
        let levels = ManagedObjectModel.maximumInheritanceDepth
        let model = try ManagedObjectModel(entities: (0..<levels).map {
            EntityDescription(name: "E\($0)", parent: "E\($0 + 1)", properties: [.attribute("a\($0)", .integer64)])
        } + [EntityDescription(name: "E\(levels)", properties: [.attribute("name", .string)])])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Deep.sqlite")
        do {
            let (_, context) = try openStack(model, at: url)
            let deepest = try context.insertNewObject(forEntityNamed: "E0")
            try deepest.setValue("bottom", forKey: "name")
            try deepest.setValue(Int64(7), forKey: "a0")
            try context.insertNewObject(forEntityNamed: "E\(levels)").setValue("top", forKey: "name")
            try context.save()
        }
        #expect(SQLiteSchema.entityNumbers(for: model)["E0"] == Int64(levels + 1))
        let (_, context) = try openStack(model, at: url)
        let all = try context.fetch(EntityFetchRequest(entityName: "E\(levels)", predicate: try KeyValuePredicate(format: "name BEGINSWITH 'b' OR name == 'top'")))
        #expect(Set(all.compactMap { $0.stored("name") as? String }) == ["bottom", "top"])
        let bottom = try context.fetch(EntityFetchRequest(entityName: "E1", predicate: try KeyValuePredicate(format: "name == %@", "bottom")))
        #expect(bottom.map(\.entity.name) == ["E0"])
    }
}
