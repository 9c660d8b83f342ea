// CoreDataPlus's SampleModel rebuilt in code, for the tests that read Apple's stores of it.
import ManagedObjects

/// The model of CoreDataPlus's `SampleModel_V1.sqlite` / `SampleModel_V2.sqlite` (fixtures),
/// as its `.xcdatamodeld` declares it.
package enum CoreDataPlusSampleModel {
    static func attribute(_ name: String, _ type: AttributeDescription.AttributeType, optional: Bool = true) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: type, isOptional: optional))
    }

    /// CoreDataPlus SampleModel, version 1 (`SampleModel`, of SampleModel_V1.sqlite) or 2
    /// (`SampleModel2`, of SampleModel_V2.sqlite: no color and id, a fetch index, and
    /// ExpensiveSportCar renamed LuxuryCar).
    package static func sampleModel(version2: Bool = false) throws -> ManagedObjectModel {
        var carProperties: [PropertyDescription] = [
            Self.attribute("maker", .string), Self.attribute("markedForDeletionAsOf", .date), Self.attribute("model", .string),
            Self.attribute("numberPlate", .string, optional: false),
            .relationship(RelationshipDescription(name: "owner", destination: "Person", inverse: "cars")),
        ]
        var personProperties: [PropertyDescription] = [
            Self.attribute("firstName", .string), Self.attribute("lastName", .string), Self.attribute("updatedAt", .date, optional: false),
            .relationship(RelationshipDescription(name: "cars", destination: "Car", inverse: "owner", cardinality: .toMany)),
        ]
        if !version2 {
            var color = AttributeDescription(name: "color", type: .transformable)
            color.valueTransformerName = "ColorTransformer"
            color.valueClassName = "Color"
            var speed = AttributeDescription(name: "currentDrivingSpeed", type: .integer64, isTransient: true,
                                             defaultValue: .integer(0))
            speed.isOptional = true
            carProperties += [.attribute(color), .attribute(speed)]
            var id = AttributeDescription(name: "id", type: .uuid, isOptional: false)
            id.preservesValueInHistoryOnDeletion = true
            personProperties += [.attribute(id),
                                 .attribute(AttributeDescription(name: "isDriving", type: .boolean, isOptional: false,
                                                                 isTransient: true, defaultValue: .bool(false)))]
        }
        var car = EntityDescription(name: "Car", className: "Car", properties: carProperties)
        car.uniquenessConstraints = [["numberPlate"]]
        if version2 {
            car.indexes = [FetchIndexDescription(name: "byMakerAndNumberPlate", elements: [
                .init(propertyName: "maker"), .init(propertyName: "numberPlate"),
            ])]
        }
        var person = EntityDescription(name: "Person", className: "Person", properties: personProperties)
        person.uniquenessConstraints = [["firstName", "lastName"]]
        let sport = EntityDescription(name: "SportCar", parent: "Car", className: "SportCar")
        var expensive = EntityDescription(name: version2 ? "LuxuryCar" : "ExpensiveSportCar", parent: "SportCar",
                                          properties: [
                                              .attribute(AttributeDescription(name: "isLimitedEdition", type: .boolean,
                                                                              defaultValue: .bool(false))),
                                          ])
        if version2 { expensive.renamingIdentifier = "ExpensiveSportCar" }
        return try ManagedObjectModel(entities: [car, expensive, person, sport])
    }
}
