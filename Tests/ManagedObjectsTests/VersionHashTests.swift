import Foundation
import Testing
@testable import ManagedObjects

@Suite struct VersionHashTests {
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    /// Shape (abstract, entity modifier, uniqueness constraint) ← Circle; Shape.tags is an
    /// ordered to-many relationship to Tag; Tag has external binary storage.
    static func shapes(reversed: Bool = false, change: (inout [EntityDescription]) -> Void = { _ in }) throws
        -> ManagedObjectModel {
        var name = AttributeDescription(name: "name", type: .string, isOptional: false)
        name.versionHashModifier = "v2"
        var shape = EntityDescription(name: "Shape", isAbstract: true, properties: [
            .attribute(name),
            .relationship(RelationshipDescription(name: "tags", destination: "Tag", inverse: "shapes",
                                                  cardinality: .orderedToMany)),
        ])
        shape.versionHashModifier = "M"
        shape.uniquenessConstraints = [["name"]]
        let circle = EntityDescription(name: "Circle", parent: "Shape", properties: [
            .attribute(AttributeDescription(name: "radius", type: .double, isOptional: false)),
        ])
        var blob = AttributeDescription(name: "blob", type: .binaryData)
        blob.allowsExternalBinaryDataStorage = true
        let tag = EntityDescription(name: "Tag", properties: [
            .attribute(blob),
            .relationship(RelationshipDescription(name: "shapes", destination: "Shape", inverse: "tags",
                                                  cardinality: .toMany)),
        ])
        var entities = [shape, circle, tag]
        change(&entities)
        if reversed {
            entities.reverse()
            for i in entities.indices { entities[i].properties.reverse() }
        }
        return try ManagedObjectModel(entities: entities)
    }

    static func hashes(_ change: (inout [EntityDescription]) -> Void) throws -> [String: Data] {
        try shapes(change: change).entityVersionHashesByName
    }

    // MARK: Stability

    @Test func goldenValuesOfAFixedModel() throws {
        // Computed once by the algorithm as established against Apple's stores (see
        // VersionHashAppleStoreTests); a change here means stores written before no longer match.
        let model = try Self.shapes()
        #expect(model.entityVersionHashesByName.mapValues(Self.hex) == [
            "Shape": "f1beb01e95f02f90e27c4b45408ec74a7cfa6792f8463d3f72e613e1954a3bcb",
            "Circle": "a46171bc47852235ef9be3e0624d785820a95a49d280031490f95f43655e8302",
            "Tag": "6a4f8a81e29c55b7b3d1431228e27a547bfad479eaeef152caae768703c3d851",
        ])
        let shape = try #require(model.entity(named: "Shape"))
        #expect(Self.hex(try #require(shape.attributesByName["name"]).versionHash)
            == "00055cf946522291469e31c17bbd834926af7dd8aaf5512be7c3e17593c75c7c")
        #expect(Self.hex(try #require(shape.relationshipsByName["tags"]).versionHash)
            == "a850557529424d7010948c1fb5d85e447827a79bacc031bb9c3beab3c463facb")
    }

    @Test func sameModelBuiltTwiceOrInAnotherOrderHasEqualHashes() throws {
        let first = try Self.shapes().entityVersionHashesByName
        #expect(first == (try Self.shapes().entityVersionHashesByName))
        #expect(first == (try Self.shapes(reversed: true).entityVersionHashesByName))
        #expect(first.values.allSatisfy { $0.count == 32 })
    }

    @Test func entityValueReadFromTheModelCarriesTheModelHash() throws {
        let model = try Self.shapes()
        let circle = try #require(model.entity(named: "Circle"))
        #expect(circle.versionHash == model.entityVersionHashesByName["Circle"])
        // The same entity outside a model knows only its own declaration.
        #expect(circle.declared.versionHash != circle.versionHash)
    }

    @Test func entityChangedAfterReadingNoLongerUsesTheModelHash() throws {
        let model = try Self.shapes()
        var circle = try #require(model.entity(named: "Circle"))
        circle.userInfo = ["note": "not in the hash"]
        #expect(circle.versionHash == model.entityVersionHashesByName["Circle"])
        circle.isAbstract = true
        #expect(circle.versionHash != model.entityVersionHashesByName["Circle"])
        circle.isAbstract = false
        #expect(circle.versionHash == model.entityVersionHashesByName["Circle"])
    }

    // MARK: What changes the hash

    @Test(arguments: [
        "entity name", "abstract flag", "parent", "entity modifier", "uniqueness constraint",
        "property name", "attribute type", "optionality", "made transient", "property modifier",
        "external storage", "preserved in history", "destination", "inverse", "to-many", "ordered",
        "minimum count", "added attribute",
    ])
    func storeRelevantChangeChangesTheHash(change: String) throws {
        let before = try Self.hashes { _ in }
        let after = try Self.hashes { entities in
            switch change {
            case "entity name":
                entities[2].name = "Label"
                entities[0].properties[1] = .relationship(RelationshipDescription(
                    name: "tags", destination: "Label", inverse: "shapes", cardinality: .orderedToMany))
            case "abstract flag": entities[0].isAbstract = false
            case "parent": entities[1].parentName = nil
            case "entity modifier": entities[0].versionHashModifier = "N"
            case "uniqueness constraint": entities[0].uniquenessConstraints = []
            case "property name": Self.editAttribute(&entities[1], 0) { $0.name = "diameter" }
            case "attribute type": Self.editAttribute(&entities[1], 0) { $0.attributeType = .float }
            case "optionality": Self.editAttribute(&entities[1], 0) { $0.isOptional = true }
            case "made transient": Self.editAttribute(&entities[1], 0) { $0.isTransient = true }
            case "property modifier": Self.editAttribute(&entities[1], 0) { $0.versionHashModifier = "x" }
            case "external storage": Self.editAttribute(&entities[2], 0) { $0.allowsExternalBinaryDataStorage = false }
            case "preserved in history": Self.editAttribute(&entities[1], 0) { $0.preservesValueInHistoryOnDeletion = true }
            case "destination":
                entities[2].properties[1] = .relationship(RelationshipDescription(
                    name: "shapes", destination: "Circle", inverse: "tags", cardinality: .toMany))
            case "inverse": Self.editRelationship(&entities[2], 1) { $0.inverseName = nil }
            case "to-many": Self.editRelationship(&entities[2], 1) { $0.cardinality = .toOne; $0.maxCount = 1 }
            case "ordered": Self.editRelationship(&entities[0], 1) { $0.cardinality = .toMany }
            case "minimum count": Self.editRelationship(&entities[2], 1) { $0.minCount = 1 }
            default:
                entities[2].properties.append(.attribute(AttributeDescription(name: "color", type: .string)))
            }
        }
        #expect(before != after, "\(change)")
    }

    @Test(arguments: [
        "user info", "validation rules", "default value", "delete rule", "class name", "renaming identifier",
        "fetch index", "indexed flag", "value transformer", "transient attribute added", "fetched property added",
        "property order", "spotlight",
    ])
    func storeIrrelevantChangeKeepsTheHash(change: String) throws {
        let before = try Self.hashes { _ in }
        let after = try Self.hashes { entities in
            switch change {
            case "user info":
                entities[0].userInfo = ["a": "b"]
                Self.editAttribute(&entities[1], 0) { $0.userInfo = ["c": "d"] }
            case "validation rules": Self.editAttribute(&entities[1], 0) { $0.validationRules = [.minimumValue(.double(0))] }
            case "default value": Self.editAttribute(&entities[1], 0) { $0.defaultValue = .double(1) }
            case "delete rule": Self.editRelationship(&entities[2], 1) { $0.deleteRule = .cascade }
            case "class name": entities[1].managedObjectClassName = "CircleObject"
            case "renaming identifier":
                entities[1].renamingIdentifier = "Round"
                Self.editAttribute(&entities[1], 0) { $0.renamingIdentifier = "r" }
            case "fetch index":
                entities[1].indexes = [FetchIndexDescription(name: "byRadius", elements: [.init(propertyName: "radius")])]
            case "indexed flag": Self.editAttribute(&entities[1], 0) { $0.isIndexed = true }
            case "value transformer": Self.editAttribute(&entities[2], 0) { $0.valueTransformerName = "T" }
            case "transient attribute added":
                entities[1].properties.append(.attribute(AttributeDescription(name: "area", type: .double,
                                                                              isTransient: true)))
            case "fetched property added":
                entities[2].properties.append(.fetchedProperty(FetchedPropertyDescription(
                    name: "bigCircles", fetchRequest: EntityFetchRequest(entityName: "Circle"))))
            case "property order": entities[2].properties.reverse()
            default: Self.editAttribute(&entities[1], 0) { $0.isIndexedBySpotlight = true }
            }
        }
        #expect(before == after, "\(change)")
    }

    @Test func inheritedPropertiesEnterSubentityHashes() throws {
        let before = try Self.hashes { _ in }
        // A change to the parent's attribute changes the parent and, through it, the child.
        let after = try Self.hashes { entities in
            Self.editAttribute(&entities[0], 0) { $0.isOptional = true }
        }
        #expect(before["Shape"] != after["Shape"])
        #expect(before["Circle"] != after["Circle"])
        #expect(before["Tag"] == after["Tag"])
    }

    @Test func relationshipThatIsItsOwnInverseLeavesTheInverseNameOut() throws {
        let spouse = RelationshipDescription(name: "spouse", destination: "Person", inverse: "spouse")
        var without = spouse
        without.inverseName = nil
        #expect(spouse.versionHash == without.versionHash)
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", properties: [.relationship(spouse)]),
        ])
        let hashInModel = try #require(model.entityVersionHashesByName["Person"])
        let withoutInverse = EntityDescription(name: "Person", properties: [.relationship(without)])
        #expect(hashInModel == withoutInverse.versionHash)
    }

    // MARK: Compatibility with store metadata

    static func metadata(_ hashes: [String: Data], version: Any? = 3) -> [String: Any] {
        var metadata: [String: Any] = [StoreMetadataKey.modelVersionHashes: hashes, "NSStoreType": "SQLite"]
        if let version { metadata[StoreMetadataKey.modelVersionHashesVersion] = version }
        return metadata
    }

    @Test func compatibilityOfTheDefaultConfiguration() throws {
        let model = try Self.shapes()
        let hashes = model.entityVersionHashesByName
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(hashes)))
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(hashes, version: nil)))
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(hashes, version: NSNumber(value: 3))))
        var changed = hashes
        changed["Tag"] = Data(repeating: 0, count: 32)
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(changed)))
        var missing = hashes
        missing["Tag"] = nil
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(missing)))
        var extra = hashes
        extra["Other"] = Data(repeating: 1, count: 32)
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(extra)))
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: ["NSStoreType": "SQLite"]))
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(hashes, version: 4)))
    }

    @Test func olderHashVersionsCompareEntityNamesOnly() throws {
        let model = try Self.shapes()
        let zeros = model.entityVersionHashesByName.mapValues { _ in Data(repeating: 0, count: 20) }
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(zeros, version: 2)))
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(zeros, version: 3)))
    }

    @Test func compatibilityOfANamedConfiguration() throws {
        let model = try Self.shapes()
        try model.setEntities(["Tag"], forConfiguration: "Tags")
        let hashes = model.entityVersionHashesByName
        #expect(model.isConfiguration("Tags", compatibleWithStoreMetadata: Self.metadata(["Tag": hashes["Tag"]!])))
        // Core Data records the whole model's hashes in a configuration's store: still compatible.
        #expect(model.isConfiguration("Tags", compatibleWithStoreMetadata: Self.metadata(hashes)))
        var changedOther = hashes
        changedOther["Shape"] = Data(repeating: 0, count: 32)
        #expect(model.isConfiguration("Tags", compatibleWithStoreMetadata: Self.metadata(changedOther)))
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: Self.metadata(changedOther)))
        #expect(!model.isConfiguration("Tags", compatibleWithStoreMetadata: Self.metadata(["Shape": hashes["Shape"]!])))
        #expect(!model.isConfiguration("Missing", compatibleWithStoreMetadata: Self.metadata(hashes)))
    }

    @Test func metadataAsAPropertyListDictionaryOfAny() throws {
        let model = try Self.shapes()
        let anyHashes: [String: Any] = model.entityVersionHashesByName.mapValues { $0 as Any }
        let metadata: [String: Any] = [StoreMetadataKey.modelVersionHashes: anyHashes,
                                       StoreMetadataKey.modelVersionHashesVersion: 3]
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
        let malformed: [String: Any] = [StoreMetadataKey.modelVersionHashes: ["Tag": "not data"]]
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: malformed))
    }

    @Test func metadataKeyNamesAreCoreDatas() {
        #expect(StoreMetadataKey.modelVersionHashes == "NSStoreModelVersionHashes")
        #expect(StoreMetadataKey.modelVersionHashesVersion == "NSStoreModelVersionHashesVersion")
        #expect(StoreMetadataKey.modelVersionIdentifiers == "NSStoreModelVersionIdentifiers")
        #expect(StoreMetadataKey.currentModelVersionHashesVersion == 3)
    }

    // MARK: Helpers

    static func editAttribute(_ entity: inout EntityDescription, _ index: Int, _ body: (inout AttributeDescription) -> Void) {
        guard case .attribute(var attribute) = entity.properties[index] else { return }
        body(&attribute)
        entity.properties[index] = .attribute(attribute)
    }

    static func editRelationship(_ entity: inout EntityDescription, _ index: Int,
                                 _ body: (inout RelationshipDescription) -> Void) {
        guard case .relationship(var relationship) = entity.properties[index] else { return }
        body(&relationship)
        entity.properties[index] = .relationship(relationship)
    }
}
