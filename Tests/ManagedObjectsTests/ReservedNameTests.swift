// Typed subclasses may name properties `model` and `entityName` (trial14 F7: CoreDataPlus's
// `Car.model` did not compile while ManagedObject had a `model` property).
import Foundation
import ManagedObjects
import Testing

final class ModelNamedCar: ManagedObject {
    override class var entityName: String { "Car" }
    @Managed var maker: String?
    @Managed var model: String?
    @Managed var entityName: String?
}

@Suite struct ReservedNameTests {
    private func carModel() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Car", properties: [
                .attribute("maker", .string),
                .attribute("model", .string),
                .attribute("entityName", .string),
            ]),
        ])
        try model.setManagedObjectClasses([ModelNamedCar.self])
        return model
    }

    @Test func aTypedPropertyNamedModelBindsToTheAttribute() throws {
        let model = try carModel()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let car = try context.insertNewObject(ModelNamedCar.self)
        car.maker = "Saab"
        car.model = "900"
        car.entityName = "hatchback"
        #expect(try car.value(forKey: "model") as? String == "900")
        #expect(car.managedObjectModel === model)
        #expect(car.entity.name == "Car" && ModelNamedCar.entityName == "Car")
        try context.save()
        let other = ManagedObjectContext(coordinator: coordinator)
        let fetched = try #require(try other.fetch(EntityFetchRequest(entityName: "Car")).first as? ModelNamedCar)
        #expect(fetched.model == "900")
        #expect(fetched.entityName == "hatchback")
        try fetched.setValue("9-3", forKey: "model")
        #expect(fetched.model == "9-3")
        #expect(fetched.changedValues().keys.sorted() == ["model"])
    }
}
