import Foundation
import Testing
import Predicates
@testable import ManagedObjects

/// What lightweight migration infers, and what it refuses (naming entity and property).
@Suite struct MappingInferenceTests {
    /// Version 1: Note (title, body, pinned?), Tag, Note ↔ Tag.
    static func v1() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [
                .attribute("title", .string, isOptional: false),
                .attribute("body", .string),
                .attribute("pinned", .boolean),
                .toMany("tags", "Tag", inverse: "notes"),
            ]),
            EntityDescription(name: "Tag", properties: [
                .attribute("name", .string),
                .toMany("notes", "Note", inverse: "tags"),
            ]),
        ])
    }

    /// v1 with `change` applied to the entity named `entity`.
    static func v1(changing entity: String, _ change: (inout EntityDescription) -> Void) throws -> ManagedObjectModel {
        var entities = try v1().entities
        let index = try #require(entities.firstIndex { $0.name == entity })
        change(&entities[index])
        return try ManagedObjectModel(entities: entities)
    }

    static func attribute(_ name: String, _ type: AttributeDescription.AttributeType, optional: Bool = true,
                          default value: KeyValueConstant? = nil, renamedFrom old: String? = nil) -> PropertyDescription {
        var attribute = AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: value)
        attribute.renamingIdentifier = old
        return .attribute(attribute)
    }

    @Test func sameModelsMapEveryPropertyToItself() throws {
        let mapping = try MappingModel.inferred(from: try Self.v1(), to: try Self.v1())
        let note = try #require(mapping.entityMappings.first { $0.destinationEntity == "Note" })
        #expect(note.sourceEntity == "Note")
        #expect(note.attributes == ["title": "title", "body": "body", "pinned": "pinned"])
        #expect(note.relationships == ["tags": "tags"])
    }

    @Test func addedRemovedRenamedAndNewlyRequiredAttributesAreInferred() throws {
        let v2 = try Self.v1(changing: "Note") { note in
            note.properties.removeAll { $0.name == "body" || $0.name == "pinned" }
            note.properties += [Self.attribute("text", .string, renamedFrom: "body"),
                                Self.attribute("pinned", .boolean, optional: false, default: false),
                                Self.attribute("created", .date),
                                Self.attribute("priority", .integer16, optional: false, default: 3)]
        }
        let note = try #require(try MappingModel.inferred(from: try Self.v1(), to: v2).entityMappings.first { $0.destinationEntity == "Note" })
        #expect(note.attributes["text"] == .some("body"))
        #expect(note.attributes["pinned"] == .some("pinned"))
        #expect(note.attributes["created"] == .some(nil))
        #expect(note.attributes["priority"] == .some(nil))
        #expect(note.defaults == ["pinned": false, "priority": 3])
    }

    @Test func renamedEntitiesAddedEntitiesAndAddedRelationshipsAreInferred() throws {
        var entities = try Self.v1().entities
        entities[1].name = "Label"
        entities[1].renamingIdentifier = "Tag"
        entities[0].properties = entities[0].properties.map { property in
            guard case .relationship(var relationship) = property else { return property }
            relationship.destinationEntityName = "Label"
            return .relationship(relationship)
        }
        entities[1].properties = entities[1].properties.filter { $0.name != "notes" } + [.toMany("notes", "Note", inverse: "tags")]
        entities.append(EntityDescription(name: "Folder", properties: [.attribute("name", .string)]))
        entities[0].properties.append(.toOne("folder", "Folder", inverse: nil))
        let v2 = try ManagedObjectModel(entities: entities)
        let mapping = try MappingModel.inferred(from: try Self.v1(), to: v2)
        #expect(mapping.entityMappings.first { $0.destinationEntity == "Label" }?.sourceEntity == "Tag")
        #expect(mapping.entityMappings.first { $0.destinationEntity == "Folder" }?.sourceEntity == nil)
        #expect(mapping.entityMappings.first { $0.destinationEntity == "Note" }?.relationships["folder"] == .some(nil))
        #expect(mapping.entityMappings.first { $0.destinationEntity == "Note" }?.relationships["tags"] == .some("tags"))
    }

    @Test func changedDeleteAndValidationRulesNeedNoMapping() throws {
        let v2 = try Self.v1(changing: "Note") { note in
            note.properties = note.properties.map { property in
                switch property {
                case .relationship(var relationship):
                    relationship.deleteRule = .cascade
                    return .relationship(relationship)
                case .attribute(var attribute) where attribute.name == "title":
                    attribute.validationRules = [.maximumLength(40)]
                    return .attribute(attribute)
                default: return property
                }
            }
        }
        #expect(try MappingModel.inferred(from: try Self.v1(), to: v2).entityMappings.count == 2)
    }

    @Test(arguments: [
        ("type", "title", "its type changed from String to Integer 32"),
        ("required", "body", "it became required without a default value for objects that have none"),
        ("new required", "color", "it is a new required attribute without a default value"),
        ("cardinality", "tags", "its cardinality changed from toMany to toOne"),
        ("new required relationship", "owner", "it is a new required relationship, which existing objects cannot fill"),
    ])
    func changesThatCannotBeInferredAreRefusedByName(change: String, property: String, reason: String) throws {
        let v2 = try Self.v1(changing: "Note") { note in
            switch change {
            case "type":
                note.properties.removeAll { $0.name == "title" }
                note.properties.append(Self.attribute("title", .integer32, optional: false, default: 0))
            case "required":
                note.properties.removeAll { $0.name == "body" }
                note.properties.append(Self.attribute("body", .string, optional: false))
            case "new required":
                note.properties.append(Self.attribute("color", .string, optional: false))
            case "cardinality":
                note.properties.removeAll { $0.name == "tags" }
                note.properties.append(.toOne("tags", "Tag", inverse: "notes"))
            default:
                note.properties.append(.toOne("owner", "Tag", inverse: nil, isOptional: false))
            }
        }
        #expect(throws: StoreManagementError.cannotInferMapping(entity: "Note", property: property, reason: reason)) {
            try MappingModel.inferred(from: try Self.v1(), to: v2)
        }
    }

    @Test func aChangedParentIsRefused() throws {
        var entities = try Self.v1().entities
        entities[1].parentName = "Note"
        let v2 = try ManagedObjectModel(entities: entities)
        #expect(throws: StoreManagementError.cannotInferMapping(entity: "Tag", property: nil, reason: "its parent entity changed (from none to Note)")) {
            try MappingModel.inferred(from: try Self.v1(), to: v2)
        }
    }
}
