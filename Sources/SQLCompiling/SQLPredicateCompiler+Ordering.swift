// Sort descriptors to ORDER BY terms.
import Foundation
import ManagedObjects
import Predicates

extension SQLPredicateCompiler {
    /// `ORDER BY` terms giving the order of `descriptors` in memory (nil first ascending, last
    /// descending; NaN after nil and before every number; strings as Swift's `String`), with
    /// the values of their placeholders, or `nil` when a key is not an attribute the dialect
    /// orders (through to-ones) or the comparison is one it cannot express (localized, a
    /// closure; case-insensitive where the dialect has no folding collation).
    ///
    /// - Parameter descriptors: The request's sort descriptors.
    /// - Returns: The terms, without the final tie-breaker (the store adds `t0.Z_PK`).
    package func orderTerms(_ descriptors: [KeyValueSortDescriptor]) -> SQLFragment? {
        var terms: [String] = []
        var arguments: [SQLValue] = []
        for descriptor in descriptors {
            guard let key = descriptor.key,
                  case .attribute(let column, let attribute)? = operand(.keyPath(key), in: root, variables: [:]),
                  let term = rules.orderTerms(column.sql, attribute.attributeType, descriptor.comparison,
                                              ascending: descriptor.ascending) else { return nil }
            terms.append(term.sql)
            arguments += term.arguments
        }
        return SQLFragment(terms.joined(separator: ", "), arguments)
    }
}
