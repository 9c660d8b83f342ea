// Whole-file locking between bug trackers: an advisory lock on a companion `.lock` file.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (`flock`) on `<file>.lock`, shared for reading and exclusive for writing.
///
/// The lock is on a companion file because the bug file itself is replaced by a rename on
/// every save: a lock on the old file would not stop a tracker that opens the new one.
/// `flock` locks belong to an open file, so two stores in one process exclude each other too.
struct BugFileLock {
    let path: String

    init(bugFile url: URL) {
        path = url.path + ".lock"
    }

    /// Runs `body` holding the lock.
    ///
    /// - Parameters:
    ///   - exclusive: Whether no other tracker may hold the lock meanwhile (writing).
    ///   - body: The work.
    /// - Throws: ``BugTrackerError/io(path:reason:)`` when the lock file cannot be opened or
    ///   locked; what `body` throws.
    func withLock<Result>(exclusive: Bool, _ body: () throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw BugTrackerError.io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw BugTrackerError.io(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Renames a file over another in one step (POSIX `rename`): readers see the old file or
    /// the new one.
    ///
    /// - Throws: ``BugTrackerError/io(path:reason:)``.
    static func rename(_ source: URL, to destination: URL) throws {
        guard posixRename(source.path, destination.path) == 0 else {
            throw BugTrackerError.io(path: destination.path, reason: String(cString: strerror(errno)))
        }
    }
}

/// The C library's `rename` (a method of the same name hides it inside ``BugFileLock``).
private func posixRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
