// Version hashes: the byte layout Core Data feeds to SHA-256 for properties and entities.
import Foundation
import ObjectGraphInternals

/// An entity's version hash computed inside its model, with the declaration it was computed
/// for: a copy of the entity changed afterwards no longer uses it.
package struct ResolvedVersionHash: Sendable {
    /// The hash, computed with the whole hierarchy.
    package let hash: Data
    /// The entity as declared when hashed (one element; an array because a value cannot hold
    /// its own type directly).
    package let declaration: [EntityDescription]

    /// Whether `entity` still declares what entered the hash.
    func applies(to entity: EntityDescription) -> Bool {
        guard let d = declaration.first else { return false }
        return d.name == entity.name && d.isAbstract == entity.isAbstract && d.parentName == entity.parentName
            && d.properties == entity.properties && d.uniquenessConstraints == entity.uniquenessConstraints
            && d.versionHashModifier == entity.versionHashModifier
    }
}

/// Computes Core Data's version hashes (`NSStoreModelVersionHashesVersion` 3).
///
/// The layout was established against the `NSStoreModelVersionHashes` of stores Apple's Core
/// Data wrote (see Docs/ManagedObjects.md, "Version hashes"); every input is a fixed-width
/// little-endian integer or a UTF-8 string, and every list is sorted, so the result is the same
/// on every machine and run.
enum VersionHashing {
    /// Apple's `NSAttributeType` raw values, which enter attribute hashes as 4 bytes.
    static func typeCode(_ type: AttributeDescription.AttributeType) -> UInt64 {
        switch type {
        case .undefined: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binaryData: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }

    /// Orders names as `NSString.compare(_:)` does for them: by UTF-16 code units.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// The common part (Apple: `NSPropertyDescription`): name, a 2-byte flag word
    /// (optional 1, transient 2, read-only 4), then the modifier.
    static func property(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
        var sha = SHA256Digest()
        sha.update(name.utf8)
        let flags: UInt64 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        sha.update(littleEndian: flags, width: 2)
        if let modifier { sha.update(modifier.utf8) }
        return sha.finalize()
    }

    /// An attribute: the common hash, the 4-byte type, then one byte each when external
    /// storage is allowed and when the value is preserved in history on deletion. Derived and
    /// composite attributes follow Apple's own layouts (see ``derived(_:)``, ``composite(_:)``).
    static func attribute(_ attribute: AttributeDescription) -> [UInt8] {
        if attribute.isDerived { return derived(attribute) }
        if attribute.attributeType == .composite { return composite(attribute) }
        return plainAttribute(attribute)
    }

    private static func plainAttribute(_ attribute: AttributeDescription) -> [UInt8] {
        var sha = SHA256Digest()
        sha.update(property(name: attribute.name, isOptional: attribute.isOptional,
                            isTransient: attribute.isTransient, modifier: attribute.versionHashModifier))
        sha.update(littleEndian: typeCode(attribute.attributeType), width: 4)
        if attribute.allowsExternalBinaryDataStorage { sha.update([1]) }
        if attribute.preservesValueInHistoryOnDeletion { sha.update([1]) }
        return sha.finalize()
    }

    /// A derived attribute: Core Data hashes the derivation expression's text only.
    private static func derived(_ attribute: AttributeDescription) -> [UInt8] {
        var sha = SHA256Digest()
        sha.update((attribute.derivationExpression ?? "").utf8)
        return sha.finalize()
    }

    /// A composite attribute: the hashes of its stored elements, sorted by name, nested
    /// composites flattened in place.
    private static func composite(_ attribute: AttributeDescription) -> [UInt8] {
        var sha = SHA256Digest()
        func add(_ elements: [AttributeDescription]) {
            for element in elements.sorted(by: { precedes($0.name, $1.name) }) {
                if element.attributeType == .composite {
                    add(element.elements)
                } else if !element.isTransient {
                    sha.update(Self.attribute(element))
                }
            }
        }
        add(attribute.elements)
        return sha.finalize()
    }

    /// A relationship: the common hash, the destination entity's name, the inverse's name
    /// (left out when the relationship is its own inverse), the 4-byte maximum and minimum
    /// counts, and 2 bytes when ordered. The delete rule does not enter.
    static func relationship(_ relationship: RelationshipDescription, isOwnInverse: Bool) -> [UInt8] {
        var sha = SHA256Digest()
        sha.update(property(name: relationship.name, isOptional: relationship.isOptional,
                            isTransient: relationship.isTransient, modifier: relationship.versionHashModifier))
        sha.update(relationship.destinationEntityName.utf8)
        if let inverse = relationship.inverseName, !isOwnInverse { sha.update(inverse.utf8) }
        sha.update(littleEndian: UInt64(truncatingIfNeeded: relationship.maxCount), width: 4)
        sha.update(littleEndian: UInt64(truncatingIfNeeded: relationship.minCount), width: 4)
        if relationship.isOrdered { sha.update(littleEndian: 1, width: 2) }
        return sha.finalize()
    }

    /// A fetched property: the common hash only (its transient flag is not set in Core Data).
    static func fetchedProperty(_ fetched: FetchedPropertyDescription) -> [UInt8] {
        property(name: fetched.name, isOptional: fetched.isOptional, isTransient: false,
                 modifier: fetched.versionHashModifier)
    }

    /// A property outside a model; a relationship counts as its own inverse when it names
    /// itself as its inverse.
    static func standalone(_ property: PropertyDescription) -> [UInt8] {
        switch property {
        case .attribute(let a): return attribute(a)
        case .relationship(let r): return relationship(r, isOwnInverse: r.inverseName == r.name)
        case .fetchedProperty(let f): return fetchedProperty(f)
        }
    }

    /// An entity: its name, 1 byte abstract flag, the parent's hash, the hashes of every stored
    /// (non-transient) attribute and relationship, inherited ones included, sorted by name, the
    /// modifier, then its own uniqueness constraints, each joined with "." and sorted.
    static func entity(_ entity: EntityDescription, parentHash: [UInt8]?,
                       propertyHash: (PropertyDescription) -> [UInt8]) -> [UInt8] {
        var sha = SHA256Digest()
        sha.update(entity.name.utf8)
        sha.update([entity.isAbstract ? 1 : 0])
        if let parentHash { sha.update(parentHash) }
        let stored = entity.allProperties.filter { $0.fetchedProperty == nil && !$0.isTransient }
        for property in stored.sorted(by: { precedes($0.name, $1.name) }) {
            sha.update(propertyHash(property))
        }
        if let modifier = entity.versionHashModifier { sha.update(modifier.utf8) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
        for constraint in constraints.sorted(by: precedes) where !constraint.isEmpty {
            sha.update(constraint.utf8)
        }
        return sha.finalize()
    }

    /// Fills in ``EntityDescription/resolvedVersionHash`` for every entity of a resolved
    /// hierarchy (parents before children; relationships told whether they are their own
    /// inverse from the hierarchy). Unknown names are skipped: the model's checks report them.
    static func resolve(_ entities: inout [EntityDescription], index: [String: Int]) {
        var done: [Int: [UInt8]] = [:]
        func isKind(_ name: String, of ancestor: String) -> Bool {
            var current: String? = name
            var steps = 0
            while let c = current, steps <= entities.count {
                if c == ancestor { return true }
                current = index[c].flatMap { entities[$0].parentName }
                steps += 1
            }
            return false
        }
        // Inherited properties are hashed once, by declaring entity and name.
        var propertyHashes: [String: [String: [UInt8]]] = [:]
        func propertyHash(_ property: PropertyDescription, declaredBy owner: String) -> [UInt8] {
            if let known = propertyHashes[owner]?[property.name] { return known }
            let result: [UInt8]
            if case .relationship(let r) = property {
                let own = r.inverseName == r.name && isKind(r.destinationEntityName, of: owner)
                result = relationship(r, isOwnInverse: own)
            } else {
                result = standalone(property)
            }
            propertyHashes[owner, default: [:]][property.name] = result
            return result
        }
        // One entity whose parent (if any) is hashed already.
        func hashOne(_ i: Int) -> [UInt8] {
            let entity = entities[i]
            let parentHash = entity.parentName.flatMap { index[$0] }.flatMap { done[$0] }
            // Which entity declares each property, for the own-inverse test.
            var owner: [String: String] = [:]
            var chain: [Int] = [i]
            var up = entity.parentName
            while let name = up, let p = index[name], chain.count <= entities.count {
                chain.append(p)
                up = entities[p].parentName
            }
            for e in chain.reversed() {
                for property in entities[e].properties { owner[property.name] = entities[e].name }
            }
            let result = Self.entity(entity, parentHash: parentHash) { property in
                propertyHash(property, declaredBy: owner[property.name] ?? entity.name)
            }
            done[i] = result
            return result
        }
        // Without recursion: the ancestors not hashed yet, nearest first, then hashed from the
        // root down (an entity's hash includes its parent's).
        func hash(_ i: Int) -> [UInt8] {
            if let known = done[i] { return known }
            var pending = [i]
            var up = entities[i].parentName
            while let name = up, let p = index[name], done[p] == nil, pending.count <= entities.count {
                pending.append(p)
                up = entities[p].parentName
            }
            var result: [UInt8] = []
            for e in pending.reversed() { result = hashOne(e) }
            return result
        }
        for i in entities.indices {
            entities[i].resolvedVersionHash = ResolvedVersionHash(hash: Data(hash(i)),
                                                                  declaration: [entities[i].declared])
        }
    }
}
