// Attributes and relationships from their XML elements: types, flags, defaults, bounds.
import Foundation
import Predicates

extension ModelXMLReader {
    /// An attribute from an `<attribute>` element, and the composite it names (if any).
    func makeAttribute(_ attributes: XMLAttributes) throws(ManagedObjectModelError)
        -> (attribute: AttributeDescription, composite: String?) {
        let name = try required("name", attributes)
        let typeName = try required("attributeType", attributes, property: name)
        guard let type = AttributeDescription.AttributeType(rawValue: typeName) else {
            throw error(.unknownAttributeType(typeName), property: name)
        }
        var attribute = AttributeDescription(name: name, type: type,
                                             isOptional: try flag("optional", attributes, property: name),
                                             isTransient: try flag("transient", attributes, property: name))
        attribute.isIndexed = try flag("indexed", attributes, property: name)
        attribute.isIndexedBySpotlight = try flag("spotlightIndexingEnabled", attributes, property: name)
        attribute.allowsExternalBinaryDataStorage = try flag("allowsExternalBinaryDataStorage", attributes, property: name)
        attribute.preservesValueInHistoryOnDeletion = try flag("preserveAfterDeletion", attributes, property: name)
        attribute.valueTransformerName = attributes["valueTransformerName"]
        attribute.valueClassName = attributes["customClassName"]
        attribute.versionHashModifier = attributes["versionHashModifier"]
        attribute.renamingIdentifier = attributes["renamingIdentifier"] ?? attributes["elementID"]
        attribute.derivationExpression = attributes["derivationExpression"]
        if try flag("derived", attributes, property: name), attribute.derivationExpression == nil {
            throw error(.missingXMLAttribute("derivationExpression"), property: name)
        }
        attribute.defaultValue = try defaultValue(attributes, type: type, property: name)
        attribute.validationRules = try validationRules(attributes, type: type, property: name)
        return (attribute, attributes["composite"])
    }

    /// The default value: `defaultDateTimeInterval` for dates (seconds since 2001-01-01),
    /// else `defaultValueString` read as the type says.
    private func defaultValue(_ attributes: XMLAttributes, type: AttributeDescription.AttributeType,
                              property: String) throws(ManagedObjectModelError) -> KeyValueConstant? {
        if type == .date, let text = attributes["defaultDateTimeInterval"] {
            guard let date = ModelXMLValue.date(text) else {
                throw error(.invalidValue(text), property: property)
            }
            return date
        }
        guard let text = attributes["defaultValueString"] else { return nil }
        guard let value = ModelXMLValue.defaultValue(text, as: type) else {
            throw error(.invalidValue(text), property: property)
        }
        if value == nil, !text.isEmpty {
            warn("a default value is ignored for an attribute of type \(type.rawValue)", property: property)
        }
        return value
    }

    /// Min/max and pattern rules. Xcode keeps one pair of bounds per attribute: values for
    /// numbers and dates, lengths for strings and binary data.
    private func validationRules(_ attributes: XMLAttributes, type: AttributeDescription.AttributeType,
                                 property: String) throws(ManagedObjectModelError) -> [AttributeValidationRule] {
        var rules: [AttributeValidationRule] = []
        let minimum = type == .date ? attributes["minDateTimeInterval"] ?? attributes["minValueString"] : attributes["minValueString"]
        let maximum = type == .date ? attributes["maxDateTimeInterval"] ?? attributes["maxValueString"] : attributes["maxValueString"]
        for (text, isMinimum) in [(minimum, true), (maximum, false)] {
            guard let text, !text.isEmpty else { continue }
            switch type {
            case .integer16, .integer32, .integer64, .decimal, .double, .float, .date:
                let value = type == .date ? ModelXMLValue.date(text) : ModelXMLValue.number(text, as: type)
                guard let value else { throw error(.invalidValue(text), property: property) }
                rules.append(isMinimum ? .minimumValue(value) : .maximumValue(value))
            case .string, .binaryData:
                guard let length = ModelXMLValue.count(text) else { throw error(.invalidValue(text), property: property) }
                rules.append(isMinimum ? .minimumLength(length) : .maximumLength(length))
            case .boolean, .uuid, .uri, .transformable, .objectID, .composite, .undefined:
                warn("a \(isMinimum ? "minimum" : "maximum") is ignored for an attribute of type \(type.rawValue)",
                     property: property)
            }
        }
        if let pattern = attributes["regularExpressionString"], !pattern.isEmpty {
            rules.append(.regularExpression(pattern))
        }
        return rules
    }

    /// A relationship from a `<relationship>` element.
    func makeRelationship(_ attributes: XMLAttributes) throws(ManagedObjectModelError) -> RelationshipDescription {
        let name = try required("name", attributes)
        let destination = try required("destinationEntity", attributes, property: name)
        let toMany = try flag("toMany", attributes, property: name)
        let ordered = try flag("ordered", attributes, property: name)
        var deleteRule = RelationshipDescription.DeleteRule.nullify
        if let text = attributes["deletionRule"] {
            guard let rule = RelationshipDescription.DeleteRule(rawValue: text) else {
                throw error(.invalidValue("deletionRule=\"\(text)\""), property: name)
            }
            deleteRule = rule
        }
        let inverse = attributes["inverseName"]
        if let inverseEntity = attributes["inverseEntity"], inverse != nil, inverseEntity != destination {
            throw error(.inverseMismatch("inverseEntity '\(inverseEntity)' is not the destination entity '\(destination)'"),
                        property: name)
        }
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse,
            cardinality: toMany ? (ordered ? .orderedToMany : .toMany) : .toOne, deleteRule: deleteRule,
            isOptional: try flag("optional", attributes, property: name))
        relationship.isTransient = try flag("transient", attributes, property: name)
        relationship.minCount = try count("minCount", attributes, property: name, default: 0)
        relationship.maxCount = try count("maxCount", attributes, property: name, default: toMany ? 0 : 1)
        relationship.isIndexed = try flag("indexed", attributes, property: name)
        relationship.isIndexedBySpotlight = try flag("spotlightIndexingEnabled", attributes, property: name)
        relationship.versionHashModifier = attributes["versionHashModifier"]
        relationship.renamingIdentifier = attributes["renamingIdentifier"] ?? attributes["elementID"]
        return relationship
    }
}
