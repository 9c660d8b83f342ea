// Errors of the atomic file store.
import Foundation

/// Why an atomic file store cannot open or write its file. Every case names the file.
public struct FileStoreError: Error, Equatable, Sendable {
    /// What went wrong.
    public enum Code: Equatable, Sendable {
        /// The file is not a store file of this format, or it is damaged or truncated.
        case damaged(String)
        /// The file was written with another model: the entities whose version hashes differ.
        case incompatibleModel([String])
        /// A value cannot be written in the file's format (attribute and why).
        case unsupportedValue(String)
        /// Reading or writing the file failed.
        case io(String)
    }

    /// What went wrong.
    public var code: Code
    /// The store file's path.
    public var path: String

    /// Creates an error.
    public init(_ code: Code, path: String) {
        self.code = code
        self.path = path
    }
}

extension FileStoreError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the file and the problem.
    public var description: String {
        switch code {
        case .damaged(let reason): return "\(path) is not a readable store file: \(reason)"
        case .incompatibleModel(let entities):
            return "\(path) was written with another model (entities that differ: \(entities.joined(separator: ", ")))"
        case .unsupportedValue(let reason): return "\(path) cannot store a value: \(reason)"
        case .io(let reason): return "\(path): \(reason)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
