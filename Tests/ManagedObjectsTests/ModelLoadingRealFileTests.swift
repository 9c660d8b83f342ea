// Every real model file in Fixtures/models loads, with the facts Xcode wrote into it.
import Foundation
import Predicates
import Testing
@testable import ManagedObjects

@Suite struct ModelLoadingRealFileTests {
    // MARK: Every file, every version

    @Test(arguments: ModelFixtures.allContentsFiles())
    func everyContentsFileLoadsWithoutLoaderWarnings(file: URL) throws {
        let model = try ManagedObjectModel(contentsOf: file)
        #expect(!model.entities.isEmpty)
        // Real files hold nothing unknown: the only warnings are Xcode's inverse-less ones.
        for warning in model.warnings {
            #expect(warning.message.contains("no inverse"), "\(warning)")
        }
    }

    @Test(arguments: ModelFixtures.allVersionedFolders())
    func everyVersionOfEveryVersionedFolderLoads(folder: URL) throws {
        let names = try ManagedObjectModel.versionNames(in: folder)
        #expect(!names.isEmpty)
        for name in names {
            let model = try ManagedObjectModel(contentsOf: folder, versionNamed: name)
            #expect(!model.entities.isEmpty, "\(folder.lastPathComponent) \(name)")
            let suffixed = try ManagedObjectModel(contentsOf: folder, versionNamed: name + ".xcdatamodel")
            #expect(suffixed.entities == model.entities)
        }
        let current = try ManagedObjectModel.currentVersionName(in: folder)
        #expect(names.contains(current))
        #expect(try ManagedObjectModel(contentsOf: folder).entities
                == ManagedObjectModel(contentsOf: folder, versionNamed: current).entities)
    }

    @Test func versionNamesAndCurrentVersions() throws {
        let table: [(String, [String], String)] = [
            ("apple-earthquakes/Earthquakes.xcdatamodeld", ["Earthquakes"], "Earthquakes"),
            ("coredataplus/SampleModel/SampleModel.xcdatamodeld", ["SampleModel", "SampleModel2", "SampleModel3"], "SampleModel"),
            ("coredataplus/SampleModel3/SampleModel3.xcdatamodeld", ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"], "SampleModel3"),
            ("mwkcoredata/MWKCoreDataTests.xcdatamodeld", ["MWKCoreDataTests", "MWKCoreDataTests2", "MWKCoreDataTests3"], "MWKCoreDataTests"),
            ("mogenerator/MogenSwiftTest/MogenSwiftTest/MogenSwiftTest.xcdatamodeld", ["MogenSwiftTest"], "MogenSwiftTest"),
            // No .xccurrentversion, one version: that one.
            ("corestore/Model.xcdatamodeld", ["Model"], "Model"),
            ("ntfy-ios/ntfy.xcdatamodeld", ["Model"], "Model"),
        ]
        for (path, versions, current) in table {
            #expect(try ManagedObjectModel.versionNames(in: ModelFixtures.url(path)) == versions, "\(path)")
            #expect(try ManagedObjectModel.currentVersionName(in: ModelFixtures.url(path)) == current, "\(path)")
        }
    }

    // MARK: apple-attributes

    @Test func appleAttributes() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("apple-attributes/CoreDataAttributes.xcdatamodel"))
        #expect(model.entities.map(\.name) == ["Book"])
        let book = try #require(model.entity(named: "Book"))
        #expect(book.managedObjectClassName == "Book")
        #expect(book.properties.map(\.name) == ["abstract", "canonicalTitle", "price", "publishDate", "publishMonthID",
                                                "tintColor", "title", "url", "uuid"])
        let abstract = try #require(model.attribute("Book", "abstract"))
        #expect(abstract.attributeType == .binaryData && abstract.allowsExternalBinaryDataStorage && abstract.isOptional)
        let canonical = try #require(model.attribute("Book", "canonicalTitle"))
        #expect(canonical.isDerived && canonical.derivationExpression == "canonical:(title)")
        #expect(model.attribute("Book", "price")?.attributeType == .decimal)
        #expect(model.attribute("Book", "price")?.defaultValue == .decimal(0))
        let publishDate = try #require(model.attribute("Book", "publishDate"))
        #expect(publishDate.attributeType == .date && !publishDate.isOptional && publishDate.defaultValue == nil)
        let month = try #require(model.attribute("Book", "publishMonthID"))
        #expect(month.isTransient && month.isOptional && month.attributeType == .string)
        let tint = try #require(model.attribute("Book", "tintColor"))
        #expect(tint.attributeType == .transformable)
        #expect(tint.valueTransformerName == "ColorToDataTransformer" && tint.valueClassName == "UIColor")
        #expect(model.attribute("Book", "title")?.isOptional == false)
        #expect(model.attribute("Book", "url")?.attributeType == .uri)
        #expect(model.attribute("Book", "uuid")?.attributeType == .uuid)
        #expect(model.attribute("Book", "uuid")?.isOptional == false)
        #expect(model.versionIdentifiers == [""])
        #expect(model.warnings.isEmpty)
    }

    // MARK: apple-earthquakes

    @Test func appleEarthquakes() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("apple-earthquakes/Earthquakes.xcdatamodeld"))
        let quake = try #require(model.entity(named: "Quake"))
        #expect(quake.managedObjectClassName == ".Quake")
        #expect(quake.uniquenessConstraints == [["code"]])
        #expect(model.attribute("Quake", "magnitude")?.attributeType == .float)
        #expect(model.attribute("Quake", "magnitude")?.defaultValue == .double(0))
        #expect(model.attribute("Quake", "time")?.attributeType == .date)
        #expect(quake.properties.map(\.name) == ["code", "magnitude", "place", "time"])
    }

    // MARK: coredataplus

    static let sampleModel = "coredataplus/SampleModel/SampleModel.xcdatamodeld"

    @Test func coreDataPlusVersion1IsCurrent() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url(Self.sampleModel))
        #expect(model.versionIdentifiers == ["1"])
        #expect(model.entities.map(\.name) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let color = try #require(model.attribute("Car", "color"))
        #expect(color.attributeType == .transformable && color.valueTransformerName == "ColorTransformer"
                && color.valueClassName == "Color")
        let speed = try #require(model.attribute("Car", "currentDrivingSpeed"))
        #expect(speed.isTransient && speed.attributeType == .integer64 && speed.defaultValue == .integer(0))
        #expect(model.attribute("Car", "numberPlate")?.isOptional == false)
        #expect(model.entity(named: "Car")?.uniquenessConstraints == [["numberPlate"]])
        #expect(model.entity(named: "SportCar")?.parentName == "Car")
        #expect(model.entity(named: "ExpensiveSportCar")?.parentName == "SportCar")
        #expect(model.entity(named: "Car")?.subentityNames == ["SportCar"])
        #expect(model.entity(named: "ExpensiveSportCar")?.attributesByName["numberPlate"] != nil)  // inherited
        #expect(model.attribute("ExpensiveSportCar", "isLimitedEdition")?.defaultValue == .bool(false))
        let id = try #require(model.attribute("Person", "id"))
        #expect(id.attributeType == .uuid && id.preservesValueInHistoryOnDeletion && !id.isOptional)
        let driving = try #require(model.attribute("Person", "isDriving"))
        #expect(driving.isTransient && !driving.isOptional && driving.defaultValue == .bool(false))
        #expect(model.entity(named: "Person")?.uniquenessConstraints == [["firstName", "lastName"]])
        let owner = try #require(model.relationship("Car", "owner"))
        #expect(owner.destinationEntityName == "Person" && owner.inverseName == "cars" && !owner.isToMany)
        #expect(owner.maxCount == 1 && owner.minCount == 0 && owner.deleteRule == .nullify && owner.isOptional)
        let cars = try #require(model.relationship("Person", "cars"))
        #expect(cars.cardinality == .toMany && cars.inverseName == "owner" && cars.maxCount == 0)
        #expect(model.warnings.isEmpty)
    }

    @Test func coreDataPlusVersion2HasAFetchIndexAndARenamedEntity() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url(Self.sampleModel), versionNamed: "SampleModel2")
        #expect(model.versionIdentifiers == ["2"])
        #expect(model.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])
        #expect(model.attribute("Car", "color") == nil)
        let car = try #require(model.entity(named: "Car"))
        #expect(car.indexes == [FetchIndexDescription(name: "byMakerAndNumberPlate", elements: [
            .init(propertyName: "maker", kind: .binary, isAscending: true),
            .init(propertyName: "numberPlate", kind: .binary, isAscending: true),
        ])])
        let luxury = try #require(model.entity(named: "LuxuryCar"))
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar" && luxury.parentName == "SportCar")
        #expect(model.attribute("Person", "id") == nil)
    }

    @Test func coreDataPlusVersion3HasMakers() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url(Self.sampleModel), versionNamed: "SampleModel3")
        #expect(model.versionIdentifiers == ["3"])
        #expect(model.entities.map(\.name) == ["Car", "LuxuryCar", "Maker", "Person", "SportCar"])
        #expect(model.relationship("Car", "createdBy")?.inverseName == "cars")
        #expect(model.relationship("Maker", "cars")?.inverseName == "createdBy")
        #expect(model.relationship("Car", "previousOwners")?.cardinality == .toMany)
        #expect(model.relationship("Person", "previousCars")?.inverseName == "previousOwners")
        #expect(model.entity(named: "Maker")?.uniquenessConstraints == [["name"]])
        #expect(model.attribute("LuxuryCar", "isLimitedEdition")?.isOptional == true)
    }

    @Test func coreDataPlusSampleModel3Versions() throws {
        let folder = ModelFixtures.url("coredataplus/SampleModel3/SampleModel3.xcdatamodeld")
        let v1 = try ManagedObjectModel(contentsOf: folder)
        #expect(v1.entities.map(\.name) == ["User"])
        #expect(v1.attribute("User", "name")?.isOptional == false)
        #expect(v1.attribute("User", "petName")?.isOptional == true)
        let v2 = try ManagedObjectModel(contentsOf: folder, versionNamed: "SampleModel3_v2")
        #expect(v2.entities.map(\.name) == ["Pet", "User"])
        #expect(v2.relationship("Pet", "owner")?.inverseName == "pet")
        #expect(v2.relationship("User", "pet")?.destinationEntityName == "Pet")
        let v3 = try ManagedObjectModel(contentsOf: folder, versionNamed: "SampleModel3_v3.xcdatamodel")
        #expect(v3.attribute("User", "petName") == nil)
        #expect(v3.versionIdentifiers == ["3"])
    }

    // MARK: corestore

    @Test func coreStoreConfigurationsAndOrderedToMany() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("corestore/Model.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["TestEntity1AAA", "TestEntity2"])
        #expect(model.entity(named: "TestEntity1AAA")?.managedObjectClassName == ".TestEntity1")
        #expect(model.configurations == ["Config1", "Config2"])
        #expect(model.entities(forConfiguration: "Config1")?.map(\.name) == ["TestEntity1AAA"])
        #expect(model.entities(forConfiguration: "Config2")?.map(\.name) == ["TestEntity2"])
        #expect(model.relationship("TestEntity2", "testToManyOrdered")?.cardinality == .orderedToMany)
        #expect(model.relationship("TestEntity1AAA", "testToManyUnordered")?.cardinality == .toMany)
        #expect(model.relationship("TestEntity1AAA", "testToOne")?.destinationEntityName == "TestEntity1AAA")
        let types = model.entity(named: "TestEntity2")?.properties.compactMap { $0.attribute?.attributeType }
        #expect(types == [.boolean, .binaryData, .date, .decimal, .integer64, .string, .integer32, .string])
    }

    // MARK: magicalrecord

    @Test func magicalRecordTestModel() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("magicalrecord/TestModel.xcdatamodeld"))
        #expect(model.entities.count == 12)
        #expect(model.entity(named: "AbstractRelatedEntity")?.isAbstract == true)
        #expect(model.entity(named: "ConcreteRelatedEntity")?.parentName == "AbstractRelatedEntity")
        #expect(model.entity(named: "ConcreteRelatedEntity")?.isAbstract == false)
        #expect(model.entity(named: "EntityWithDifferentClassName")?.managedObjectClassName == "DifferentClassNameMapping")
        #expect(model.entity(named: "MappedEntity")?.userInfo == ["relatedByAttribute": "mapped"])
        #expect(model.attribute("MappedEntity", "nestedAttribute")?.userInfo == ["mappedKeyName": "attributeValue.nestedValue"])
        let defaults = try #require(model.relationship("SingleEntityRelatedToMappedEntityUsingDefaults", "mappedEntity"))
        #expect(defaults.minCount == 1 && defaults.maxCount == 1 && defaults.deleteRule == .cascade && defaults.inverseName == nil)
        let secondary = try #require(model.relationship("SingleEntityRelatedToMappedEntityWithSecondaryMappings", "mappedRelationship"))
        #expect(secondary.userInfo.count == 3 && secondary.userInfo["mappedKeyName.2"] == "actualRelatedObject")
        #expect(model.attribute("SingleEntityRelatedToMappedEntityWithSecondaryMappings", "notImportedAttribute")?.defaultValue == .bool(true))
        let noRelationships = "SingleEntityWithNoRelationships"
        #expect(model.attribute(noRelationships, "notInJsonAttribute")?.defaultValue == .string("Set From Core Data Model Editor"))
        #expect(model.attribute(noRelationships, "nullTestAttribute")?.defaultValue == .integer(100))
        #expect(model.attribute(noRelationships, "floatTestAttribute")?.defaultValue == .double(0))
        #expect(model.attribute(noRelationships, "colorTestAttribute")?.attributeType == .transformable)
        #expect(model.attribute(noRelationships, "colorTestAttribute")?.effectiveValueTransformerName == "NSSecureUnarchiveFromData")
        #expect(model.attribute(noRelationships, "dateWithCustomFormat")?.userInfo["dateFormat"] == "M/d/yyyy H-mm-ss")
        #expect(model.relationship("SingleRelatedEntity", "testAbstractToManyRelationship")?.destinationEntityName == "AbstractRelatedEntity")
        // Nine relationships without an inverse, each a warning, as in Xcode.
        #expect(model.warnings.count == 9)
        #expect(model.versionIdentifiers == [""])
    }

    // MARK: mogenerator

    @Test func mogeneratorEveryTypeInheritanceAndTemplates() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("mogenerator/test.xcdatamodel"))
        #expect(model.entities.count == 9)
        #expect(model.entity(named: "EntitySansCustomClass")?.managedObjectClassName == nil)  // "NSManagedObject"
        #expect(model.entity(named: "Human")?.managedObjectClassName == "HumanMO")
        #expect(model.entity(named: "Human")?.subentityNames == ["Child", "Parent", "Uncle"])
        #expect(model.entity(named: "Human")?.userInfo == ["additionalHeaderFileName": "Gender.h",
                                                          "key with.dots...": "value with \"quotes\""])
        let age = try #require(model.attribute("Human", "age"))
        #expect(!age.isOptional && age.validationRules == [.minimumValue(.integer(0))] && age.defaultValue == .integer(0))
        #expect(age.userInfo == ["mogenerator.readonly": "true"])
        let types: [String: AttributeDescription.AttributeType] = [
            "myBinaryData": .binaryData, "myBoolean": .boolean, "myDate": .date, "myDecimal": .decimal,
            "myDouble": .double, "myFloat": .float, "myInt16": .integer16, "myInt32": .integer32,
            "myInt64": .integer64, "myString": .string, "myTransformableSansClassName": .transformable,
        ]
        for (name, type) in types { #expect(model.attribute("Parent", name)?.attributeType == type, "\(name)") }
        #expect(model.attribute("Parent", "myInt16Transient")?.isTransient == true)
        #expect(model.attribute("Parent", "humanName") != nil)  // inherited from Human
        let ordered = try #require(model.relationship("Parent", "orderedChildren"))
        #expect(ordered.cardinality == .orderedToMany && ordered.deleteRule == .cascade && ordered.inverseName == "parent")
        #expect(ordered.isIndexed)
        let parent = try #require(model.relationship("Child", "parent"))
        #expect(parent.minCount == 1 && parent.maxCount == 1 && parent.inverseName == "orderedChildren")
        #expect(model.relationship("Parent", "children")?.inverseName == nil)
        let templates = model.fetchRequestTemplatesByName
        #expect(templates.keys.sorted() == ["allHumans", "byHumanName", "byParent", "byParentName", "oneByHumanName"])
        #expect(templates["allHumans"]?.entityName == "Human" && templates["allHumans"]?.predicate == nil)
        #expect(templates["byHumanName"]?.predicate == (try KeyValuePredicate(format: "humanName == $humanName")))
        #expect(templates["byParentName"]?.entityName == "Child")
        #expect(templates["byParentName"]?.predicate == (try KeyValuePredicate(format: "parent.parentName == $parentName")))
        // Parent.children and Human.meaninglessRelationship have no inverse.
        #expect(model.warnings.count == 2)
    }

    @Test func mogeneratorSwiftTest() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("mogenerator/MogenSwiftTest/MogenSwiftTest/MogenSwiftTest.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["MyEntity", "UnorderedToManyDst", "UnorderedToManySrc"])
        #expect(model.relationship("UnorderedToManySrc", "relationship")?.cardinality == .toMany)
        #expect(model.relationship("UnorderedToManySrc", "relationship")?.deleteRule == .cascade)
        #expect(model.relationship("UnorderedToManyDst", "relationship")?.inverseName == "relationship")
        #expect(model.fetchRequestTemplatesByName["allUnorderedToManySrcs"]?.entityName == "UnorderedToManySrc")
    }

    // MARK: mwkcoredata

    @Test func mwkCoreDataVersions() throws {
        let folder = ModelFixtures.url("mwkcoredata/MWKCoreDataTests.xcdatamodeld")
        let v1 = try ManagedObjectModel(contentsOf: folder)
        #expect(v1.entities.map(\.name) == ["Employee"])
        #expect(v1.entity(named: "Employee")?.managedObjectClassName == nil)
        #expect(v1.versionIdentifiers == ["1"])
        let v2 = try ManagedObjectModel(contentsOf: folder, versionNamed: "MWKCoreDataTests2")
        #expect(v2.entities.map(\.name) == ["Dept", "Employee"])
        #expect(v2.relationship("Dept", "employees")?.inverseName == "dept")
        #expect(v2.relationship("Employee", "dept")?.cardinality == .toOne)
        let v3 = try ManagedObjectModel(contentsOf: folder, versionNamed: "MWKCoreDataTests3")
        #expect(v3.entity(named: "Employee")?.properties.map(\.name) == ["firstName", "lastName", "dept"])
        #expect(v3.versionIdentifiers == ["3"])
    }

    // MARK: ntfy-ios

    @Test func ntfyValidationRulesAndCompoundConstraint() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("ntfy-ios/ntfy.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["Notification", "Preference", "Subscription", "User"])
        let priority = try #require(model.attribute("Notification", "priority"))
        #expect(priority.validationRules == [.minimumValue(.integer(1)), .maximumValue(.integer(5))])
        #expect(priority.defaultValue == .integer(3))
        #expect(model.attribute("Notification", "attachmentProgress")?.defaultValue == .integer(-1))
        let topic = try #require(model.attribute("Subscription", "topic"))
        #expect(topic.validationRules == [.minimumLength(1), .maximumLength(64), .regularExpression("^[-_A-Za-z0-9]{1,64}$")])
        #expect(!topic.isOptional)
        #expect(model.entity(named: "Subscription")?.uniquenessConstraints == [["baseUrl", "topic"]])
        #expect(model.entity(named: "Notification")?.uniquenessConstraints == [["id"]])
        #expect(model.relationship("Subscription", "notifications")?.deleteRule == .cascade)
        #expect(model.warnings.isEmpty)  // codeGenerationType and usesScalarValueType are skipped silently
    }
}
