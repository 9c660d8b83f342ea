// Which key paths of a controller's request read objects other than the fetched one.
import Foundation
import KeyValueCoding
import Predicates

/// The key paths of a fetch request (predicate, sort descriptors) and section key path that go
/// through relationships to other objects: a change to those objects can move, add or remove
/// results without the fetched objects themselves changing.
struct FetchedResultsDependencies {
    /// Key paths (split into components) that read through a relationship.
    var paths: [[String]] = []
    /// Whether the predicate has parts whose reads cannot be listed (block predicates,
    /// subqueries, key paths of expressions): any change may matter.
    var isOpaque = false
    /// Whether the request limits or offsets its results (a change can pull in or push out
    /// objects that did not change), or leaves out unsaved changes (which the in-place update
    /// would take in).
    var isWindowed = false

    /// Whether results can change through other objects than the changed fetched ones.
    var reachesOtherObjects: Bool { isOpaque || isWindowed || !paths.isEmpty }

    init() {}

    init(request: EntityFetchRequest, sectionNameKeyPath: String?) {
        isWindowed = request.fetchLimit > 0 || request.fetchOffset > 0 || !request.includesPendingChanges
        var keys = request.sortDescriptors.compactMap(\.key)
        if let sectionNameKeyPath { keys.append(sectionNameKeyPath) }
        if let predicate = request.predicate { collect(predicate, into: &keys) }
        for key in keys {
            let components = key.split(separator: ".").map(String.init)
            // `crates.@count` reads only the object's own relationship; `crates.@sum.price`
            // and `theater.name` read the related objects.
            if components.dropFirst().contains(where: { !$0.hasPrefix("@") }) { paths.append(components) }
        }
    }

    private mutating func collect(_ predicate: KeyValuePredicate, into keys: inout [String]) {
        switch predicate.kind {
        case .constant:
            break
        case .comparison(let comparison):
            collect(comparison.leftExpression, into: &keys)
            collect(comparison.rightExpression, into: &keys)
        case .and(let list), .or(let list):
            for sub in list { collect(sub, into: &keys) }
        case .not(let sub):
            collect(sub, into: &keys)
        case .block:
            isOpaque = true
        }
    }

    private mutating func collect(_ expression: KeyValueExpression, into keys: inout [String]) {
        switch expression {
        case .evaluatedObject, .constant, .variable, .indexSymbol:
            break
        case .keyPath(let path):
            keys.append(path)
        case .keyPathOf, .subquery:
            isOpaque = true
        case .aggregate(let list), .function(_, let list):
            for item in list { collect(item, into: &keys) }
        case .conditional(let predicate, let a, let b):
            collect(predicate, into: &keys)
            collect(a, into: &keys)
            collect(b, into: &keys)
        case .index(let a, let b), .setOperation(let a, _, let b):
            collect(a, into: &keys)
            collect(b, into: &keys)
        }
    }

    /// The values `object` reads through relationships (the dependent key paths' values), as
    /// one text: a related object's change matters to `object` when this text changes. The
    /// values of a to-many (`theater.movies.title`) are described in sorted order: a set's
    /// order changes from one reading to the next.
    func signature(of object: ManagedObject) -> String {
        var text = ""
        for path in paths {
            let value = (try? object.value(forKeyPath: path.joined(separator: "."))) ?? nil
            if let value, let collection = keyValueCollection(of: value) {
                text += collection.keyValueElements.map { $0.map { String(describing: $0) } ?? "nil" }.sorted().joined(separator: "\u{2}")
            } else {
                text += value.map { String(describing: $0) } ?? "nil"
            }
            text += "\u{1}"
        }
        return text
    }
}
