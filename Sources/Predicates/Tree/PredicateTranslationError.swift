// Why a predicate cannot be translated into another language (SQL).
import Foundation

/// Why a predicate cannot be translated into another language, such as a store's SQL.
///
/// ```swift
/// do {
///     try predicate.checkTranslatable()
/// } catch {
///     error.localizedDescription   // "BLOCKPREDICATE(0x…) calls a Swift closure; …"
/// }
/// ```
public enum PredicateTranslationError: Error, Equatable, Sendable {
    /// The predicate contains a block predicate (its `predicateFormat` is given), which only
    /// Swift can evaluate (Apple: a block predicate in a Core Data SQLite fetch is an error).
    case blockPredicate(String)
}

extension PredicateTranslationError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .blockPredicate(let text):
            return "\(text) calls a Swift closure; it can only be evaluated in memory, never translated into a query"
        }
    }
}
