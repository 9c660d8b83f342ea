// The snapshot form of a controller's results: section identifiers and object IDs, as a value.
import Synchronization
import Foundation
import ObjectGraphInternals

/// A controller's results as identifiers only: the section names in order, and per section the
/// IDs of its objects in order, with the IDs of the objects that changed in place (Apple: the
/// `NSDiffableDataSourceSnapshot` of `controller(_:didChangeContentWith:)`).
///
/// A caller that applies whole snapshots (a diffable data source) takes one after each change;
/// the snapshot tells it the new arrangement, and ``reloadedItemIdentifiers`` the items whose
/// contents changed without moving out of their sections.
///
/// IDs of objects inserted and not saved yet are temporary; after a save the next snapshot
/// holds their permanent IDs.
///
/// - Important: Thread safety: a `Sendable` value.
public struct FetchedResultsSnapshot: Sendable, Hashable {
    /// One section of a snapshot.
    public struct Section: Sendable, Hashable {
        /// The section's name (Apple: the section identifier).
        public var identifier: String
        /// The IDs of the section's objects, in order.
        public var itemIdentifiers: [ManagedObjectID]

        /// Creates a section.
        public init(identifier: String, itemIdentifiers: [ManagedObjectID]) {
            self.identifier = identifier
            self.itemIdentifiers = itemIdentifiers
        }
    }

    /// The sections, in order.
    public var sections: [Section]
    /// The IDs of objects that changed since the previous snapshot and are in this one
    /// (Apple: `reloadedItemIdentifiers`).
    public var reloadedItemIdentifiers: Set<ManagedObjectID>

    /// Creates a snapshot.
    public init(sections: [Section] = [], reloadedItemIdentifiers: Set<ManagedObjectID> = []) {
        self.sections = sections
        self.reloadedItemIdentifiers = reloadedItemIdentifiers
    }

    /// The section names, in order (Apple: `sectionIdentifiers`).
    public var sectionIdentifiers: [String] { sections.map(\.identifier) }

    /// Every object ID, section by section (Apple: `itemIdentifiers`).
    public var itemIdentifiers: [ManagedObjectID] { sections.flatMap(\.itemIdentifiers) }

    /// The number of sections (Apple: `numberOfSections`).
    public var numberOfSections: Int { sections.count }

    /// The number of objects (Apple: `numberOfItems`).
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.itemIdentifiers.count } }

    /// The object IDs of the section named `identifier`, or `nil` when there is none
    /// (Apple: `itemIdentifiers(inSection:)`).
    ///
    /// - Parameter identifier: A section name.
    /// - Returns: The IDs in order.
    /// - Complexity: O(*s*) for *s* sections.
    public func itemIdentifiers(inSection identifier: String) -> [ManagedObjectID]? {
        sections.first { $0.identifier == identifier }?.itemIdentifiers
    }

    /// The section name of an object ID, or `nil` (Apple: `sectionIdentifier(containingItem:)`).
    ///
    /// - Complexity: O(*n*) in the number of objects.
    public func sectionIdentifier(containingItem item: ManagedObjectID) -> String? {
        sections.first { $0.itemIdentifiers.contains(item) }?.identifier
    }
}

/// The open async sequences of snapshots of one controller.
///
/// Sendable because the continuations sit behind a `Mutex`: a stream's
/// termination handler (any thread) and the controller (its context's thread) may both reach it.
final class SnapshotStreams: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<FetchedResultsSnapshot>.Continuation]>([:])
    private let counter = Mutex(0)

    var isEmpty: Bool { continuations.withTrackedLock(self) { $0.isEmpty } }

    func add(_ continuation: AsyncStream<FetchedResultsSnapshot>.Continuation) {
        let id = counter.withTrackedLock(self) { value in
            value += 1
            return value
        }
        continuations.withTrackedLock(self) { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.continuations.withTrackedLock(self) { $0.removeValue(forKey: id) }
        }
    }

    func yield(_ snapshot: FetchedResultsSnapshot) {
        let list = continuations.withTrackedLock(self) { Array($0.values) }
        for continuation in list { continuation.yield(snapshot) }
    }

    func finish() {
        let list = continuations.withTrackedLock(self) { dictionary in
            defer { dictionary.removeAll() }
            return Array(dictionary.values)
        }
        for continuation in list { continuation.finish() }
    }
}
