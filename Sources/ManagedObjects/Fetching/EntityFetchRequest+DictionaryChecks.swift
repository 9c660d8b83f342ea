// The names a dictionary fetch uses, checked against the model before any store runs it.
import Foundation
import Predicates

extension EntityFetchRequest {
    /// Checks the names of a dictionary fetch against `model`: every key and every key path an
    /// expression reads names a property of the entity (or of one of its subentities), through
    /// relationships for a key path; no two different entries of ``propertiesToFetch`` share a
    /// name (one would replace the other's values); the ``havingPredicate`` reads only
    /// names of fetched entries (it is evaluated on the result dictionaries, which hold nothing
    /// else). A request whose entity the model lacks is left for the fetch to refuse.
    ///
    /// - Throws: ``ManagedObjectContextError/invalidDictionaryFetch(_:)`` naming the entity and
    ///   the key.
    /// - Complexity: O(*n*) in the size of the names, expressions and predicate.
    func checkDictionaryNames(in model: ManagedObjectModel) throws {
        guard let entity = model.entity(named: entityName) else { return }
        func invalid(_ text: String) -> ManagedObjectContextError { .invalidDictionaryFetch(text) }
        func check(_ entry: PropertyToFetch, in list: String) throws {
            var paths: [String] = []
            switch entry {
            case .key(let path): paths = [path]
            case .expression(let description): Self.collectKeyPaths(description.expression, into: &paths)
            }
            for path in paths {
                if let unknown = Self.unknownComponent(of: path, from: entity, in: model) {
                    throw invalid("the entity '\(unknown.entity)' has no property '\(unknown.name)' (\(list) reads '\(path)')")
                }
            }
        }
        var byName: [String: PropertyToFetch] = [:]
        for entry in propertiesToFetch {
            try check(entry, in: "propertiesToFetch")
            if let earlier = byName.updateValue(entry, forKey: entry.name), earlier != entry {
                throw invalid("two entries of propertiesToFetch are named '\(entry.name)' (each result has one value per name)")
            }
        }
        for entry in propertiesToGroupBy { try check(entry, in: "propertiesToGroupBy") }
        if let havingPredicate {
            var paths: [String] = []
            Self.collectKeyPaths(havingPredicate, into: &paths)
            let columns = propertiesToFetch.isEmpty
                ? Set(entity.allProperties.compactMap { $0.attribute?.name })
                : Set(byName.keys)
            // The dictionaries are read by key path: the first key names the entry.
            for path in paths {
                let first = String(path.prefix { $0 != "." })
                if columns.contains(first) || first.hasPrefix("@") { continue }
                let hint = columns.contains(path)
                    ? "; a fetched key path cannot be compared there (the dictionaries are read by key path): "
                        + "fetch it as an expression description with a plain name"
                    : ""
                throw invalid("havingPredicate reads '\(path)', which is not the name of an entry of propertiesToFetch "
                    + "(fetched: \(columns.sorted().joined(separator: ", "))); it is evaluated on the result dictionaries\(hint)")
            }
        }
    }

    /// The first component of `path` that names no property, with the entity it was looked
    /// up in; `nil` when every component before an attribute, a fetched property or a
    /// collection operator names a property. A relationship leads on to its destination.
    private static func unknownComponent(of path: String, from entity: EntityDescription,
                                         in model: ManagedObjectModel) -> (entity: String, name: String)? {
        var current = entity
        for component in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            if component.hasPrefix("@") || component == "self" || component == "SELF" { return nil }
            guard let property = property(named: component, in: current, model: model) else {
                return (current.name, component)
            }
            guard case .relationship(let relationship) = property,
                  let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
            current = destination
        }
        return nil
    }

    /// The property `name` of `entity` or, failing that, of one of its descendants (a fetch
    /// of an entity includes its subentities' objects).
    private static func property(named name: String, in entity: EntityDescription, model: ManagedObjectModel) -> PropertyDescription? {
        if let property = entity.property(named: name) { return property }
        for sub in entity.subentityNames {
            if let entity = model.entity(named: sub), let property = property(named: name, in: entity, model: model) { return property }
        }
        return nil
    }

    /// The key paths a predicate reads of the evaluated object (not those inside a subquery,
    /// which read its variable).
    static func collectKeyPaths(_ predicate: KeyValuePredicate, into paths: inout [String]) {
        switch predicate.kind {
        case .constant, .block:
            break
        case .comparison(let comparison):
            collectKeyPaths(comparison.leftExpression, into: &paths)
            collectKeyPaths(comparison.rightExpression, into: &paths)
        case .and(let list), .or(let list):
            for sub in list { collectKeyPaths(sub, into: &paths) }
        case .not(let sub):
            collectKeyPaths(sub, into: &paths)
        }
    }

    /// The key paths an expression reads of the evaluated object.
    static func collectKeyPaths(_ expression: KeyValueExpression, into paths: inout [String]) {
        switch expression {
        case .evaluatedObject, .constant, .variable, .indexSymbol:
            break
        case .keyPath(let path):
            paths.append(path)
        case .keyPathOf(let base, _), .subquery(let base, _, _):
            collectKeyPaths(base, into: &paths)
        case .aggregate(let list), .function(_, let list):
            for item in list { collectKeyPaths(item, into: &paths) }
        case .conditional(let predicate, let a, let b):
            collectKeyPaths(predicate, into: &paths)
            collectKeyPaths(a, into: &paths)
            collectKeyPaths(b, into: &paths)
        case .index(let a, let b), .setOperation(let a, _, let b):
            collectKeyPaths(a, into: &paths)
            collectKeyPaths(b, into: &paths)
        }
    }
}
