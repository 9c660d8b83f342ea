// Replacing a file by another in one step.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX `rename(2)`: readers see the old file or the new one, never a mix.
enum FileRename {
    /// Renames `source` to `destination`, replacing it.
    ///
    /// - Throws: ``FileStoreError`` `.io` with the system's reason.
    static func replace(_ destination: URL, with source: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw FileStoreError(.io("cannot rename the new file into place (\(String(cString: strerror(errno))))"), path: destination.path)
        }
    }
}
