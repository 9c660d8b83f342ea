// The bug tracker's errors.
import Foundation

/// What can go wrong with a bug file or a command.
public enum BugTrackerError: Error, Equatable, Sendable {
    /// The file is not a bug file, or a line of it is damaged. The file is left as it is.
    case damagedFile(path: String, line: Int, reason: String)
    /// The file or its lock file cannot be read or written.
    case io(path: String, reason: String)
    /// A bug to insert has a number the file already has.
    case numberTaken(Int64)
}

extension BugTrackerError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the file, line or bug.
    public var description: String {
        switch self {
        case .damagedFile(let path, let line, let reason): return "\(path), line \(line): \(reason)"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .numberTaken(let number): return "bug #\(number) already exists in the file"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
