// The named cache of computed sections, shared by controllers with the same name and request.
import Foundation
import ObjectGraphInternals
import Synchronization

/// What a named cache holds: the request and section key path it was computed for, the stores
/// it was computed on, and the sections as names and object IDs.
struct FetchedResultsCacheEntry: Sendable {
    var request: EntityFetchRequest
    var sectionNameKeyPath: String?
    /// The identifiers of the coordinator's stores.
    var storeIdentifiers: [String]
    var sections: [(name: String, objectIDs: [ManagedObjectID])]
}

/// The process's named caches (Apple keeps them in files; see Docs/Porting.md).
enum FetchedResultsCache {
    static let entries = Mutex<[String: FetchedResultsCacheEntry]>([:])
}

extension FetchedResultsController {
    /// Deletes a named cache of computed sections, or every cache when `name` is `nil`
    /// (Apple: `deleteCache(withName:)`). Call it before using a cache name with a different
    /// request, or after changing the data outside the controllers that use the name.
    ///
    /// - Parameter name: The cache's name, or `nil` for all.
    public static func deleteCache(withName name: String?) {
        FetchedResultsCache.entries.withTrackedLock(ThreadSanitizer.staticOwner) { entries in
            if let name { entries[name] = nil } else { entries.removeAll() }
        }
    }

    /// The identifiers of the context's stores, sorted.
    private var storeIdentifiers: [String] {
        (managedObjectContext.coordinator?.stores.map(\.identifier) ?? []).sorted()
    }

    /// The sections from the named cache, when it was computed for this request and section key
    /// path on these stores and the context has no unsaved changes; `nil` otherwise. A cache
    /// computed for another request is deleted (Apple recomputes it then).
    func cachedSections() throws -> [SectionState]? {
        guard let cacheName, !managedObjectContext.hasChanges else { return nil }
        guard let entry = FetchedResultsCache.entries.withTrackedLock(ThreadSanitizer.staticOwner, { $0[cacheName] }) else { return nil }
        guard entry.request == fetchRequest, entry.sectionNameKeyPath == sectionNameKeyPath,
              entry.storeIdentifiers == storeIdentifiers else {
            Self.deleteCache(withName: cacheName)
            return nil
        }
        var sections: [SectionState] = []
        for section in entry.sections {
            let objects = try section.objectIDs.map { try managedObjectContext.object(with: $0) }
            sections.append(SectionState(name: section.name, objects: objects))
        }
        return sections
    }

    /// Writes the sections into the named cache, when they are the stores' state: the context
    /// has no unsaved changes (no temporary IDs, nothing another context would not see).
    func storeInCache() {
        guard let cacheName, hasFetched, !managedObjectContext.hasChanges else { return }
        let entry = FetchedResultsCacheEntry(
            request: fetchRequest, sectionNameKeyPath: sectionNameKeyPath, storeIdentifiers: storeIdentifiers,
            sections: state.map { (name: $0.name, objectIDs: $0.objects.map(\.objectID)) })
        FetchedResultsCache.entries.withTrackedLock(ThreadSanitizer.staticOwner) { $0[cacheName] = entry }
    }
}
