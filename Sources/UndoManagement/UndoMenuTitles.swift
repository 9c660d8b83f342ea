// The words of the Undo and Redo menu items, replaceable for localization.

import Foundation

/// The titles an ``UndoHistory`` builds its menu item titles from.
///
/// The defaults are English: "Undo", "Redo", "Undo %@" and "Redo %@". Apple localizes these from
/// its own bundle; on Linux there is no such bundle, so set localized strings here:
///
/// ```swift
/// history.menuTitles = try UndoMenuTitles(undo: "Annuler", redo: "Rétablir",
///                                         undoFormat: "Annuler %@", redoFormat: "Rétablir %@")
/// ```
///
/// Each format holds exactly one `%@`, replaced by the action name. Apple's equivalent is
/// overriding `undoMenuTitle(forUndoActionName:)` in a subclass.
public struct UndoMenuTitles: Equatable, Sendable {
    /// The undo title when there is no action name ("Undo").
    public private(set) var undo: String
    /// The redo title when there is no action name ("Redo").
    public private(set) var redo: String
    /// The undo title with an action name, `%@` standing for the name ("Undo %@").
    public private(set) var undoFormat: String
    /// The redo title with an action name, `%@` standing for the name ("Redo %@").
    public private(set) var redoFormat: String

    /// The English titles.
    public init() {
        undo = "Undo"
        redo = "Redo"
        undoFormat = "Undo %@"
        redoFormat = "Redo %@"
    }

    /// Creates titles from localized strings.
    ///
    /// - Parameters:
    ///   - undo: The undo title when there is no action name.
    ///   - redo: The redo title when there is no action name.
    ///   - undoFormat: The undo title with an action name, with one `%@` for the name.
    ///   - redoFormat: The redo title with an action name, with one `%@` for the name.
    /// - Throws: ``UndoError/invalidMenuTitleFormat(_:)`` if a format does not contain exactly one
    ///   `%@`.
    public init(undo: String, redo: String, undoFormat: String, redoFormat: String) throws(UndoError) {
        for format in [undoFormat, redoFormat] where Self.placeholderCount(in: format) != 1 {
            throw .invalidMenuTitleFormat(format)
        }
        self.undo = undo
        self.redo = redo
        self.undoFormat = undoFormat
        self.redoFormat = redoFormat
    }

    /// The undo title for `actionName`: ``undo`` when the name is empty, else ``undoFormat``
    /// with the name in place of `%@`.
    public func undoTitle(forActionName actionName: String) -> String {
        actionName.isEmpty ? undo : Self.fill(undoFormat, with: actionName)
    }

    /// The redo title for `actionName`: ``redo`` when the name is empty, else ``redoFormat``
    /// with the name in place of `%@`.
    public func redoTitle(forActionName actionName: String) -> String {
        actionName.isEmpty ? redo : Self.fill(redoFormat, with: actionName)
    }

    private static let placeholder = "%@"

    private static func placeholderCount(in format: String) -> Int {
        format.components(separatedBy: placeholder).count - 1
    }

    private static func fill(_ format: String, with name: String) -> String {
        guard let range = format.range(of: placeholder) else { return format }
        return format.replacingCharacters(in: range, with: name)
    }
}
