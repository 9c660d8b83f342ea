// Errors of the undo recorder: keys it cannot record, to-many changes whose indexes do not match
// the array, and inverses that failed while undoing.

import Foundation
import KeyValueCoding

/// An error reported by an ``UndoRecorder``.
///
/// ``UndoRecorder/record(_:keys:)`` throws ``keyPathNotRecordable(_:type:)`` for a key it cannot
/// record (it also lets the key-value observing errors through, such as an undefined key).
/// An inverse that fails while it is undone or redone cannot throw, because undo handlers do
/// not; it is reported as ``inverseFailed(key:type:reason:)`` through
/// ``UndoRecorder/failureHandler`` and ``UndoRecorder/lastFailure``. A to-many change whose
/// indexes the array does not have is reported the same way, as
/// ``inconsistentChange(key:type:kind:indexes:outOfRange:)``, when the change arrives.
public enum UndoRecorderError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
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

    /// A to-many change of the array `key` named indexes the array does not have, so it has no
    /// inverse; none was registered and the change cannot be undone.
    ///
    /// Reported when the change arrives: by ``UndoRecorder/failureHandler`` and
    /// ``UndoRecorder/lastFailure``, not thrown, because observation handlers cannot throw.
    /// It comes from `willChange(_:valuesAt:forKey:)` / `didChange(_:valuesAt:forKey:)` called
    /// by hand with indexes beyond the end: for a removal or replacement beyond the array before
    /// the change, for an insertion beyond the array after it (Apple raises an
    /// `NSRangeException` there). The mutable array proxies never report it.
    ///
    /// - `kind`: `.insertion`, `.removal` or `.replacement`.
    /// - `indexes`: The indexes the change announced.
    /// - `outOfRange`: Those of them the array did not have.
    case inconsistentChange(key: String, type: String, kind: KeyValueChangeKind, indexes: IndexSet,
                            outOfRange: IndexSet)

    /// The history refused to register the inverse of a change of `key`, so the change cannot
    /// be undone: `error` says why (``UndoError/registrationWithoutOpenGroup`` when the change
    /// was made with no undo group open while ``UndoHistory/groupsByEvent`` is off).
    ///
    /// Reported when the change arrives, through ``UndoRecorder/failureHandler`` and
    /// ``UndoRecorder/lastFailure``: observation handlers cannot throw.
    case registrationRefused(key: String, type: String, error: UndoError)

    public var description: String {
        switch self {
        case .keyPathNotRecordable(let keyPath, let type):
            return "cannot record '\(keyPath)' of \(type): only plain keys of the object itself can be recorded"
        case .inverseFailed(let key, let type, let reason):
            return "cannot revert the change of '\(key)' of \(type): \(reason)"
        case .registrationRefused(let key, let type, let error):
            return "the change of '\(key)' of \(type) cannot be undone: \(error)"
        case .inconsistentChange(let key, let type, let kind, let indexes, let outOfRange):
            return "cannot record the \(Self.name(of: kind)) at indexes \(Self.list(indexes)) of '\(key)' "
                + "of \(type): \(Self.list(outOfRange)) out of range of the array "
                + "\(kind == .insertion ? "after" : "before") the change; no undo action was registered"
        }
    }

    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    private static func name(of kind: KeyValueChangeKind) -> String {
        switch kind {
        case .setting: return "setting"
        case .insertion: return "insertion"
        case .removal: return "removal"
        case .replacement: return "replacement"
        }
    }

    /// `[1, 3, 4]`; long sets are shortened to their first eight indexes.
    private static func list(_ indexes: IndexSet) -> String {
        let shown = indexes.prefix(8).map(String.init).joined(separator: ", ")
        return "[" + shown + (indexes.count > 8 ? ", ... (\(indexes.count) indexes)" : "") + "]"
    }
}
