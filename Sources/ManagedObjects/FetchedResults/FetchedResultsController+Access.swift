// Reading a controller's results: objects, sections, index paths, section index titles.
import Foundation

extension FetchedResultsController {
    /// The results, section after section, or `nil` before ``performFetch()``
    /// (Apple: `fetchedObjects`).
    ///
    /// - Complexity: O(*n*).
    public var fetchedObjects: [ManagedObject]? {
        guard hasFetched else { return nil }
        return state.flatMap(\.objects)
    }

    /// The sections, or `nil` before ``performFetch()`` (Apple: `sections`). Without a section
    /// key path there is one section named `""` (also when there are no results).
    ///
    /// - Complexity: O(*s*) for *s* sections (the objects arrays are shared, not copied).
    public var sections: [FetchedResultsSection]? {
        guard hasFetched else { return nil }
        return state.map { FetchedResultsSection(name: $0.name, indexTitle: indexTitle(for: $0.name), objects: $0.objects) }
    }

    /// The object at an index path (Apple: `object(at:)`, which raises an exception for a
    /// position outside the results).
    ///
    /// - Parameter indexPath: A section and a row inside it.
    /// - Returns: The object.
    /// - Throws: ``FetchedResultsError/indexPathOutOfRange(_:)``.
    /// - Complexity: O(1).
    public func object(at indexPath: FetchedResultsIndexPath) throws -> ManagedObject {
        guard state.indices.contains(indexPath.section), state[indexPath.section].objects.indices.contains(indexPath.row) else {
            throw FetchedResultsError.indexPathOutOfRange(indexPath)
        }
        return state[indexPath.section].objects[indexPath.row]
    }

    /// The index path of an object, or `nil` when it is not in the results
    /// (Apple: `indexPath(forObject:)`).
    ///
    /// - Parameter object: An object.
    /// - Returns: Its section and row.
    /// - Complexity: O(*m*) for a section of *m* objects.
    public func indexPath(forObject object: ManagedObject) -> FetchedResultsIndexPath? {
        guard let name = sectionNameOf[ObjectIdentifier(object)], let section = sectionIndexByName[name],
              let row = state[section].row(of: object) else { return nil }
        return FetchedResultsIndexPath(row: row, section: section)
    }

    /// The section index title of a section name by default: its first letter, capitalised;
    /// `nil` for an empty name (Apple: `sectionIndexTitle(forSectionName:)`). The delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)``
    /// decides the titles the controller uses.
    ///
    /// - Parameter sectionName: A section name.
    /// - Returns: The title.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        guard let first = sectionName.first else { return nil }
        return String(first).uppercased()
    }

    /// The title a section uses: the delegate's, else the default.
    func indexTitle(for sectionName: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: sectionName) }
        return sectionIndexTitle(forSectionName: sectionName)
    }

    /// The titles of the section index: the sections' index titles in order, each once
    /// (Apple: `sectionIndexTitles`). Empty before ``performFetch()``.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        var titles: [String] = []
        for section in state {
            if let title = indexTitle(for: section.name), seen.insert(title).inserted { titles.append(title) }
        }
        return titles
    }

    /// The number of the first section with a section index title (Apple:
    /// `section(forSectionIndexTitle:at:)`, which a table view calls when the user touches
    /// the index).
    ///
    /// - Parameters:
    ///   - title: A title of ``sectionIndexTitles``.
    ///   - sectionIndex: Its position in ``sectionIndexTitles``.
    /// - Returns: The section's number.
    /// - Throws: ``FetchedResultsError/unknownSectionIndexTitle(_:)`` when no section has the
    ///   title; ``FetchedResultsError/sectionOutOfRange(_:count:)`` when `sectionIndex` is
    ///   not a position of ``sectionIndexTitles``.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) throws -> Int {
        let titles = sectionIndexTitles
        guard titles.indices.contains(sectionIndex) else {
            throw FetchedResultsError.sectionOutOfRange(sectionIndex, count: titles.count)
        }
        guard let section = state.firstIndex(where: { indexTitle(for: $0.name) == title }) else {
            throw FetchedResultsError.unknownSectionIndexTitle(title)
        }
        return section
    }

    // MARK: Snapshots

    /// The results as a snapshot of section names and object IDs, or `nil` before
    /// ``performFetch()``.
    ///
    /// - Complexity: O(*n*).
    public var snapshot: FetchedResultsSnapshot? {
        guard hasFetched else { return nil }
        return makeSnapshot(reloaded: [])
    }

    func makeSnapshot(reloaded: Set<ManagedObjectID>) -> FetchedResultsSnapshot {
        FetchedResultsSnapshot(sections: state.map { .init(identifier: $0.name, itemIdentifiers: $0.objects.map(\.objectID)) },
                               reloadedItemIdentifiers: reloaded)
    }

    /// The snapshots of the results, one after each batch of changes (and first the current
    /// one, when the controller has fetched), for Swift concurrency callers.
    ///
    /// The sequence ends when the controller goes away. Snapshots are `Sendable`: consume them
    /// on any task, and turn IDs back into objects on the context's thread.
    ///
    /// - Returns: An async sequence of snapshots (buffering the newest only).
    public func snapshots() -> AsyncStream<FetchedResultsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        if let current = snapshot { continuation.yield(current) }
        streams.add(continuation)
        return stream
    }
}
