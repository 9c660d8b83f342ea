// Entities, attributes and relationships from their XML elements: types, flags, defaults,
// bounds. Each reads its XML attributes in one pass (a switch over the names, no hashing per
// name looked up), since these elements are most of a model file.
import Foundation
import Predicates

/// The XML attributes of an `<attribute>` element, read in one pass.
private struct AttributeXML {
    var name, type, defaultString, defaultInterval, minString, maxString, minInterval, maxInterval: String?
    var pattern, transformer, className, hashModifier, renaming, elementID, derivation, composite: String?
    var optional, transient, indexed, spotlight, external, preserve, derived: String?
    var unknown: [String] = []

    init(_ attributes: [String: String]) {
        for (key, value) in attributes {
            switch key {
            case "name": name = value
            case "attributeType": type = value
            case "optional": optional = value
            case "syncable", "usesScalarValueType", "storedInTruthFile", "allowsCloudEncryption": break
            case "defaultValueString": defaultString = value
            case "defaultDateTimeInterval": defaultInterval = value
            case "minValueString": minString = value
            case "maxValueString": maxString = value
            case "minDateTimeInterval": minInterval = value
            case "maxDateTimeInterval": maxInterval = value
            case "transient": transient = value
            case "indexed": indexed = value
            case "spotlightIndexingEnabled": spotlight = value
            case "allowsExternalBinaryDataStorage": external = value
            case "preserveAfterDeletion": preserve = value
            case "regularExpressionString": pattern = value
            case "valueTransformerName": transformer = value
            case "customClassName": className = value
            case "versionHashModifier": hashModifier = value
            case "renamingIdentifier": renaming = value
            case "elementID": elementID = value
            case "derived": derived = value
            case "derivationExpression": derivation = value
            case "composite": composite = value
            default: unknown.append(key)
            }
        }
    }
}

/// The XML attributes of a `<relationship>` element, read in one pass.
private struct RelationshipXML {
    var name, destination, inverse, inverseEntity, deletionRule, minCount, maxCount: String?
    var hashModifier, renaming, elementID: String?
    var optional, transient, toMany, ordered, indexed, spotlight: String?
    var unknown: [String] = []

    init(_ attributes: [String: String]) {
        for (key, value) in attributes {
            switch key {
            case "name": name = value
            case "optional": optional = value
            case "syncable", "storedInTruthFile", "allowsCloudEncryption": break
            case "toMany": toMany = value
            case "ordered": ordered = value
            case "deletionRule": deletionRule = value
            case "minCount": minCount = value
            case "maxCount": maxCount = value
            case "destinationEntity": destination = value
            case "inverseName": inverse = value
            case "inverseEntity": inverseEntity = value
            case "transient": transient = value
            case "indexed": indexed = value
            case "spotlightIndexingEnabled": spotlight = value
            case "versionHashModifier": hashModifier = value
            case "renamingIdentifier": renaming = value
            case "elementID": elementID = value
            default: unknown.append(key)
            }
        }
    }
}

extension ModelXMLReader {
    /// An entity from an `<entity>` element (its properties follow as child elements).
    func makeEntity(_ attributes: XMLAttributes) throws(ManagedObjectModelError) -> EntityDescription {
        var name, className, parent, abstract, hashModifier, renaming, elementID: String?
        var unknown: [String] = []
        for (key, value) in attributes {
            switch key {
            case "name": name = value
            case "representedClassName": className = value
            case "syncable", "codeGenerationType": break
            case "parentEntity": parent = value
            case "isAbstract": abstract = value
            case "versionHashModifier": hashModifier = value
            case "renamingIdentifier": renaming = value
            case "elementID": elementID = value
            default: unknown.append(key)
            }
        }
        guard let name else { throw error(.missingXMLAttribute("name")) }
        var entity = EntityDescription(name: name, parent: parent,
                                       className: className == "NSManagedObject" ? nil : className)
        self.entity = entity
        entity.isAbstract = try flag(abstract, "isAbstract", property: nil)
        entity.versionHashModifier = hashModifier
        entity.renamingIdentifier = renaming ?? elementID
        warnUnknown(unknown, of: "entity", property: nil)
        return entity
    }

    /// An attribute from an `<attribute>` element, and the composite it names (if any).
    func makeAttribute(_ attributes: XMLAttributes) throws(ManagedObjectModelError)
        -> (attribute: AttributeDescription, composite: String?) {
        let xml = AttributeXML(attributes)
        guard let name = xml.name else { throw error(.missingXMLAttribute("name")) }
        guard let typeName = xml.type else { throw error(.missingXMLAttribute("attributeType"), property: name) }
        guard let type = AttributeDescription.AttributeType(rawValue: typeName) else {
            throw error(.unknownAttributeType(typeName), property: name)
        }
        var attribute = AttributeDescription(name: name, type: type,
                                             isOptional: try flag(xml.optional, "optional", property: name),
                                             isTransient: try flag(xml.transient, "transient", property: name))
        attribute.isIndexed = try flag(xml.indexed, "indexed", property: name)
        attribute.isIndexedBySpotlight = try flag(xml.spotlight, "spotlightIndexingEnabled", property: name)
        attribute.allowsExternalBinaryDataStorage = try flag(xml.external, "allowsExternalBinaryDataStorage", property: name)
        attribute.preservesValueInHistoryOnDeletion = try flag(xml.preserve, "preserveAfterDeletion", property: name)
        attribute.valueTransformerName = xml.transformer
        attribute.valueClassName = xml.className
        attribute.versionHashModifier = xml.hashModifier
        attribute.renamingIdentifier = xml.renaming ?? xml.elementID
        attribute.derivationExpression = xml.derivation
        if try flag(xml.derived, "derived", property: name), xml.derivation == nil {
            throw error(.missingXMLAttribute("derivationExpression"), property: name)
        }
        if type == .date, let interval = xml.defaultInterval {
            guard let date = ModelXMLValue.date(interval) else { throw error(.invalidValue(interval), property: name) }
            attribute.defaultValue = date
        } else if let text = xml.defaultString {
            guard let value = ModelXMLValue.defaultValue(text, as: type) else {
                throw error(.invalidValue(text), property: name)
            }
            if value == nil, !text.isEmpty {
                warn("a default value is ignored for an attribute of type \(type.rawValue)", property: name)
            }
            attribute.defaultValue = value
        }
        let minimum = type == .date ? xml.minInterval ?? xml.minString : xml.minString
        let maximum = type == .date ? xml.maxInterval ?? xml.maxString : xml.maxString
        if let minimum, let rule = try bound(minimum, isMinimum: true, type: type, property: name) {
            attribute.validationRules.append(rule)
        }
        if let maximum, let rule = try bound(maximum, isMinimum: false, type: type, property: name) {
            attribute.validationRules.append(rule)
        }
        if let pattern = xml.pattern, !pattern.isEmpty {
            attribute.validationRules.append(.regularExpression(pattern))
        }
        warnUnknown(xml.unknown, of: "attribute", property: name)
        return (attribute, xml.composite)
    }

    /// A minimum or maximum. Xcode keeps one pair of bounds per attribute: values for numbers
    /// and dates, lengths for strings and binary data.
    private func bound(_ text: String, isMinimum: Bool, type: AttributeDescription.AttributeType,
                       property: String) throws(ManagedObjectModelError) -> AttributeValidationRule? {
        guard !text.isEmpty else { return nil }
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .date:
            let value = type == .date ? ModelXMLValue.date(text) : ModelXMLValue.number(text, as: type)
            guard let value else { throw error(.invalidValue(text), property: property) }
            return isMinimum ? .minimumValue(value) : .maximumValue(value)
        case .string, .binaryData:
            guard let length = ModelXMLValue.count(text) else { throw error(.invalidValue(text), property: property) }
            return isMinimum ? .minimumLength(length) : .maximumLength(length)
        case .boolean, .uuid, .uri, .transformable, .objectID, .composite, .undefined:
            warn("a \(isMinimum ? "minimum" : "maximum") is ignored for an attribute of type \(type.rawValue)",
                 property: property)
            return nil
        }
    }

    /// A relationship from a `<relationship>` element.
    func makeRelationship(_ attributes: XMLAttributes) throws(ManagedObjectModelError) -> RelationshipDescription {
        let xml = RelationshipXML(attributes)
        guard let name = xml.name else { throw error(.missingXMLAttribute("name")) }
        guard let destination = xml.destination else {
            throw error(.missingXMLAttribute("destinationEntity"), property: name)
        }
        let toMany = try flag(xml.toMany, "toMany", property: name)
        let ordered = try flag(xml.ordered, "ordered", property: name)
        var deleteRule = RelationshipDescription.DeleteRule.nullify
        if let text = xml.deletionRule {
            guard let rule = RelationshipDescription.DeleteRule(rawValue: text) else {
                throw error(.invalidValue("deletionRule=\"\(text)\""), property: name)
            }
            deleteRule = rule
        }
        if let inverseEntity = xml.inverseEntity, xml.inverse != nil, inverseEntity != destination {
            throw error(.inverseMismatch("inverseEntity '\(inverseEntity)' is not the destination entity '\(destination)'"),
                        property: name)
        }
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: xml.inverse,
            cardinality: toMany ? (ordered ? .orderedToMany : .toMany) : .toOne, deleteRule: deleteRule,
            isOptional: try flag(xml.optional, "optional", property: name))
        relationship.isTransient = try flag(xml.transient, "transient", property: name)
        relationship.minCount = try count(xml.minCount, "minCount", property: name, default: 0)
        relationship.maxCount = try count(xml.maxCount, "maxCount", property: name, default: toMany ? 0 : 1)
        relationship.isIndexed = try flag(xml.indexed, "indexed", property: name)
        relationship.isIndexedBySpotlight = try flag(xml.spotlight, "spotlightIndexingEnabled", property: name)
        relationship.versionHashModifier = xml.hashModifier
        relationship.renamingIdentifier = xml.renaming ?? xml.elementID
        warnUnknown(xml.unknown, of: "relationship", property: name)
        return relationship
    }

    /// A `YES`/`NO` value already looked up; `false` when absent.
    private func flag(_ text: String?, _ key: String, property: String?) throws(ManagedObjectModelError) -> Bool {
        guard let text else { return false }
        guard let value = ModelXMLValue.flag(text) else {
            throw error(.invalidValue("\(key)=\"\(text)\""), property: property)
        }
        return value
    }

    /// A count already looked up; `defaultValue` when absent.
    private func count(_ text: String?, _ key: String, property: String?,
                       default defaultValue: Int) throws(ManagedObjectModelError) -> Int {
        guard let text else { return defaultValue }
        guard let value = ModelXMLValue.count(text) else {
            throw error(.invalidValue("\(key)=\"\(text)\""), property: property)
        }
        return value
    }

    /// Warns about XML attributes nobody reads, in name order.
    func warnUnknown(_ keys: [String], of elementName: String, property: String?) {
        for key in keys.sorted() {
            warn("unknown XML attribute '\(key)' of <\(elementName)> ignored", property: property)
        }
    }
}
