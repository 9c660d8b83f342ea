// Dictionary results: chosen properties, key paths and expressions, grouped and filtered.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// The matching objects as dictionaries of chosen properties (Apple: result type
    /// `.dictionaryResultType`).
    ///
    /// Each dictionary holds ``EntityFetchRequest/propertiesToFetch`` (every attribute when
    /// empty) by name: attribute values, related objects' IDs for to-one relationships,
    /// values at key paths, and expression results. `nil` values are left out, as Apple does.
    /// With ``EntityFetchRequest/propertiesToGroupBy`` there is one dictionary per group of
    /// objects with equal values of those properties, aggregate expressions computed over
    /// the group, and ``EntityFetchRequest/havingPredicate`` keeping the groups it matches
    /// (evaluated on the dictionaries). Without grouping, a request whose properties are all
    /// aggregates gives one dictionary over all matching objects.
    /// ``EntityFetchRequest/returnsDistinctResults`` drops repeated dictionaries. Offset and
    /// limit apply to the dictionaries.
    ///
    /// - Parameter request: The request.
    /// - Returns: The dictionaries, in the request's order.
    /// - Throws: ``ManagedObjectContextError/invalidDictionaryFetch(_:)``, before any store is
    ///   asked, for a key or key path (in ``EntityFetchRequest/propertiesToFetch``,
    ///   ``EntityFetchRequest/propertiesToGroupBy`` or an expression) naming no property of the
    ///   entity, two different entries of one name, a ``EntityFetchRequest/havingPredicate``
    ///   reading a name that is not fetched, a plain property not grouped by, and a mix of
    ///   aggregates and plain properties without grouping; the errors of ``fetch(_:)`` and of
    ///   key-value coding.
    public func fetchDictionaries(_ request: EntityFetchRequest) throws -> [[String: Any]] {
        // The names are checked before any store runs the fetch, the same for every store.
        try request.checkDictionaryNames(in: model)
        let entity = model.entity(named: request.entityName)
        let columns: [PropertyToFetch] = request.propertiesToFetch.isEmpty
            ? (entity?.allProperties.compactMap { $0.attribute.map { .key($0.name) } } ?? [])
            : request.propertiesToFetch
        if !request.propertiesToGroupBy.isEmpty {
            let groupNames = Set(request.propertiesToGroupBy.map(\.name))
            for column in columns where !column.isAggregate && !groupNames.contains(column.name) {
                throw ManagedObjectContextError.invalidDictionaryFetch("'\(column.name)' is neither grouped by nor an aggregate")
            }
        }
        var objectRequest = request
        objectRequest.fetchOffset = 0
        objectRequest.fetchLimit = 0
        objectRequest.includesPropertyValues = true   // the dictionaries are made of the values
        let objects = try fetch(objectRequest)
        var rows: [[String: Any]]
        if !request.propertiesToGroupBy.isEmpty {
            rows = try groups(of: objects, by: request.propertiesToGroupBy).map { try dictionary(columns, group: $0) }
            if let having = request.havingPredicate { rows = try rows.filter { try having.evaluate(with: $0) } }
        } else if columns.contains(where: \.isAggregate) {
            guard columns.allSatisfy(\.isAggregate) else {
                throw ManagedObjectContextError.invalidDictionaryFetch("aggregates mixed with plain properties need propertiesToGroupBy")
            }
            rows = [try dictionary(columns, group: objects)]
        } else {
            rows = try objects.map { try dictionary(columns, group: [$0]) }
        }
        if request.returnsDistinctResults {
            var seen = Set<KeyValueConstant>()
            rows = rows.filter { seen.insert(KeyValueConstant($0)).inserted }
        }
        if request.fetchOffset > 0 { rows = Array(rows.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 && rows.count > request.fetchLimit { rows = Array(rows.prefix(request.fetchLimit)) }
        return rows
    }

    /// Objects grouped by equal values of `keys`, groups in order of first appearance.
    private func groups(of objects: [ManagedObject], by keys: [PropertyToFetch]) throws -> [[ManagedObject]] {
        var order: [KeyValueConstant] = []
        var members: [KeyValueConstant: [ManagedObject]] = [:]
        for object in objects {
            let key = KeyValueConstant(try keys.map { try Self.value(of: $0, for: [object]) as Any? })
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(object)
        }
        return order.map { members[$0]! }
    }

    private func dictionary(_ columns: [PropertyToFetch], group: [ManagedObject]) throws -> [String: Any] {
        var row: [String: Any] = [:]
        for column in columns {
            if let value = try Self.value(of: column, for: group) { row[column.name] = value }
        }
        return row
    }

    /// A column's value for a group: an aggregate over the group, otherwise the first object's.
    private static func value(of column: PropertyToFetch, for group: [ManagedObject]) throws -> Any? {
        switch column {
        case .key(let path):
            guard let first = group.first else { return nil }
            let value = try first.value(forKeyPath: path)
            return (value as? ManagedObject)?.objectID ?? value
        case .expression(let description):
            if case .function(let function, let arguments) = description.expression, column.isAggregate,
               case .keyPath(let path)? = arguments.first {
                let values = try group.compactMap { try $0.value(forKeyPath: path) }
                if function == .count { return values.count }
                guard !values.isEmpty else { return nil }
                return try KeyValueExpression.function(function, [.constant(KeyValueConstant(values))]).expressionValue(with: nil)
            }
            return try group.first.flatMap { try description.expression.expressionValue(with: $0) }
        }
    }
}

extension PropertyToFetch {
    /// Whether the entry is an aggregate function of one key path.
    var isAggregate: Bool {
        guard case .expression(let description) = self, case .function(let function, let arguments) = description.expression,
              arguments.count == 1, case .keyPath = arguments[0] else { return false }
        return [.sum, .count, .min, .max, .average, .median].contains(function)
    }
}
