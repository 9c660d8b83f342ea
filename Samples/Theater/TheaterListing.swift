// The view layer: the printed listing, the delegate of a fetched results controller. Sections
// are theaters, rows are movies; after each batch it redraws only the rows and sections the
// controller reports.

import Foundation
import KeyValueCoding
import Predicates
import ManagedObjects

/// The printed program: theaters as sections, movies as rows, kept current by a
/// ``FetchedResultsController`` whose delegate it is.
///
/// Rows are numbered from 1 through the whole listing, as commands name them. For each batch
/// the controller reports, the listing keeps the lines of what it redrew: `+ NN  row` for a
/// movie inserted (or moved in), `- NN  title` for one deleted (or moved out), `~ NN  row` for
/// one changed in place, and `+ [Theater (City)]` / `- [Theater (City)]` for a section that
/// appears or goes. Deleted rows are numbered as they were before the batch, the others as
/// after it (the index-path rules of a table view's batch update).
///
/// Not thread-safe: use it on its context's thread.
public final class TheaterListing: FetchedResultsControllerDelegate {
    /// The controller: Movie objects sorted by theater name, then the sort keys.
    public private(set) var controller: FetchedResultsController
    /// The shown sections: the theater's label and the rows (title and rendered row).
    public private(set) var sections: [(label: String, rows: [(title: String, row: String)])] = []
    /// How many rows were rendered so far (reading commands render none).
    public private(set) var renderCount = 0

    private var cache: [ObjectIdentifier: (title: String, row: String)] = [:]
    private var sectionChanges: [SectionChange] = []
    private var objectChanges: [RowChange] = []

    /// A section change the controller reported in the current batch.
    private struct SectionChange {
        var kind: FetchedResultsChangeKind
        var name: String
        var sectionIndex: Int
    }

    /// A row change the controller reported in the current batch.
    private struct RowChange {
        var kind: FetchedResultsChangeKind
        var object: ManagedObject
        var indexPath: FetchedResultsIndexPath?
        var newIndexPath: FetchedResultsIndexPath?
    }
    private var redraws: [String] = []

    /// Creates the listing and fetches the movies.
    ///
    /// - Parameters:
    ///   - context: The context the movies are in.
    ///   - sortKeys: The order of movies within a theater (the title breaks ties).
    /// - Throws: The controller's errors (a bad sort key).
    public init(context: ManagedObjectContext, sortKeys: [KeyValueSortDescriptor]) throws {
        controller = try Self.makeController(context, sortKeys)
        controller.delegate = self
        try controller.performFetch()
        rebuild(changed: [])
    }

    /// Fetches again in a new order (a view setting: nothing is redrawn as a change).
    func resort(by sortKeys: [KeyValueSortDescriptor]) throws {
        let fresh = try Self.makeController(controller.managedObjectContext, sortKeys)
        try fresh.performFetch()
        controller.delegate = nil
        controller = fresh
        controller.delegate = self
        cache = [:]
        rebuild(changed: [])
    }

    private static func makeController(_ context: ManagedObjectContext,
                                       _ sortKeys: [KeyValueSortDescriptor]) throws -> FetchedResultsController {
        var descriptors = [KeyValueSortDescriptor(key: "theater.name")] + sortKeys
        if !sortKeys.contains(where: { $0.key == "title" }) { descriptors.append(KeyValueSortDescriptor(key: "title")) }
        var request = EntityFetchRequest(entityName: "Movie", sortDescriptors: descriptors)
        request.relationshipKeyPathsForPrefetching = ["theater"]
        // The theaters as whole objects first: `value(forKeyPath: "theater.name")`, which the
        // controller reads for the section name, gives nil while the theater is still a fault
        // (a bug of the key-path reading of faults, reported in the sample's notes).
        var theaters = EntityFetchRequest(entityName: "Theater")
        theaters.returnsObjectsAsFaults = false
        for theater in try context.fetch(theaters) { _ = try theater.value(forKey: "name") }
        return try FetchedResultsController(fetchRequest: request, context: context,
                                            sectionNameKeyPath: "theater.name", cacheName: nil)
    }

    /// The movies in listing order (row 1 first).
    public var movies: [Movie] {
        (controller.sections ?? []).flatMap { $0.objects.compactMap { $0 as? Movie } }
    }

    /// The number of rows.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// The whole listing, as `list` prints it.
    public var text: String {
        guard rowCount > 0 else { return "(no movies)" }
        var lines = [Self.header]
        var number = 0
        for section in sections {
            lines.append("[\(section.label)]")
            for row in section.rows {
                number += 1
                lines.append(Self.numbered(number, row.row))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The header line of the listing.
    public static let header = " #  " + pad("title", to: titleWidth) + "  year  rating  minutes"

    /// The lines redrawn since the last call, top to bottom.
    public func takeRedraws() -> [String] {
        defer { redraws = [] }
        return redraws
    }

    /// The rendered row of the movie numbered `number` (1-based), if shown.
    func row(numbered number: Int) -> String? {
        var remaining = number - 1
        for section in sections {
            if remaining < section.rows.count { return section.rows[remaining].row }
            remaining -= section.rows.count
        }
        return nil
    }

    // MARK: The controller's delegate

    public func controllerWillChangeContent(_ controller: FetchedResultsController) {
        sectionChanges = []
        objectChanges = []
    }

    public func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                           atSectionIndex index: Int, for kind: FetchedResultsChangeKind) {
        sectionChanges.append(SectionChange(kind: kind, name: section.name, sectionIndex: index))
    }

    public func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                           at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                           newIndexPath: FetchedResultsIndexPath?) {
        objectChanges.append(RowChange(kind: kind, object: object, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    public func controllerDidChangeContent(_ controller: FetchedResultsController) {
        guard controller === self.controller else { return }
        let old = sections
        func oldNumber(_ path: FetchedResultsIndexPath) -> Int {
            old.prefix(path.section).reduce(0) { $0 + $1.rows.count } + path.row + 1
        }
        let newSections = controller.sections ?? []
        func newNumber(_ path: FetchedResultsIndexPath) -> Int {
            newSections.prefix(path.section).reduce(0) { $0 + $1.numberOfObjects } + path.row + 1
        }
        let changed = Set(objectChanges.filter { $0.kind != .delete }.map { ObjectIdentifier($0.object) })
        for change in objectChanges where change.kind == .delete { cache[ObjectIdentifier(change.object)] = nil }
        rebuild(changed: changed)
        var lines: [String] = []
        for change in sectionChanges where change.kind == .delete {
            let label = change.sectionIndex < old.count ? old[change.sectionIndex].label : change.name
            lines.append("- [\(label)]")
        }
        let rank: [FetchedResultsChangeKind: Int] = [.delete: 0, .move: 1, .insert: 2, .update: 3]
        let ordered = objectChanges.sorted { a, b in
            let left = (rank[a.kind] ?? 0, a.newIndexPath ?? a.indexPath ?? .init(row: 0, section: 0))
            let right = (rank[b.kind] ?? 0, b.newIndexPath ?? b.indexPath ?? .init(row: 0, section: 0))
            return left.0 != right.0 ? left.0 < right.0 : left.1 < right.1
        }
        for change in ordered where change.kind == .delete || change.kind == .move {
            guard let path = change.indexPath else { continue }
            let number = oldNumber(path)
            let title = path.section < old.count && path.row < old[path.section].rows.count
                ? old[path.section].rows[path.row].title : "?"
            lines.append("- " + Self.numbered(number, title))
        }
        for change in sectionChanges where change.kind == .insert {
            let label = change.sectionIndex < sections.count ? sections[change.sectionIndex].label : change.name
            lines.append("+ [\(label)]")
        }
        for change in ordered where change.kind != .delete {
            guard let path = change.newIndexPath ?? change.indexPath else { continue }
            let number = newNumber(path)
            let mark = change.kind == .update ? "~ " : "+ "
            lines.append(mark + Self.numbered(number, row(numbered: number) ?? "?"))
        }
        redraws += lines
        sectionChanges = []
        objectChanges = []
    }

    /// Rebuilds the shown sections from the controller, rendering only the `changed` movies
    /// and those not rendered before.
    private func rebuild(changed: Set<ObjectIdentifier>) {
        var fresh: [ObjectIdentifier: (title: String, row: String)] = [:]
        sections = (controller.sections ?? []).map { section in
            let movies = section.objects.compactMap { $0 as? Movie }
            let rows = movies.map { movie in
                let key = ObjectIdentifier(movie)
                let row = changed.contains(key) ? render(movie) : (cache[key] ?? render(movie))
                fresh[key] = row
                return row
            }
            return (label: movies.first?.theater?.label ?? section.name, rows: rows)
        }
        cache = fresh
    }

    // MARK: Rendering

    private static let titleWidth = 26

    private func render(_ movie: Movie) -> (title: String, row: String) {
        renderCount += 1
        let row = Self.pad(movie.title, to: Self.titleWidth) + "  " + String(movie.year)
            + "  " + Self.pad(String(format: "%6.1f", movie.rating), to: 6)
            + "  " + String(format: "%4d", Int(movie.minutes)) + " min"
        return (movie.title, row)
    }

    static func numbered(_ number: Int, _ row: String) -> String {
        String(format: "%2d", number) + "  " + row
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
