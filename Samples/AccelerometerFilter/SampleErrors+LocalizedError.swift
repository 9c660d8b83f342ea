// Every error of the accelerometer-filter sample reads the same through `localizedDescription`
// as through `print(error)`: each type's `description` is the one source of its text.

import Foundation

extension RecordingError: LocalizedError {
    /// The same text as ``description``: the line at fault and what is wrong with it.
    public var errorDescription: String? { description }
}

extension InputFileError: LocalizedError {
    /// The same text as ``description``: the path, the line and what is wrong.
    public var errorDescription: String? { description }
}

extension UsageError: LocalizedError {
    /// The same text as ``description``: the offending option or argument.
    public var errorDescription: String? { description }
}

extension FilterSettingsError: LocalizedError {
    /// The same text as ``description``: the settings and the coefficient they give.
    public var errorDescription: String? { description }
}

extension PipelineError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension PlaybackError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension OutputError: LocalizedError {
    /// The same text as ``description``: the path that could not be written.
    public var errorDescription: String? { description }
}
