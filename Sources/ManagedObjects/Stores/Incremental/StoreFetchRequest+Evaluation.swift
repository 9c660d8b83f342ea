// The in-memory fetch for stores that cannot filter or sort their backing data themselves.
import Foundation
import KeyValueCoding
import Predicates

extension StoreFetchRequest {
    /// Applies the request's predicate, order, offset and limit to rows in memory: the
    /// default evaluation a store uses when its backing data cannot filter or sort (a text
    /// file, a web service that returns everything).
    ///
    /// Each row is read as a dictionary of its entity's properties: attribute values, a to-one
    /// relationship's destination ID and a to-many relationship's IDs (rows that leave a
    /// relationship out are read with `nil` there). A predicate or sort key that needs more
    /// than one row (a key path through a relationship such as `crate.label`, a subquery,
    /// `SELF`, a block) or a key the entity does not have is not applied here: the result then
    /// says so (``StoreFetchResult/appliedPredicate`` or
    /// ``StoreFetchResult/appliedOrderAndLimits`` is `false`) and the context evaluates it over
    /// managed objects, so the answer is the same either way.
    ///
    /// ```swift
    /// func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
    ///     try request.evaluate(over: allRowsOfTheFile(), in: model, returningFaults: true)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - rows: Every row of the request's entities (rows of other entities are left out).
    ///   - model: The model the store was loaded for.
    ///   - returningFaults: Whether to answer with the matching objects' IDs and versions
    ///     only (``StoreFetchResult/objectIDs`` and ``StoreFetchResult/objectVersions``; the
    ///     context asks for values when an object is used) rather than the rows. A request
    ///     whose ``includesPropertyValues`` is `false` is answered so either way.
    /// - Returns: The matching rows or IDs, and what of the request was applied; for a
    ///   ``StoreFetchRequest/ResultType/count`` request whose predicate could be applied, the
    ///   number alone.
    /// - Throws: `PredicateEvaluationError` (a value of the wrong kind for its operator), as
    ///   the context would throw it.
    /// - Complexity: O(*n* log *n*) in the number of rows.
    public func evaluate(over rows: [StoreRow], in model: ManagedObjectModel, returningFaults: Bool = false) throws -> StoreFetchResult {
        let wanted = Set(entityNames)
        var matching = rows.filter { wanted.contains($0.objectID.entityName) }
        let entities = entityNames.compactMap(model.entity(named:))
        let readable = RowKeys(entities: entities)
        var appliedPredicate = true
        if let predicate {
            if readable.canEvaluate(predicate) {
                var kept: [StoreRow] = []
                for row in matching where try predicate.evaluate(with: readable.dictionary(of: row)) { kept.append(row) }
                matching = kept
            } else {
                appliedPredicate = false
            }
        }
        if resultType == .count && appliedPredicate && fetchOffset == 0 && fetchLimit == 0 {
            return StoreFetchResult(count: matching.count)
        }
        var appliedOrder = appliedPredicate
        if appliedOrder && !sortDescriptors.isEmpty {
            if sortDescriptors.allSatisfy({ $0.key.map(readable.canRead) ?? false }) {
                // Each dictionary carries its row's position under a key no property can have.
                var keyed: [[String: Any]] = []
                keyed.reserveCapacity(matching.count)
                for (index, row) in matching.enumerated() {
                    var values = readable.dictionary(of: row)
                    values[Self.positionKey] = index
                    keyed.append(values)
                }
                let order = try keyed.sorted(using: sortDescriptors)
                let rows = matching
                matching = order.compactMap { ($0[Self.positionKey] as? Int).map { rows[$0] } }
            } else {
                appliedOrder = false
            }
        }
        if appliedOrder {
            if fetchOffset > 0 { matching = Array(matching.dropFirst(fetchOffset)) }
            if fetchLimit > 0 && matching.count > fetchLimit { matching = Array(matching.prefix(fetchLimit)) }
        }
        if returningFaults || (resultType == .rows && !includesPropertyValues) {
            return StoreFetchResult(rows: [], objectIDs: matching.map(\.objectID), objectVersions: matching.map(\.version),
                                    appliedPredicate: appliedPredicate, appliedOrderAndLimits: appliedOrder)
        }
        return StoreFetchResult(rows: matching, appliedPredicate: appliedPredicate, appliedOrderAndLimits: appliedOrder)
    }

    /// The key of a row's position in the dictionaries being sorted (not a valid property name).
    private static let positionKey = " position"

}

/// The keys a row can be read at: the properties of the request's entities.
private struct RowKeys {
    /// Attribute names, relationship names, and the to-one relationships among them.
    var attributes: Set<String> = []
    var relationships: Set<String> = []
    var toOne: Set<String> = []

    init(entities: [EntityDescription]) {
        for entity in entities {
            for property in entity.allProperties {
                switch property {
                case .attribute(let attribute): attributes.insert(attribute.name)
                case .relationship(let relationship):
                    relationships.insert(relationship.name)
                    if relationship.cardinality == .toOne { toOne.insert(relationship.name) }
                case .fetchedProperty: break
                }
            }
        }
    }

    /// Whether one row answers `keyPath`: an attribute, a relationship, or a relationship's
    /// `@count`.
    func canRead(_ keyPath: String) -> Bool {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        let first = String(parts[0])
        if parts.count == 1 { return attributes.contains(first) || relationships.contains(first) }
        return parts.count == 2 && parts[1] == "@count" && relationships.contains(first)
    }

    func canEvaluate(_ predicate: KeyValuePredicate) -> Bool {
        switch predicate.kind {
        case .constant: return true
        case .comparison(let comparison):
            return canEvaluate(comparison.leftExpression) && canEvaluate(comparison.rightExpression)
        case .and(let list), .or(let list): return list.allSatisfy(canEvaluate)
        case .not(let inner): return canEvaluate(inner)
        case .block: return false
        }
    }

    func canEvaluate(_ expression: KeyValueExpression) -> Bool {
        switch expression {
        case .constant, .variable, .indexSymbol: return true
        case .keyPath(let path): return canRead(path)
        case .evaluatedObject, .keyPathOf, .subquery: return false
        case .aggregate(let list): return list.allSatisfy(canEvaluate)
        case .function(_, let arguments): return arguments.allSatisfy(canEvaluate)
        case .conditional(let predicate, let a, let b): return canEvaluate(predicate) && canEvaluate(a) && canEvaluate(b)
        case .index(let a, let b), .setOperation(let a, _, let b): return canEvaluate(a) && canEvaluate(b)
        }
    }

    /// The row as a dictionary: attribute values, a to-one's ID, a to-many's IDs.
    func dictionary(of row: StoreRow) -> [String: Any] {
        var values: [String: Any] = [:]
        values.reserveCapacity(row.attributes.count + row.relationships.count)
        for (name, constant) in row.attributes {
            if let value = constant.anyValue { values[name] = value }
        }
        for (name, ids) in row.relationships {
            if toOne.contains(name) {
                if let id = ids.first { values[name] = id }
            } else {
                values[name] = ids
            }
        }
        return values
    }
}
