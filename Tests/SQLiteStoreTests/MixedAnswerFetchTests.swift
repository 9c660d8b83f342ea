import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// A fresh context making objects from an answer whose rows are of several entities and
/// classes: each object gets its own entity's class and values (the fetch remembers the last
/// class, layout and row shape it used, and must notice every change of them).
@Suite struct MixedAnswerFetchTests {
    /// Its initialiser stores a value: a fetched square still holds its row's values.
    final class Square: ManagedObject {
        required init(entityName: String, in model: ManagedObjectModel) throws(ManagedObjectModelError) {
            try super.init(entityName: entityName, in: model)
            try? setPrimitiveValue("set by init", forKey: "note")
        }
    }

    static func model() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Shape", properties: [.attribute("name", .string), .attribute("size", .integer64),
                                                          .attribute("note", .string, defaultValue: "none")]),
            EntityDescription(name: "Square", parent: "Shape", properties: [.attribute("side", .double)]),
            EntityDescription(name: "Circle", parent: "Shape", properties: [.attribute("radius", .double),
                                                                            .attribute("filled", .boolean)]),
        ])
        try model.setManagedObjectClass(Square.self, forEntityNamed: "Square")
        return model
    }

    @Test func objectsOfEveryEntityGetTheirOwnClassAndValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try Self.model()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(SQLitePersistentStore(url: directory.file("Mixed.sqlite")))
        let writer = ManagedObjectContext(coordinator: coordinator)
        // Interleaved inserts: the table's rows alternate between the three entities.
        for index in 0..<9 {
            let entity = ["Shape", "Square", "Circle"][index % 3]
            let object = try writer.insertNewObject(forEntityNamed: entity)
            try object.setValue("\(entity) \(index)", forKey: "name")
            try object.setValue(Int64(index), forKey: "size")
            // Every other row's note is NULL: neither the default nor the initialiser's value.
            try object.setValue(index % 2 == 0 ? "note \(index)" : nil, forKey: "note")
            if entity == "Square" { try object.setValue(Double(index) / 2, forKey: "side") }
            if entity == "Circle" {
                try object.setValue(Double(index) * 2, forKey: "radius")
                try object.setValue(index % 2 == 0, forKey: "filled")
            }
        }
        try writer.save()

        // A new coordinator: its row cache is empty, so every object is made from the answer.
        let readCoordinator = PersistentStoreCoordinator(model: model)
        try readCoordinator.addStore(SQLitePersistentStore(url: directory.file("Mixed.sqlite")))
        let reader = ManagedObjectContext(coordinator: readCoordinator)
        let shapes = try reader.fetch(EntityFetchRequest(entityName: "Shape", sortDescriptors: [KeyValueSortDescriptor(key: "size")]))
        #expect(shapes.count == 9)
        for (index, shape) in shapes.enumerated() {
            let entity = ["Shape", "Square", "Circle"][index % 3]
            #expect(shape.entity.name == entity)
            #expect((shape is Square) == (entity == "Square"))
            #expect(!shape.isFault)
            #expect(try shape.value(forKey: "name") as? String == "\(entity) \(index)")
            #expect(try shape.value(forKey: "size") as? Int64 == Int64(index))
            #expect(try shape.value(forKey: "note") as? String == (index % 2 == 0 ? "note \(index)" : nil))
            if entity == "Square" { #expect(try shape.value(forKey: "side") as? Double == Double(index) / 2) }
            if entity == "Circle" {
                #expect(try shape.value(forKey: "radius") as? Double == Double(index) * 2)
                #expect(try shape.value(forKey: "filled") as? Bool == (index % 2 == 0))
            }
        }
    }
}
