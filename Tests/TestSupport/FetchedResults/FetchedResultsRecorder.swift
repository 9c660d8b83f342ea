// A delegate that writes down every call of a fetched results controller, as text and values.
import Foundation
import ManagedObjects

/// Records the delegate calls of a ``FetchedResultsController`` as lines of text (for exact
/// sequences) and as batches of ``FetchedResultsDifference`` values (for the table simulator).
///
/// Lines: `will`, `did`, `section insert 2 Paris`, `delete [0, 1] Alien`,
/// `move [0, 0]->[1, 2] Heat`, `update [1, 0]->[1, 0] Ran`, `insert ->[0, 3] Up`, `error …`
/// (objects named by `titleKey`).
package final class FetchedResultsRecorder: FetchedResultsControllerDelegate {
    package var lines: [String] = []
    package var batches: [FetchedResultsDifference] = []
    package var snapshots: [FetchedResultsSnapshot] = []
    package var wantsSnapshots = false
    package var titles: [String: String] = [:]
    package let titleKey: String
    private var current = FetchedResultsDifference()

    package init(titleKey: String = "title") { self.titleKey = titleKey }

    package var receivesSnapshots: Bool { wantsSnapshots }

    /// Forgets what was recorded.
    package func clear() {
        lines.removeAll()
        batches.removeAll()
        snapshots.removeAll()
    }

    private func name(_ object: ManagedObject) -> String {
        ((try? object.value(forKey: titleKey)) as? String) ?? "?"
    }

    package func controllerWillChangeContent(_ controller: FetchedResultsController) {
        lines.append("will")
        current = FetchedResultsDifference()
    }

    package func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                            atSectionIndex sectionIndex: Int, for kind: FetchedResultsChangeKind) {
        lines.append("section \(kind) \(sectionIndex) \(section.name)")
        current.sectionChanges.append(FetchedResultsSectionChange(kind: kind, section: section, sectionIndex: sectionIndex))
    }

    package func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                            at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                            newIndexPath: FetchedResultsIndexPath?) {
        let text: String
        switch kind {
        case .insert: text = "insert ->\(newIndexPath?.description ?? "nil")"
        case .delete: text = "delete \(indexPath?.description ?? "nil")"
        case .move, .update: text = "\(kind) \(indexPath?.description ?? "nil")->\(newIndexPath?.description ?? "nil")"
        }
        lines.append("\(text) \(name(object))")
        current.objectChanges.append(FetchedResultsChange(kind: kind, object: object, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    package func controllerDidChangeContent(_ controller: FetchedResultsController) {
        lines.append("did")
        batches.append(current)
    }

    package func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }

    /// Writes `error` and the error's text.
    package func controller(_ controller: FetchedResultsController, didFailToTrackChangesWith error: any Error) {
        lines.append("error \(error)")
    }

    package func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        titles[sectionName] ?? controller.sectionIndexTitle(forSectionName: sectionName)
    }
}
