// Stray temporary files of a store creation that did not finish (the process was killed).
import Foundation
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
        path + creationMarker + String(getpid()) + "-" + UUID().uuidString
    }

    /// Removes the temporary files (with their `-wal`, `-shm` and `-journal` companions) that
    /// creations of the store at `path` left behind when their process died: only files named
    /// `<store file name>.creating-<process ID>-<UUID>` whose process is gone, or
    /// `<store file name>.creating-<UUID>` (the earlier name) untouched for
    /// ``staleCreationAge``, and only regular files: a folder or a symbolic link of such a name
    /// is left alone, with what it holds or points to. A creation still running is left alone. Failures are ignored:
    /// litter never stops a store from opening.
    ///
    /// - Returns: The paths removed.
    @discardableResult
    static func removeStaleCreationFiles(besides path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + creationMarker
        var removed: [String] = []
        for name in names(in: folder, startingWith: prefix) {
            var rest = String(name.dropFirst(prefix.count))
            for suffix in ["-wal", "-shm", "-journal"] where rest.hasSuffix(suffix) {
                rest = String(rest.dropLast(suffix.count))
                break
            }
            let item = folder + "/" + name
            // Only a regular file is a creation's: a folder or link of that name is someone's.
            guard isRegularFile(item), isLeftBehind(rest, item: item) else { continue }
            if unlink(item) == 0 { removed.append(item) }
        }
        return removed
    }

    /// The names in `folder` that start with `prefix` (byte for byte), listed with
    /// `readdir`: a store opens in a folder such as `/tmp` that may hold thousands of files,
    /// and only the few names that match become strings. Empty when the folder cannot be read.
    private static func names(in folder: String, startingWith prefix: String) -> [String] {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name),
              let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let length = prefix.utf8.count
        var names: [String] = []
        prefix.withCString { wanted in
            while let entry = readdir(directory) {
                // The entry's name in place (an entry is only as long as its name): `strncmp`
                // stops at the name's end.
                let name = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
                if strncmp(name, wanted, length) == 0 { names.append(String(cString: name)) }
            }
        }
        return names
    }

    /// Whether `item` is a regular file itself (not a folder, and not a link to anything).
    private static func isRegularFile(_ item: String) -> Bool {
        var info = stat()
        return lstat(item, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether the part of a temporary name after the marker (`<pid>-<UUID>` or `<UUID>`)
    /// names a creation whose process is gone.
    private static func isLeftBehind(_ rest: String, item: String) -> Bool {
        if UUID(uuidString: rest) != nil {
            // No process recorded: only an old file is surely not being written.
            let modified = (try? FileManager.default.attributesOfItem(atPath: item))?[.modificationDate] as? Date
            return modified.map { -$0.timeIntervalSinceNow > staleCreationAge } ?? false
        }
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
              UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil else { return false }
        if pid == getpid() { return false }   // this process's own creation, maybe on another thread
        return kill(pid, 0) == -1 && errno == ESRCH
    }
}
