// The resolved, immutable form of a model's entities: hierarchy filled in and checked.
import Foundation
import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// A model's entities with their hierarchy resolved: inherited properties and subentity names
/// filled in, every reference checked. Immutable; the managed-object layer and stores read it
/// without locks.
package final class ModelGraph: Sendable {
    /// The entities in declaration order, resolved, without their version hashes (computed on
    /// first use: loading a model does not pay for hashes nobody asks for).
    private let unhashed: [EntityDescription]
    private let hashed = Mutex<[EntityDescription]?>(nil)

    /// The entities in declaration order, resolved, with their version hashes.
    package var entities: [EntityDescription] {
        if let done = hashed.withTrackedLock(self, { $0 }) { return done }
        var entities = unhashed
        VersionHashing.resolve(&entities, index: indexByName)
        return hashed.withTrackedLock(self) { stored in
            if let done = stored { return done }
            stored = entities
            return entities
        }
    }
    /// Entity index by name.
    package let indexByName: [String: Int]
    /// Inverse-less relationships and the like.
    package let warnings: [ManagedObjectModelWarning]
    /// The storage layouts of the entities' managed objects, built on first use.
    package let layouts: EntityLayoutCache

    /// Resolves and checks `declared`.
    ///
    /// - Throws: ``ManagedObjectModelError`` for the first problem found, in entity order.
    package init(entities declared: [EntityDescription]) throws(ManagedObjectModelError) {
        // By index throughout: iterating copies whole entities.
        var index: [String: Int] = [:]
        index.reserveCapacity(declared.count)
        for i in declared.indices {
            let name = declared[i].name
            if let problem = Self.nameProblem(name) {
                throw ManagedObjectModelError(.invalidName(problem), entity: name)
            }
            for property in declared[i].properties {
                if let problem = Self.nameProblem(property.name) {
                    throw ManagedObjectModelError(.invalidName(problem), entity: name, property: property.name)
                }
            }
            guard index.updateValue(i, forKey: name) == nil else {
                throw ManagedObjectModelError(.duplicateEntity, entity: name)
            }
        }
        // Parents exist, no cycles, no deeper than the maximum depth. An entity whose ancestry
        // was already walked is known good (and its depth known), so each walk stops there:
        // linear in the number of entities, however deep the tree. Checked before anything
        // walks the hierarchy by recursion (version hashes, entity numbering).
        var knownGood = [Bool](repeating: false, count: declared.count)
        var depths = [Int](repeating: 0, count: declared.count)
        for start in declared.indices where !knownGood[start] {
            var chain = [declared[start].name]
            var onChain: Set<String> = [declared[start].name]
            var walked = [start]
            var currentName = declared[start].name
            var parentName = declared[start].parentName
            while let parent = parentName {
                guard let p = index[parent] else {
                    throw ManagedObjectModelError(.unknownParentEntity(parent), entity: currentName)
                }
                if knownGood[p] { break }
                if !onChain.insert(parent).inserted {
                    throw ManagedObjectModelError(.inheritanceCycle(chain + [parent]), entity: declared[start].name)
                }
                chain.append(parent)
                walked.append(p)
                currentName = parent
                parentName = declared[p].parentName
            }
            // The last entity walked is a root or the child of a known-good entity.
            var depth = declared[walked[walked.count - 1]].parentName.flatMap { index[$0] }.map { depths[$0] + 1 } ?? 0
            for w in walked.reversed() {
                depths[w] = depth
                knownGood[w] = true
                depth += 1
            }
            if depths[start] > ManagedObjectModel.maximumInheritanceDepth {
                throw ManagedObjectModelError(.inheritanceTooDeep(depths[start]), entity: declared[start].name)
            }
        }
        var resolved = declared.map(\.declared)
        for i in resolved.indices {
            var inherited: [PropertyDescription] = []
            var ancestors: [Int] = []
            var parent = resolved[i].parentName
            while let name = parent, let p = index[name] {
                ancestors.append(p)
                parent = declared[p].parentName
            }
            for p in ancestors.reversed() { inherited += declared[p].properties }
            resolved[i].inheritedProperties = inherited
            // Inherited names, then own names, by index (no concatenated copy of the properties).
            var seen = Set<String>(minimumCapacity: inherited.count + resolved[i].properties.count)
            for j in inherited.indices where !seen.insert(inherited[j].name).inserted {
                throw ManagedObjectModelError(.duplicateProperty, entity: resolved[i].name, property: inherited[j].name)
            }
            for j in resolved[i].properties.indices where !seen.insert(resolved[i].properties[j].name).inserted {
                throw ManagedObjectModelError(.duplicateProperty, entity: resolved[i].name, property: resolved[i].properties[j].name)
            }
            if let parentName = resolved[i].parentName, let p = index[parentName] {
                resolved[p].subentityNameList.append(resolved[i].name)
            }
        }
        for i in resolved.indices { resolved[i].subentityNameList.sort() }
        self.unhashed = resolved
        self.indexByName = index
        var warnings: [ManagedObjectModelWarning] = []
        for i in resolved.indices {
            try Self.checkProperties(of: resolved[i], in: resolved, index: index, warnings: &warnings)
        }
        self.warnings = warnings
        // Each entity with its descendants (what a relationship to it may hold), on first use.
        let names = resolved.map(\.name)
        let parents = resolved.map(\.parentName)
        let positions = index
        self.layouts = EntityLayoutCache {
            var kinds: [String: Set<String>] = [:]
            for (i, name) in names.enumerated() {
                var position: Int? = i
                var steps = 0
                while let current = position, steps <= names.count {
                    kinds[names[current], default: []].insert(name)
                    position = parents[current].flatMap { positions[$0] }
                    steps += 1
                }
            }
            return kinds
        }
    }

    /// Why `name` cannot name an entity or property (a key, a table or column), or `nil`.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        // Bytes first (names are ASCII nearly always); Unicode properties only past ASCII.
        var ascii = true
        for byte in name.utf8 {
            if byte >= 0x80 { ascii = false; continue }
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "@") {
                return "the name '\(name)' contains a space, a control character, '.' or '@' (it must work as a key)"
            }
        }
        if !ascii, name.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            return "the name '\(name)' contains a space, a control character, '.' or '@' (it must work as a key)"
        }
        return nil
    }

    /// The entity named `name`.
    package func entity(named name: String) -> EntityDescription? {
        guard let i = indexByName[name] else { return nil }
        return entities[i]
    }

    /// The entities by name.
    package var entitiesByName: [String: EntityDescription] {
        let entities = self.entities
        return indexByName.mapValues { entities[$0] }
    }

    /// Whether `name` is `ancestor` or one of its descendants.
    package func isKind(_ name: String, of ancestor: String) -> Bool {
        var current: String? = name
        while let c = current {
            if c == ancestor { return true }
            current = entity(named: c)?.parentName
        }
        return false
    }

    /// Checks configuration members and template entities.
    package func check(configurations: [String: [String]], templates: [String: EntityFetchRequest]) throws(ManagedObjectModelError) {
        for (name, members) in configurations.sorted(by: { $0.key < $1.key }) {
            for member in members where indexByName[member] == nil {
                throw ManagedObjectModelError(.unknownEntity(member), property: "configuration \(name)")
            }
        }
        for (name, request) in templates.sorted(by: { $0.key < $1.key }) where indexByName[request.entityName] == nil {
            throw ManagedObjectModelError(.unknownEntity(request.entityName), property: "fetch request template \(name)")
        }
    }

    private static func checkProperties(of entity: EntityDescription, in entities: [EntityDescription],
                                         index: [String: Int],
                                         warnings: inout [ManagedObjectModelWarning]) throws(ManagedObjectModelError) {
        for property in entity.properties {
            switch property {
            case .attribute(let attribute):
                if attribute.attributeType == .undefined && !attribute.isTransient {
                    throw ManagedObjectModelError(.undefinedAttributeNotTransient, entity: entity.name, property: attribute.name)
                }
                // The property names are needed only to check a derivation's keys.
                let names = attribute.isDerived ? Set(entity.allProperties.map(\.name)) : nil
                try attribute.checkModelValues(entity: entity.name, propertyNames: names)
            case .relationship(let relationship):
                try checkRelationship(relationship, of: entity, in: entities, index: index, warnings: &warnings)
            case .fetchedProperty(let fetched):
                if index[fetched.fetchRequest.entityName] == nil {
                    throw ManagedObjectModelError(.unknownEntity(fetched.fetchRequest.entityName),
                                                  entity: entity.name, property: fetched.name)
                }
            }
        }
        // Built only for entities that have constraints or indexes (most have none).
        guard !entity.uniquenessConstraints.isEmpty || !entity.indexes.isEmpty else { return }
        let names = Set(entity.allProperties.map(\.name))
        for constraint in entity.uniquenessConstraints {
            for name in constraint where !names.contains(name) {
                throw ManagedObjectModelError(.unknownProperty(name), entity: entity.name)
            }
        }
        for fetchIndex in entity.indexes {
            for element in fetchIndex.elements where !names.contains(element.propertyName) {
                throw ManagedObjectModelError(.unknownProperty(element.propertyName), entity: entity.name,
                                              property: "index \(fetchIndex.name)")
            }
        }
    }

    /// The relationship named `name` among `properties`, found without copying the others.
    private static func findRelationship(named name: String, in properties: [PropertyDescription]) -> RelationshipDescription? {
        for i in properties.indices where properties[i].name == name { return properties[i].relationship }
        return nil
    }

    private static func checkRelationship(_ relationship: RelationshipDescription, of entity: EntityDescription,
                                          in entities: [EntityDescription], index: [String: Int],
                                          warnings: inout [ManagedObjectModelWarning]) throws(ManagedObjectModelError) {
        guard let d = index[relationship.destinationEntityName] else {
            throw ManagedObjectModelError(.unknownDestinationEntity(relationship.destinationEntityName),
                                          entity: entity.name, property: relationship.name)
        }
        guard let inverseName = relationship.inverseName else {
            warnings.append(ManagedObjectModelWarning(
                "the relationship has no inverse; Core Data keeps inverse-less relationships consistent only by hand",
                entity: entity.name, property: relationship.name))
            return
        }
        let destination = entities[d]
        // A search, not `relationshipsByName`, which would build a dictionary per relationship.
        guard let inverse = findRelationship(named: inverseName, in: destination.properties)
                ?? findRelationship(named: inverseName, in: destination.inheritedProperties) else {
            var error = ManagedObjectModelError(.unknownInverse(inverseName), entity: entity.name, property: relationship.name)
            let names = (destination.inheritedProperties + destination.properties).compactMap { $0.relationship?.name }
            error.hint = " '\(destination.name)'"
                + KeyValueCodingError.propertyHint(for: inverseName, among: names, noun: "relationships")
            throw error
        }
        // The inverse must come back to this entity (or an ancestor or descendant of it, since
        // a relationship declared on a parent serves its subentities), and name this one back.
        let graphIsKind = { (name: String, ancestor: String) -> Bool in
            var current: String? = name
            while let c = current {
                if c == ancestor { return true }
                current = index[c].flatMap { entities[$0].parentName }
            }
            return false
        }
        let back = inverse.destinationEntityName
        guard graphIsKind(entity.name, back) || graphIsKind(back, entity.name) else {
            throw ManagedObjectModelError(
                .inverseMismatch("'\(destination.name).\(inverseName)' leads to '\(back)', not to '\(entity.name)'"),
                entity: entity.name, property: relationship.name)
        }
        if let backName = inverse.inverseName, backName != relationship.name {
            throw ManagedObjectModelError(
                .inverseMismatch("'\(destination.name).\(inverseName)' names '\(backName)' as its inverse"),
                entity: entity.name, property: relationship.name)
        }
    }
}
