// A simulated table view: applies a controller's reported changes as UITableView applies a batch.
import Foundation
import ManagedObjects

/// A list of sections of rows that applies a batch of reported changes the way a table view
/// does, and fails (throws) where a table view would raise an inconsistency exception.
///
/// The order is a table view's: the deletes (section deletes and row deletes, including the
/// source rows of moves) all refer to the sections *before* the batch; rows are removed from
/// the bottom up, then sections; then the inserts (section inserts, then row inserts including
/// the destination rows of moves) refer to the sections *after* it, sections first, rows from
/// the top down. Updates must name a row that is neither deleted nor moved, and reload it.
package struct TableSimulator: Equatable, CustomStringConvertible {
    /// One section: a name and its rows (object identities).
    package struct Section: Equatable {
        package var name: String
        package var rows: [ObjectIdentifier]
    }

    package var sections: [Section]

    /// An inconsistency a table view would raise.
    package struct Inconsistency: Error, CustomStringConvertible {
        package let description: String
    }

    /// A table showing a controller's sections now.
    package init(_ sections: [FetchedResultsSection]) {
        self.sections = sections.map { Section(name: $0.name, rows: $0.objects.map(ObjectIdentifier.init)) }
    }

    /// A table showing sections given as names and objects.
    package init(names: [String], objects: [[ManagedObject]]) {
        sections = zip(names, objects).map { Section(name: $0, rows: $1.map(ObjectIdentifier.init)) }
    }

    package var description: String {
        sections.map { "\($0.name): \($0.rows.count) rows" }.joined(separator: "; ")
    }

    /// Applies one batch.
    ///
    /// - Throws: ``Inconsistency`` for an index path outside the table at its stage, an object
    ///   that is not the one at the index path given, or a row changed twice.
    package mutating func apply(_ difference: FetchedResultsDifference) throws {
        var deletedSections = Set<Int>()
        var deletedRows = Set<FetchedResultsIndexPath>()
        var insertedSections: [(Int, String)] = []
        var insertedRows: [(FetchedResultsIndexPath, ObjectIdentifier)] = []
        var reloads: [(FetchedResultsIndexPath, FetchedResultsIndexPath?, ObjectIdentifier)] = []
        for change in difference.sectionChanges {
            switch change.kind {
            case .delete:
                guard sections.indices.contains(change.sectionIndex), sections[change.sectionIndex].name == change.section.name,
                      deletedSections.insert(change.sectionIndex).inserted else {
                    throw Inconsistency(description: "bad section delete \(change.sectionIndex) \(change.section.name) in \(self)")
                }
            case .insert:
                insertedSections.append((change.sectionIndex, change.section.name))
            case .move, .update:
                throw Inconsistency(description: "a section cannot \(change.kind)")
            }
        }
        for change in difference.objectChanges {
            let id = ObjectIdentifier(change.object)
            if let from = change.indexPath, change.kind != .insert {
                guard sections.indices.contains(from.section), sections[from.section].rows.indices.contains(from.row),
                      sections[from.section].rows[from.row] == id else {
                    throw Inconsistency(description: "\(change.kind) from \(from): not that object there in \(self)")
                }
            }
            switch change.kind {
            case .delete, .move:
                guard let from = change.indexPath, deletedRows.insert(from).inserted else {
                    throw Inconsistency(description: "\(change.kind) without an old index path, or a row deleted twice")
                }
                if change.kind == .move {
                    guard let to = change.newIndexPath else { throw Inconsistency(description: "a move without a new index path") }
                    insertedRows.append((to, id))
                }
            case .insert:
                guard let to = change.newIndexPath else { throw Inconsistency(description: "an insert without a new index path") }
                insertedRows.append((to, id))
            case .update:
                guard let from = change.indexPath else { throw Inconsistency(description: "an update without an index path") }
                reloads.append((from, change.newIndexPath, id))
            }
        }
        for (from, _, _) in reloads where deletedRows.contains(from) {
            throw Inconsistency(description: "reload of \(from), which is also deleted or moved")
        }
        // Deletes, against the table before: rows from the bottom up, then sections.
        for path in deletedRows.sorted(by: >) { sections[path.section].rows.remove(at: path.row) }
        for index in deletedSections.sorted(by: >) { sections.remove(at: index) }
        // Inserts, against the table after: sections, then rows from the top down.
        for (index, name) in insertedSections.sorted(by: { $0.0 < $1.0 }) {
            guard index <= sections.count else { throw Inconsistency(description: "section insert at \(index) past \(sections.count)") }
            sections.insert(Section(name: name, rows: []), at: index)
        }
        for (path, id) in insertedRows.sorted(by: { $0.0 < $1.0 }) {
            guard sections.indices.contains(path.section), path.row <= sections[path.section].rows.count else {
                throw Inconsistency(description: "row insert at \(path) outside \(self)")
            }
            sections[path.section].rows.insert(id, at: path.row)
        }
        // A reloaded row is where its update's new index path says.
        for (_, to, id) in reloads {
            guard let to, sections.indices.contains(to.section), sections[to.section].rows.indices.contains(to.row),
                  sections[to.section].rows[to.row] == id else {
                throw Inconsistency(description: "an updated row is not at its new index path \(to?.description ?? "nil")")
            }
        }
    }
}
