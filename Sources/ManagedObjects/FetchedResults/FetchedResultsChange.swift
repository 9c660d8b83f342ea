// What changed in a fetched results controller's results: per object and per section.
import Foundation

/// How an object or a section changed (Apple: `NSFetchedResultsChangeType`).
public enum FetchedResultsChangeKind: Sendable, Hashable, CaseIterable {
    /// Came into the results (an object) or appeared (a section).
    case insert
    /// Left the results (an object) or disappeared (a section).
    case delete
    /// Moved to another position (objects only).
    case move
    /// Changed, and stayed at its position (objects only).
    case update
}

/// One object's change in a controller's results, with its index paths (Apple: the arguments
/// of `controller(_:didChange:at:for:newIndexPath:)`).
///
/// The index paths follow the rules of a table view applying a whole batch at once:
/// ``indexPath`` is in the results *before* the batch (for deletes, moves and updates) and
/// ``newIndexPath`` is in the results *after* it (for inserts, moves and updates). An update
/// reloads the row at ``indexPath``.
///
/// - Important: Thread safety: not `Sendable` (it holds the object); use it on the thread of the
///   controller's context.
public struct FetchedResultsChange {
    /// What happened.
    public let kind: FetchedResultsChangeKind
    /// The object.
    public let object: ManagedObject
    /// Where the object was before the batch; `nil` for an insert.
    public let indexPath: FetchedResultsIndexPath?
    /// Where the object is after the batch; `nil` for a delete.
    public let newIndexPath: FetchedResultsIndexPath?

    package init(kind: FetchedResultsChangeKind, object: ManagedObject,
                 indexPath: FetchedResultsIndexPath?, newIndexPath: FetchedResultsIndexPath?) {
        self.kind = kind
        self.object = object
        self.indexPath = indexPath
        self.newIndexPath = newIndexPath
    }
}

/// One section's change in a controller's results (Apple: the arguments of
/// `controller(_:didChange:atSectionIndex:for:)`): an insert (the index is after the batch) or
/// a delete (the index is before it).
public struct FetchedResultsSectionChange {
    /// ``FetchedResultsChangeKind/insert`` or ``FetchedResultsChangeKind/delete``.
    public let kind: FetchedResultsChangeKind
    /// The section: after the batch for an insert, before it (its objects as they were) for a
    /// delete.
    public let section: FetchedResultsSection
    /// The section's number: after the batch for an insert, before it for a delete.
    public let sectionIndex: Int

    package init(kind: FetchedResultsChangeKind, section: FetchedResultsSection, sectionIndex: Int) {
        self.kind = kind
        self.section = section
        self.sectionIndex = sectionIndex
    }
}

/// Every change of one batch (one `processPendingChanges()`, save or merge), in the order the
/// delegate hears them: section deletes, section inserts, then object deletes, inserts, moves
/// and updates.
///
/// Applying it to a list in a table view's batch order (section deletes, row deletes from the
/// bottom up, section inserts, row inserts from the top down, then moves) turns the sections
/// before the batch into the sections after it.
public struct FetchedResultsDifference {
    /// The sections deleted and inserted.
    public var sectionChanges: [FetchedResultsSectionChange] = []
    /// The objects deleted, inserted, moved and updated.
    public var objectChanges: [FetchedResultsChange] = []

    /// Whether nothing changed.
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// Creates an empty difference.
    public init() {}

    /// Puts the changes in the delegate order: section deletes, section inserts, then object
    /// deletes, inserts, moves and updates (each by index path).
    mutating func normalizeOrder() {
        func sectionRank(_ change: FetchedResultsSectionChange) -> Int { change.kind == .delete ? 0 : 1 }
        sectionChanges.sort { (sectionRank($0), $0.sectionIndex) < (sectionRank($1), $1.sectionIndex) }
        func rank(_ kind: FetchedResultsChangeKind) -> Int {
            switch kind {
            case .delete: return 0
            case .insert: return 1
            case .move: return 2
            case .update: return 3
            }
        }
        func key(_ change: FetchedResultsChange) -> FetchedResultsIndexPath {
            (change.kind == .insert ? change.newIndexPath : change.indexPath) ?? FetchedResultsIndexPath(row: 0, section: 0)
        }
        objectChanges.sort { a, b in
            let (ra, rb) = (rank(a.kind), rank(b.kind))
            return ra != rb ? ra < rb : key(a) < key(b)
        }
    }
}
