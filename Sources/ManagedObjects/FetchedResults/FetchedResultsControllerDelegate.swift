// The delegate of a fetched results controller: will-change, the changes, did-change; or snapshots.
import Foundation

/// What a ``FetchedResultsController`` tells about changes to its results
/// (Apple: `NSFetchedResultsControllerDelegate`).
///
/// After each batch of changes that touches the results (a `processPendingChanges()` or save of
/// the controller's context, or a merge from another context), the controller calls, in order:
/// ``controllerWillChangeContent(_:)``; ``controller(_:didChange:atSectionIndex:for:)`` for
/// each section deleted, then each inserted; ``controller(_:didChange:at:for:newIndexPath:)``
/// for each object deleted, inserted, moved and updated; ``controllerDidChangeContent(_:)``.
/// A delegate whose ``receivesSnapshots`` is `true` gets
/// ``controller(_:didChangeContentWith:)`` instead of those calls.
///
/// Every requirement has a default implementation that does nothing: implement what you need.
/// The controller holds its delegate weakly.
///
/// The calls come on the thread of the controller's context. A main-actor type (a view
/// controller) conforms with an isolated conformance and keeps the controller on the main
/// thread's context:
///
/// ```swift
/// @MainActor final class MoviesView {
///     let controller: FetchedResultsController
///     ...
/// }
/// extension MoviesView: @MainActor FetchedResultsControllerDelegate {
///     func controllerDidChangeContent(_ controller: FetchedResultsController) { reload() }
/// }
/// ```
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Called before the changes of a batch are reported (Apple: `controllerWillChangeContent(_:)`).
    func controllerWillChangeContent(_ controller: FetchedResultsController)

    /// Called for each object inserted, deleted, moved or updated in the results
    /// (Apple: `controller(_:didChange:at:for:newIndexPath:)`).
    ///
    /// - Parameters:
    ///   - controller: The controller.
    ///   - object: The object.
    ///   - indexPath: Where it was before the batch (`nil` for an insert).
    ///   - kind: What happened.
    ///   - newIndexPath: Where it is after the batch (`nil` for a delete).
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                    at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                    newIndexPath: FetchedResultsIndexPath?)

    /// Called for each section inserted or deleted (Apple: `controller(_:didChange:atSectionIndex:for:)`).
    ///
    /// - Parameters:
    ///   - controller: The controller.
    ///   - section: The section (after the batch for an insert, before it for a delete).
    ///   - sectionIndex: Its number (after the batch for an insert, before it for a delete).
    ///   - kind: ``FetchedResultsChangeKind/insert`` or ``FetchedResultsChangeKind/delete``.
    func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                    atSectionIndex sectionIndex: Int, for kind: FetchedResultsChangeKind)

    /// Called after the changes of a batch were reported (Apple: `controllerDidChangeContent(_:)`).
    func controllerDidChangeContent(_ controller: FetchedResultsController)

    /// Whether the delegate wants ``controller(_:didChangeContentWith:)`` instead of the
    /// will-change, per-change and did-change calls (Apple decides by whether the delegate
    /// implements the snapshot method; Swift cannot ask that). Default `false`.
    var receivesSnapshots: Bool { get }

    /// Called after each batch with the results as a snapshot, when ``receivesSnapshots`` is
    /// `true` (Apple: `controller(_:didChangeContentWith:)`).
    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot)

    /// Called after a batch of changes the controller could not follow fully: fetching again
    /// or evaluating the predicate on a changed object threw. The results kept their state
    /// before the batch where the error struck (see
    /// ``FetchedResultsController/lastChangeTrackingError``); the changes made were reported
    /// before this call. No Apple counterpart (Apple raises). Default: nothing.
    func controller(_ controller: FetchedResultsController, didFailToTrackChangesWith error: any Error)

    /// The section index title of a section name, or `nil` for none
    /// (Apple: `controller(_:sectionIndexTitleForSectionName:)`). Default: the controller's
    /// ``FetchedResultsController/sectionIndexTitle(forSectionName:)`` (the capitalised first
    /// letter).
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                           at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                           newIndexPath: FetchedResultsIndexPath?) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                           atSectionIndex sectionIndex: Int, for kind: FetchedResultsChangeKind) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    /// `false`: the per-change calls.
    public var receivesSnapshots: Bool { false }
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {}
    /// Does nothing (the error stays in ``FetchedResultsController/lastChangeTrackingError``).
    public func controller(_ controller: FetchedResultsController, didFailToTrackChangesWith error: any Error) {}
    /// The controller's default title: the capitalised first letter of the name.
    public func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.sectionIndexTitle(forSectionName: sectionName)
    }
}
