// Misuse of an undo history, reported as thrown errors instead of Apple's
// NSInternalInconsistencyException.

import Foundation

/// An error thrown when an ``UndoHistory`` is used in a way Apple's undo manager rejects.
///
/// Apple's `UndoManager` raises `NSInternalInconsistencyException` for these cases, and its
/// stacks are often unusable afterwards. ``UndoHistory`` throws one of these values instead and
/// leaves its state unchanged (or, for ``groupsLeftOpenByAction(count:)``, consistent and
/// documented), so the program can recover.
public enum UndoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// `endUndoGrouping()` was called with no matching `beginUndoGrouping()`.
    case endUndoGroupingWithoutBegin

    /// An undo action was registered while no group is open and ``UndoHistory/groupsByEvent``
    /// is off (Apple raises "must begin a group before registering undo"). Nothing was recorded.
    case registrationWithoutOpenGroup

    /// An operation that needs at most one open group found nested groups open.
    ///
    /// `undo()` closes a single open group itself, but not nested ones (Apple raises here too).
    case nestedGroupsOpen(operation: String, groupingLevel: Int)

    /// An operation that needs no open group found one open (`redo()`).
    case groupOpen(operation: String, groupingLevel: Int)

    /// `undoNestedGroup()` was called while the innermost open group ends with actions that are
    /// not in a closed nested group; close the group first.
    case ungroupedActionsInOpenGroup(groupingLevel: Int)

    /// `undoNestedGroup()` was called while a group is open that holds no closed nested group.
    case noClosedGroupInOpenGroup(groupingLevel: Int)

    /// `undo()`, `undoNestedGroup()`, `redo()` or `closeEventGroup()` was called from inside an
    /// undo or redo (for example from a registered handler).
    case busy(operation: String, whileUndoing: Bool)

    /// `enableUndoRegistration()` was called more often than `disableUndoRegistration()`.
    case enableWithoutDisable

    /// The actions of an undo or redo opened groups and did not close them.
    ///
    /// The undo or redo itself completed: the groups were closed and the inverse was recorded as
    /// usual. The error reports the unbalanced calls in the handlers.
    case groupsLeftOpenByAction(count: Int)

    /// A menu title format does not contain exactly one `%@` placeholder.
    case invalidMenuTitleFormat(String)

    public var description: String {
        switch self {
        case .endUndoGroupingWithoutBegin:
            return "endUndoGrouping() called with no open undo group (no matching beginUndoGrouping())"
        case .registrationWithoutOpenGroup:
            return "undo action registered with no open undo group while groupsByEvent is off; "
                + "call beginUndoGrouping() first (nothing was registered)"
        case .nestedGroupsOpen(let operation, let level):
            return "\(operation) called with \(level) nested undo groups open; "
                + "close them with endUndoGrouping() first"
        case .groupOpen(let operation, let level):
            return "\(operation) called with \(level) undo group(s) open; "
                + "close them with endUndoGrouping() first"
        case .ungroupedActionsInOpenGroup(let level):
            return "undoNestedGroup() called while the open undo group at level \(level) ends with "
                + "ungrouped actions; close the group with endUndoGrouping() first"
        case .noClosedGroupInOpenGroup(let level):
            return "undoNestedGroup() called while the open undo group at level \(level) holds no "
                + "closed nested group to undo"
        case .busy(let operation, let whileUndoing):
            return "\(operation) called while \(whileUndoing ? "undoing" : "redoing"); "
                + "undo and redo cannot be nested"
        case .enableWithoutDisable:
            return "enableUndoRegistration() called without a matching disableUndoRegistration()"
        case .groupsLeftOpenByAction(let count):
            return "undo actions opened \(count) undo group(s) without closing them; "
                + "they were closed when the undo or redo finished"
        case .invalidMenuTitleFormat(let format):
            return "menu title format \"\(format)\" must contain exactly one %@ placeholder"
        }
    }

    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
