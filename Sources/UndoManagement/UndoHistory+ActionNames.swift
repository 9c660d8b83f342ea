// Action names, menu item titles and discardable actions.

extension UndoHistory {
    /// Names the current undo step, for menu titles such as "Undo Paste".
    ///
    /// The name goes to the outermost open group, or to the newest group on the undo stack when
    /// no group is open. Called from an action during an undo (or redo), it names the group that
    /// will be redone (or undone). An empty string removes the name.
    ///
    /// - Parameter actionName: The name, already localized.
    ///
    /// Corresponds to Apple's `setActionName(_:)`.
    public func setActionName(_ actionName: String) {
        state.setActionName(actionName)
    }

    /// The name of the group ``undo()`` would undo, or "" when it has none or there is nothing
    /// to undo.
    ///
    /// Corresponds to Apple's `undoActionName`.
    public var undoActionName: String { state.undoActionName }

    /// The name of the group ``redo()`` would redo, or "" when it has none or there is nothing
    /// to redo.
    ///
    /// Corresponds to Apple's `redoActionName`.
    public var redoActionName: String { state.redoActionName }

    /// The title of the Undo menu item, such as "Undo Paste", or "Undo" without an action name.
    ///
    /// Corresponds to Apple's `undoMenuItemTitle` (which also returns "Undo" when there is nothing
    /// to undo; use ``canUndo`` to enable the item).
    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }

    /// The title of the Redo menu item, such as "Redo Paste", or "Redo" without an action name.
    ///
    /// Corresponds to Apple's `redoMenuItemTitle`.
    public var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }

    /// The Undo menu title for an action name, built from ``menuTitles``: "Undo" for an empty
    /// name, else "Undo <name>" (or the localized format).
    ///
    /// - Parameter actionName: The action name.
    /// - Returns: The localized menu title.
    ///
    /// Corresponds to Apple's `undoMenuTitle(forUndoActionName:)`.
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        menuTitles.undoTitle(forActionName: actionName)
    }

    /// The Redo menu title for an action name, built from ``menuTitles``: "Redo" for an empty
    /// name, else "Redo <name>" (or the localized format).
    ///
    /// - Parameter actionName: The action name.
    /// - Returns: The localized menu title.
    ///
    /// Corresponds to Apple's `redoMenuTitle(forUndoActionName:)`.
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        menuTitles.redoTitle(forActionName: actionName)
    }

    /// Marks the current undo step as discardable: one that may be dropped safely, such as a
    /// change of the visible area of a document, because it does not change persistent state.
    ///
    /// It applies to the same group ``setActionName(_:)`` would name. The close notifications of
    /// a discardable top-level group carry ``groupIsDiscardableKey``.
    ///
    /// - Parameter discardable: Whether the step may be discarded.
    ///
    /// Corresponds to Apple's `setActionIsDiscardable(_:)`.
    public func setActionIsDiscardable(_ discardable: Bool) {
        state.setActionIsDiscardable(discardable)
    }

    /// Whether the group ``undo()`` would undo is marked discardable.
    ///
    /// Corresponds to Apple's `undoActionIsDiscardable`.
    public var undoActionIsDiscardable: Bool { state.undoActionIsDiscardable }

    /// Whether the group ``redo()`` would redo is marked discardable.
    ///
    /// Corresponds to Apple's `redoActionIsDiscardable`.
    public var redoActionIsDiscardable: Bool { state.redoActionIsDiscardable }
}
