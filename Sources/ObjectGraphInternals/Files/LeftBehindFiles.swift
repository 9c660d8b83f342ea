// Temporary files that a killed process left beside a store: found by name, judged by the
// process ID their name records, removed only when that process is gone.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding and removing the temporary files of store operations (a creation, a migration) whose
/// process died before it could clean up.
///
/// Such a file is named `<prefix><process ID>-<UUID>`, maybe followed by an SQLite companion
/// suffix (`-wal`, `-shm`, `-journal`). It is left behind when no process of that ID runs. Only
/// regular files are removed: a folder or a symbolic link with such a name is someone else's.
///
/// Thread safety: stateless; safe from any thread. Two processes sweeping one folder at once
/// remove each file at most once (`unlink` fails for the second).
package enum LeftBehindFiles {
    /// The companion files SQLite keeps beside a database file.
    package static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// A temporary name for `prefix` that records this process: `<prefix><process ID>-<UUID>`.
    package static func temporaryName(prefix: String) -> String {
        prefix + String(getpid()) + "-" + UUID().uuidString
    }

    /// Removes the files in `folder` named `<prefix><process ID>-<UUID>` (with or without a
    /// companion suffix) whose process is gone.
    ///
    /// - Returns: The paths removed. Failures are ignored: a sweep never stops the operation
    ///   that runs it.
    /// - Complexity: O(*n*) in the number of entries of `folder`; only names starting with
    ///   `prefix` become strings.
    @discardableResult
    package static func removeDeadProcessFiles(in folder: String, prefix: String) -> [String] {
        names(in: folder, startingWith: prefix).compactMap { removeIfLeftBehind($0, in: folder, prefix: prefix) }
    }

    /// Removes the file `name` of `folder` when it is named `<prefix><process ID>-<UUID>`
    /// (with or without a companion suffix), its process is gone and it is a regular file.
    ///
    /// - Returns: The path removed, or nil.
    package static func removeIfLeftBehind(_ name: String, in folder: String, prefix: String) -> String? {
        let item = folder + "/" + name
        guard let pid = processID(in: withoutCompanionSuffix(String(name.dropFirst(prefix.count)))),
              processIsGone(pid), isRegularFile(item), unlink(item) == 0 else { return nil }
        return item
    }

    /// `rest` without a trailing companion suffix.
    package static func withoutCompanionSuffix(_ rest: String) -> String {
        for suffix in companionSuffixes where rest.hasSuffix(suffix) { return String(rest.dropLast(suffix.count)) }
        return rest
    }

    /// The process ID of `<process ID>-<UUID>`, or nil when `rest` has another form.
    package static func processID(in rest: String) -> pid_t? {
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
              UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil else { return nil }
        return pid
    }

    /// Whether no process of ID `pid` runs (this process's own files are never gone: another
    /// thread may be writing them).
    package static func processIsGone(_ pid: pid_t) -> Bool {
        pid != getpid() && kill(pid, 0) == -1 && errno == ESRCH
    }

    /// Whether `path` is a regular file itself (not a folder, and not a link to anything).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `folder` that start with `prefix` (byte for byte), listed with `readdir`:
    /// a store may live in a folder such as `/tmp` with thousands of files, and only the few
    /// names that match become strings. Empty when the folder cannot be read.
    package static func names(in folder: String, startingWith prefix: String) -> [String] {
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
}
