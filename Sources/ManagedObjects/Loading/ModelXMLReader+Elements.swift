// What each element of a model file starts and finishes: entities, constraints, indexes,
// templates, configurations, user info.
import Foundation
import Predicates

extension ModelXMLReader {
    typealias XMLAttributes = [String: String]

    /// Begins an element (its kind is already on the stack).
    func start(_ kind: ModelXMLElement, attributes: XMLAttributes) throws(ManagedObjectModelError) {
        switch kind {
        case .entity:
            entityLine = line
            propertyLines = []
            constraintLines = []
            indexLines = []
            entity = try makeEntity(attributes)
        case .attribute:
            propertyLine = line
            let made = try makeAttribute(attributes)
            attribute = made.attribute
            attributeCompositeName = made.composite
        case .relationship:
            propertyLine = line
            relationship = try makeRelationship(attributes)
        case .fetchedProperty:
            propertyLine = line
            let name = try required("name", attributes)
            var property = FetchedPropertyDescription(name: name, fetchRequest: EntityFetchRequest(entityName: ""))
            property.isOptional = try flag("optional", attributes, property: name, default: true)
            property.versionHashModifier = attributes["versionHashModifier"]
            property.renamingIdentifier = attributes["renamingIdentifier"] ?? attributes["elementID"]
            fetchedProperty = property
            fetchedPropertyHasRequest = false
        case .fetchRequest:
            try startFetchRequest(attributes)
        case .entry:
            try addUserInfoEntry(attributes)
        case .uniquenessConstraint:
            constraint = []
            constraintValueLines = []
        case .constraint:
            constraint.append(try required("value", attributes))
            constraintValueLines.append(line)
        case .fetchIndex:
            fetchIndex = FetchIndexDescription(name: try required("name", attributes), elements: [])
            fetchIndexLine = line
        case .fetchIndexElement:
            try addFetchIndexElement(attributes)
        case .configuration:
            let name = try required("name", attributes)
            configuration = (name, [])
            result.configurationLines[name] = line
            result.memberLines[name] = []
        case .memberEntity:
            let name = try required("name", attributes)
            configuration?.members.append(name)
            if let configuration { result.memberLines[configuration.name, default: []].append(line) }
        case .composite:
            composite = (try required("name", attributes), [])
        case .model, .userInfo, .uniquenessConstraints, .layout, .skipped:
            break
        }
    }

    /// Finishes an element (already popped from the stack).
    func end(_ kind: ModelXMLElement) throws(ManagedObjectModelError) {
        switch kind {
        case .entity:
            guard let finished = entity.take() else { return }
            result.entities.append(finished)
            result.entityLines.append(entityLine)
            result.propertyLines.append(propertyLines)
            result.constraintLines.append(constraintLines)
            result.indexLines.append(indexLines)
        case .attribute:
            guard let finished = attribute.take() else { return }
            // The parent (already popped to) is a composite declaration or an entity.
            if ancestor(0) == .composite {
                composite?.elements.append(finished)
            } else {
                if let name = attributeCompositeName {
                    result.compositeUses.append((result.entities.count, propertyLines.count, name, propertyLine))
                }
                addProperty(.attribute(finished))
            }
        case .relationship:
            guard let finished = relationship.take() else { return }
            addProperty(.relationship(finished))
        case .fetchedProperty:
            guard let finished = fetchedProperty.take() else { return }
            guard fetchedPropertyHasRequest else {
                line = propertyLine
                throw error(.malformedXML("the fetched property has no <fetchRequest> element"), property: finished.name)
            }
            addProperty(.fetchedProperty(finished))
        case .uniquenessConstraint:
            if !constraint.isEmpty {
                entity?.uniquenessConstraints.append(constraint)
                constraintLines.append(constraintValueLines)
            }
        case .fetchIndex:
            guard let finished = fetchIndex.take() else { return }
            entity?.indexes.append(finished)
            indexLines.append(fetchIndexLine)
        case .configuration:
            guard let finished = configuration.take() else { return }
            result.configurations[finished.name] = finished.members
        case .composite:
            guard let finished = composite.take() else { return }
            result.composites[finished.name] = finished.elements
        case .model:
            try resolveComposites()
        case .fetchRequest, .entry, .constraint, .fetchIndexElement, .memberEntity, .userInfo,
             .uniquenessConstraints, .layout, .skipped:
            break
        }
    }

    // MARK: Helpers

    /// The value of a required XML attribute.
    func required(_ key: String, _ attributes: XMLAttributes, property: String? = nil) throws(ManagedObjectModelError) -> String {
        guard let value = attributes[key] else { throw error(.missingXMLAttribute(key), property: property) }
        return value
    }

    /// A `YES`/`NO` XML attribute; `defaultValue` when absent.
    func flag(_ key: String, _ attributes: XMLAttributes, property: String?,
              default defaultValue: Bool = false) throws(ManagedObjectModelError) -> Bool {
        guard let text = attributes[key] else { return defaultValue }
        guard let value = ModelXMLValue.flag(text) else {
            throw error(.invalidValue("\(key)=\"\(text)\""), property: property)
        }
        return value
    }

    /// A count XML attribute (`minCount`, `fetchLimit`…); `defaultValue` when absent.
    func count(_ key: String, _ attributes: XMLAttributes, property: String?,
               default defaultValue: Int) throws(ManagedObjectModelError) -> Int {
        guard let text = attributes[key] else { return defaultValue }
        guard let value = ModelXMLValue.count(text) else {
            throw error(.invalidValue("\(key)=\"\(text)\""), property: property)
        }
        return value
    }

    private func addProperty(_ property: consuming PropertyDescription) {
        entity?.properties.append(property)
        propertyLines.append(propertyLine)
    }

    private func startFetchRequest(_ attributes: XMLAttributes) throws(ManagedObjectModelError) {
        if ancestor(1) == .fetchedProperty {
            let owner = fetchedProperty?.name
            fetchedProperty?.fetchRequest = try makeFetchRequest(attributes, property: owner)
            fetchedPropertyHasRequest = true
            return
        }
        let name = try required("name", attributes)
        let label = "fetch request template \(name)"
        let request = try makeFetchRequest(attributes, property: label)
        if result.templates[name] != nil {
            warn("a second fetch request template named '\(name)' replaces the first", property: label)
        }
        result.templates[name] = request
        result.templateLines[name] = line
    }

    /// A fetch request from a `<fetchRequest>` element (a template or a fetched property's).
    private func makeFetchRequest(_ attributes: XMLAttributes, property: String?) throws(ManagedObjectModelError) -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: try required("entity", attributes, property: property))
        if let format = attributes["predicateString"],
           !format.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) {
            do {
                request.predicate = try KeyValuePredicate(format: format)
            } catch {
                throw self.error(.invalidPredicate(error.description), property: property)
            }
        }
        request.fetchLimit = try count("fetchLimit", attributes, property: property, default: 0)
        request.fetchBatchSize = try count("fetchBatchSize", attributes, property: property, default: 0)
        request.fetchOffset = try count("fetchOffset", attributes, property: property, default: 0)
        request.includesSubentities = try flag(attributes["includesSubentities"] != nil ? "includesSubentities" : "includeSubentities",
                                               attributes, property: property, default: true)
        request.includesPendingChanges = try flag(attributes["includesPendingChanges"] != nil ? "includesPendingChanges" : "includePendingChanges",
                                                  attributes, property: property, default: true)
        request.returnsObjectsAsFaults = try flag("returnObjectsAsFaults", attributes, property: property, default: true)
        request.includesPropertyValues = try flag("includePropertyValues", attributes, property: property, default: true)
        request.returnsDistinctResults = try flag("returnDistinctResults", attributes, property: property)
        if let text = attributes["resultType"] {
            guard let type = ModelXMLValue.resultType(text) else {
                throw error(.invalidValue("resultType=\"\(text)\""), property: property)
            }
            request.resultType = type
        }
        return request
    }

    private func addUserInfoEntry(_ attributes: XMLAttributes) throws(ManagedObjectModelError) {
        let key = try required("key", attributes, property: currentProperty)
        let value = attributes["value"] ?? ""
        switch ancestor(2) {
        case .entity: entity?.userInfo[key] = value
        case .attribute: attribute?.userInfo[key] = value
        case .relationship: relationship?.userInfo[key] = value
        case .fetchedProperty: fetchedProperty?.userInfo[key] = value
        default: break
        }
    }

    private func addFetchIndexElement(_ attributes: XMLAttributes) throws(ManagedObjectModelError) {
        let label = fetchIndex.map { "index \($0.name)" }
        if attributes["property"] == nil, let expression = attributes["expression"] {
            warn("an index element over the expression '\(expression)' is skipped (only properties are indexed)",
                 property: label)
            return
        }
        let property = try required("property", attributes, property: label)
        var element = FetchIndexDescription.Element(propertyName: property)
        if let text = attributes["type"] {
            guard let kind = FetchIndexDescription.Element.Kind(rawValue: text) else {
                throw error(.invalidValue("type=\"\(text)\""), property: label)
            }
            element.kind = kind
        }
        switch attributes["order"] {
        case nil, "ascending": element.isAscending = true
        case "descending": element.isAscending = false
        case let text?: throw error(.invalidValue("order=\"\(text)\""), property: label)
        }
        fetchIndex?.elements.append(element)
    }

    private func resolveComposites() throws(ManagedObjectModelError) {
        for use in result.compositeUses {
            guard let elements = result.composites[use.composite] else {
                let entityName = result.entities[use.entity].name
                let property = result.entities[use.entity].properties[use.property].name
                throw ManagedObjectModelError(.invalidValue("composite=\"\(use.composite)\" (no such composite)"),
                                              entity: entityName, property: property, file: file, line: use.line)
            }
            if case .attribute(var attribute) = result.entities[use.entity].properties[use.property] {
                attribute.elements = elements
                result.entities[use.entity].properties[use.property] = .attribute(attribute)
            }
        }
    }

    /// The name of the property being read.
    var currentProperty: String? {
        attribute?.name ?? relationship?.name ?? fetchedProperty?.name
    }
}
