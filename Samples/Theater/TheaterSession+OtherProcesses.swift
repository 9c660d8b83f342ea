// Noticing what another process saved into the same store file, and merging it into the
// session's context so that the fetched results controller reports it.

import Foundation
import ManagedObjects

/// What a session last knew of its store file: a cheap marker (the sizes and modification
/// dates of the database and its write-ahead log) and each object's row version.
///
/// Before each command the session compares the marker with the file; only when it moved does
/// it fetch the object IDs and row versions from the store (not from the coordinator's row
/// cache), and the difference from the last known versions is another process's save.
struct StoreWatch {
    /// The store file.
    let url: URL
    /// The marker when the versions were last read.
    var marker: [String]
    /// The row version of every object in the store, when last read.
    var versions: [ManagedObjectID: Int64]

    init(url: URL, session: TheaterSession) {
        self.url = url
        marker = Self.marker(of: url)
        versions = (try? Self.versions(in: session.context)) ?? [:]
    }

    /// The sizes and modification dates of the database file and its `-wal` and `-shm` files.
    static func marker(of url: URL) -> [String] {
        ["", "-wal"].map { suffix in
            let path = url.path + suffix
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "-" }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
            return "\(size)@\(date)"
        }
    }

    /// The row versions of every theater and movie, read from the store itself.
    static func versions(in context: ManagedObjectContext) throws -> [ManagedObjectID: Int64] {
        var versions: [ManagedObjectID: Int64] = [:]
        for store in context.coordinator?.stores ?? [] {
            let rows = try store.fetch(StoreFetchRequest(entityNames: ["Theater", "Movie"])).rows
            for row in rows { versions[row.objectID] = row.version }
        }
        return versions
    }
}

extension TheaterSession {
    /// Merges the changes another process saved into the store since this session last
    /// looked, and returns the rows and sections the listing redrew for them (empty when
    /// there were none).
    func mergeChangesOfOtherProcesses() -> String {
        guard var watch = storeWatch else { return mergeAnnouncedChanges() }
        let marker = StoreWatch.marker(of: watch.url)
        guard marker != watch.marker else { return "" }
        guard let versions = try? StoreWatch.versions(in: context) else { return "" }
        watch.marker = marker
        let old = watch.versions
        watch.versions = versions
        storeWatch = watch
        let inserted = versions.keys.filter { old[$0] == nil }
        let deleted = old.keys.filter { versions[$0] == nil }
        let updated = versions.keys.filter { id in old[id].map { $0 != versions[id] } ?? false }
        guard !(inserted.isEmpty && deleted.isEmpty && updated.isEmpty) else { return "" }
        _ = listing.takeRedraws()
        // New theaters are loaded first, so that the controller reads their names for the new
        // movies' sections (see ``TheaterListing``: it cannot read a name through a fault).
        for id in inserted where id.entityName == "Theater" {
            _ = try? context.existingObject(with: id).value(forKey: "name")
        }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [
            ManagedObjectContext.ChangeKey.inserted.rawValue: Array(inserted),
            ManagedObjectContext.ChangeKey.updated.rawValue: Array(updated),
            ManagedObjectContext.ChangeKey.deleted.rawValue: Array(deleted),
        ], into: [context])
        let counts = [(inserted.count, "inserted"), (updated.count, "updated"), (deleted.count, "deleted")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        return (["another process saved: \(counts)"] + listing.takeRedraws()).joined(separator: "\n")
    }

    /// Takes the store as this session's own save left it as the known state.
    func noteOwnSave() {
        guard var watch = storeWatch else { return }
        watch.marker = StoreWatch.marker(of: watch.url)
        watch.versions = (try? StoreWatch.versions(in: context)) ?? watch.versions
        storeWatch = watch
    }
}
