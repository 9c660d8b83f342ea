// Errors of the undo recorder: keys it cannot record, and inverses that failed while undoing.

/// An error reported by an ``UndoRecorder``.
///
/// ``UndoRecorder/record(_:keys:)`` throws ``keyPathNotRecordable(_:type:)`` for a key it cannot
/// record (it also lets the key-value observing errors through, such as an undefined key).
/// An inverse that fails while it is undone or redone cannot throw, because undo handlers do
/// not; it is reported as ``inverseFailed(key:type:reason:)`` through
/// ``UndoRecorder/failureHandler`` and ``UndoRecorder/lastFailure``.
public enum UndoRecorderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is a key path (`"department.name"`) or a collection operator (`"@count"`).
    ///
    /// Only plain keys of the object itself can be recorded: the inverse of a change at the end
    /// of a key path would be applied to whatever object the path leads to at undo time, which
    /// may no longer be the object that changed. Record the object at the end of the path
    /// instead.
    case keyPathNotRecordable(_ keyPath: String, type: String)

    /// Applying an inverse failed while undoing or redoing; the change of `key` was not reverted.
    ///
    /// For example a key-value validator rejected the old value, or the array no longer has the
    /// index the inverse names because it was changed without the recorder watching.
    case inverseFailed(key: String, type: String, reason: String)

    public var description: String {
        switch self {
        case .keyPathNotRecordable(let keyPath, let type):
            return "cannot record '\(keyPath)' of \(type): only plain keys of the object itself can be recorded"
        case .inverseFailed(let key, let type, let reason):
            return "cannot revert the change of '\(key)' of \(type): \(reason)"
        }
    }
}
