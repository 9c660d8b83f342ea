// Stray temporary files of a store creation that did not finish (the process was killed).
import Foundation
import ObjectGraphInternals
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStoreEngine {
    /// The marker between a store's file name and the rest of a creation's temporary name.
    static let creationMarker = ".creating-"

    /// How old a temporary file of a creation by an unknown process must be to count as left
    /// behind: creating a store takes milliseconds.
    static let staleCreationAge: TimeInterval = 600

    /// The temporary name a store at `path` is built under before it is linked into place:
    /// `<path>.creating-<process ID>-<UUID>`.
    static func creationPath(for path: String) -> String {
        LeftBehindFiles.temporaryName(prefix: path + creationMarker)
    }

    /// Removes the temporary files (with their `-wal`, `-shm` and `-journal` companions) that
    /// creations of the store at `path` left behind when their process died: only files named
    /// `<store file name>.creating-<process ID>-<UUID>` whose process is gone, or
    /// `<store file name>.creating-<UUID>` (the earlier name) untouched for
    /// ``staleCreationAge``, and only regular files: a folder or a symbolic link of such a name
    /// is left alone, with what it holds or points to. A creation still running is left alone.
    /// Failures are ignored: litter never stops a store from opening.
    ///
    /// - Returns: The paths removed.
    @discardableResult
    static func removeStaleCreationFiles(besides path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + creationMarker
        var removed: [String] = []
        // One listing of the folder (a store may open in a folder of thousands of files).
        for name in LeftBehindFiles.names(in: folder, startingWith: prefix) {
            if let item = LeftBehindFiles.removeIfLeftBehind(name, in: folder, prefix: prefix) {
                removed.append(item)
                continue
            }
            // The earlier name records no process: only an old file is surely not being written.
            let rest = LeftBehindFiles.withoutCompanionSuffix(String(name.dropFirst(prefix.count)))
            let item = folder + "/" + name
            guard UUID(uuidString: rest) != nil, LeftBehindFiles.isRegularFile(item) else { continue }
            let modified = (try? FileManager.default.attributesOfItem(atPath: item))?[.modificationDate] as? Date
            guard let modified, -modified.timeIntervalSinceNow > staleCreationAge else { continue }
            if unlink(item) == 0 { removed.append(item) }
        }
        return removed
    }
}
