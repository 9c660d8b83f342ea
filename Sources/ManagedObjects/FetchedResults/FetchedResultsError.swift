// Errors of the fetched results controller.
import Foundation

/// An error from a ``FetchedResultsController``: a request it cannot track, a section key path
/// that does not fit, or a position that is not in the results.
///
/// - Important: Thread safety: a `Sendable` value.
public enum FetchedResultsError: Error, Equatable, Sendable {
    /// The fetch request has no sort descriptors; a controller needs an order (Apple raises an
    /// exception: "An instance of NSFetchedResultsController requires a fetch request with sort
    /// descriptors").
    case missingSortDescriptors(entity: String)
    /// The fetch request names an entity the context's model does not have.
    case unknownEntity(String)
    /// A component of the section key path is not a property of the entity it is read from, or
    /// goes through a to-many relationship (a section needs one value per object).
    case invalidSectionKeyPath(String, entity: String, reason: String)
    /// The objects, in the sort descriptors' order, do not group into runs of one section name:
    /// the first sort descriptor's key must be the section key path or order the objects the
    /// same way (Apple's rule).
    case sectionKeyPathDisagreesWithSort(sectionKeyPath: String, firstSortKey: String, section: String)
    /// A section number that is not in the results.
    case sectionOutOfRange(Int, count: Int)
    /// An index path that is not in the results.
    case indexPathOutOfRange(FetchedResultsIndexPath)
    /// A section index title that no section has.
    case unknownSectionIndexTitle(String)
}

extension FetchedResultsError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the entity, key path, title or position.
    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            return "a fetched results controller needs a fetch request with sort descriptors (the request for '\(entity)' has none)"
        case .unknownEntity(let name):
            return "the model has no entity '\(name)'"
        case .invalidSectionKeyPath(let path, let entity, let reason):
            return "the section key path '\(path)' does not fit the entity '\(entity)': \(reason)"
        case .sectionKeyPathDisagreesWithSort(let path, let key, let section):
            return "the section '\(section)' of the key path '\(path)' is split by the order of the first sort key '\(key)': sort first by the section key path, or by a key that orders the objects the same way"
        case .sectionOutOfRange(let section, let count):
            return "no section \(section) in the results (\(count) sections)"
        case .indexPathOutOfRange(let path):
            return "no object at index path \(path) in the results"
        case .unknownSectionIndexTitle(let title):
            return "no section has the index title '\(title)'"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
