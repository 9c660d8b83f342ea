// The undo manager: registration, stacks, limits and removal. Grouping, undo/redo, action
// names and notifications are in the UndoHistory+*.swift files.

import Foundation

/// A recorder of undo operations that can undo and redo them, with the semantics of Apple's
/// `UndoManager` (`NSUndoManager`).
///
/// Register the inverse of each change with ``registerUndo(withTarget:handler:)``. Changes made
/// between ``beginUndoGrouping()`` and ``endUndoGrouping()`` form one group, and ``undo()`` reverts
/// a whole group, running its actions in reverse order of registration. Registrations made by
/// the actions while undoing go to the redo stack, so ``redo()`` can put the change back, and
/// registrations made while redoing go to the undo stack again.
///
/// ```swift
/// final class Account { var balance = 0 }
///
/// let history = UndoHistory()
/// let account = Account()
///
/// func setBalance(_ value: Int, of account: Account) throws(UndoError) {
///     let old = account.balance
///     try history.registerUndo(withTarget: account) { try? setBalance(old, of: $0) }
///     history.setActionName("Change Balance")
///     account.balance = value
/// }
///
/// history.beginUndoGrouping()
/// try setBalance(10, of: account)
/// try history.endUndoGrouping()
/// try history.undo()   // balance is 0, redoMenuItemTitle is "Redo Change Balance"
/// try history.redo()   // balance is 10 again
/// ```
///
/// The name avoids Foundation's `UndoManager`, so both modules can be imported together.
/// Docs/Porting.md lists every difference from Apple's class.
///
/// ## Event grouping
/// ``groupsByEvent`` is on by default, as on Apple platforms: a registration made while no group
/// is open opens an *event group*, and so does ``beginUndoGrouping()`` at level 0 (its group
/// nests inside the event group). Apple closes that group at the end of each pass of the main
/// run loop. Here the end of an event is explicit: call ``closeEventGroup()`` when your program
/// finishes handling one user command or event. ``undo()`` also closes it, as Apple's does.
///
/// ## Targets
/// The history never keeps a target alive: it holds targets weakly (Apple documents an unowned
/// reference "to prevent retain cycles"). An action whose target has been freed is skipped when
/// its group is undone, instead of crashing as it would on Apple platforms. Call
/// ``removeAllActions(withTarget:)`` when a target goes away to drop its actions early.
///
/// ## Thread safety
/// `UndoHistory` is not thread-safe and not `Sendable`, like Apple's undo manager (which is
/// main-actor bound). Use each history from one thread, task or actor at a time. Registered
/// closures run synchronously on the thread that calls ``undo()`` or ``redo()``.
///
/// Corresponds to Apple's `UndoManager` / `NSUndoManager`.
public final class UndoHistory {
    /// The stacks, groups and counters, reached through `state`.
    private let stateStorage: UnsafeMutablePointer<UndoStateMachine>

    /// The stacks, groups and counters. Mutated only through its methods, which never run user
    /// code; this class runs handlers and posts notifications in between.
    ///
    /// Stored behind a pointer rather than as a stored property: Swift checks every access to a
    /// class's stored property for overlap at run time, which cost about a sixth of the time of
    /// an undo. Overlap cannot happen here: no `UndoStateMachine` method calls out to user code
    /// (groups it drops are handed back and released after the access ends), so every access
    /// ends before another can begin.
    var state: UndoStateMachine {
        unsafeAddress { UnsafePointer(stateStorage) }
        unsafeMutableAddress { stateStorage }
    }

    /// A Foundation notification center the history also posts its notifications to
    /// (``checkpointNotification`` and the others), or nil (the default).
    ///
    /// The history always posts to ``UndoNotificationCenter/shared``, which skips notifications
    /// nobody observes. Set this to `NotificationCenter.default` to post where Apple's undo
    /// manager posts; every notification is then posted there, observed or not, at about
    /// 300 ns each on Linux (a group open and close posts five).
    public var notificationCenter: NotificationCenter?

    /// The words used to build ``undoMenuItemTitle`` and ``redoMenuItemTitle``; set localized
    /// ones here.
    public var menuTitles = UndoMenuTitles()

    /// Creates an empty undo history.
    ///
    /// - Parameter notificationCenter: A Foundation notification center to post the history's
    ///   notifications to as well, such as `NotificationCenter.default`; nil (the default)
    ///   posts them only to ``UndoNotificationCenter/shared``.
    public init(notificationCenter: NotificationCenter? = nil) {
        self.notificationCenter = notificationCenter
        stateStorage = .allocate(capacity: 1)
        stateStorage.initialize(to: UndoStateMachine())
    }

    deinit {
        // Move the state out first, so releasing the groups touches no freed memory; dismantle
        // them, so groups nested to any depth are freed in constant stack space.
        var remaining = stateStorage.move()
        stateStorage.deallocate()
        UndoGroup.dismantle(remaining.removeAllActions())
    }

    // MARK: Registering undo operations

    /// Registers a closure that undoes a change to `target`.
    ///
    /// The action joins the innermost open group. While undoing it goes to the group that will be
    /// redone, while redoing to the group that will be undone; otherwise the registration also
    /// clears the redo stack. Nothing is recorded while registration is disabled.
    ///
    /// When no group is open: with ``groupsByEvent`` on (the default) the registration opens the
    /// event group (see ``closeEventGroup()``); with it off, the registration is refused, as
    /// Apple refuses it ("must begin a group before registering undo").
    ///
    /// ```swift
    /// try history.registerUndo(withTarget: document) { $0.title = oldTitle }
    /// ```
    ///
    /// A registration made while undoing or redoing, or while registration is disabled, never
    /// throws; so inside an undo handler, where nothing can be thrown, `try?` loses nothing:
    ///
    /// ```swift
    /// func setTitle(_ newTitle: String) throws(UndoError) {
    ///     let oldTitle = title
    ///     try history.registerUndo(withTarget: self) { try? $0.setTitle(oldTitle) }
    ///     title = newTitle
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object the action changes. It is held weakly: if it is freed, the action
    ///     is skipped. ``removeAllActions(withTarget:)`` removes the action.
    ///   - handler: The closure that reverts the change; it receives `target`.
    /// - Throws: ``UndoError/registrationWithoutOpenGroup`` if no group is open and
    ///   ``groupsByEvent`` is off; nothing is recorded.
    /// - Complexity: Amortized O(1); O(*n*) when it clears a redo stack of *n* groups.
    ///
    /// Corresponds to Apple's `registerUndo(withTarget:handler:)`.
    public func registerUndo<Target: AnyObject>(withTarget target: Target,
                                                handler: @escaping (Target) -> Void) throws(UndoError) {
        try record(UndoAction(target: target, handler: handler))
    }

    /// Registers a closure that undoes a change, with no target object (for value types and
    /// state that has no class instance to name).
    ///
    /// Everything said for ``registerUndo(withTarget:handler:)`` holds, except that
    /// ``removeAllActions(withTarget:)`` cannot remove the action (``removeAllActions()`` can).
    ///
    /// ```swift
    /// var settings = Settings()
    /// let old = settings
    /// try history.registerUndo { settings = old }
    /// ```
    ///
    /// - Parameter handler: The closure that reverts the change.
    /// - Throws: ``UndoError/registrationWithoutOpenGroup`` if no group is open and
    ///   ``groupsByEvent`` is off; nothing is recorded.
    /// - Complexity: Amortized O(1); O(*n*) when it clears a redo stack of *n* groups.
    public func registerUndo(handler: @escaping () -> Void) throws(UndoError) {
        try record(UndoAction(handler: handler))
    }

    /// Stores an action, opening the event group first if it needs one.
    private func record(_ action: consuming UndoAction) throws(UndoError) {
        switch state.registrationRoute {
        case .direct:
            break
        case .ignored:
            return
        case .needsEventGroup:
            openEventGroup()
        case .refused:
            throw .registrationWithoutOpenGroup
        }
        let discarded = state.register(action)
        // Released here, after the state access: a deinit may call back into the history.
        UndoGroup.dismantle(consume discarded)
    }

    // MARK: Enabling and disabling registration

    /// Stops recording registrations until a matching ``enableUndoRegistration()``.
    ///
    /// Calls nest: each one needs its own ``enableUndoRegistration()``. Grouping still works while
    /// registration is disabled.
    ///
    /// Corresponds to Apple's `disableUndoRegistration()`.
    public func disableUndoRegistration() {
        state.disableRegistration()
    }

    /// Balances one ``disableUndoRegistration()``; registration resumes when all are balanced.
    ///
    /// - Throws: ``UndoError/enableWithoutDisable`` if registration is not disabled.
    ///
    /// Corresponds to Apple's `enableUndoRegistration()`.
    public func enableUndoRegistration() throws(UndoError) {
        try state.enableRegistration()
    }

    /// Whether registrations are recorded (no ``disableUndoRegistration()`` is unbalanced).
    ///
    /// Corresponds to Apple's `isUndoRegistrationEnabled`.
    public var isUndoRegistrationEnabled: Bool { state.disableCount == 0 }

    // MARK: State

    /// Whether there is something to undo, counting actions in groups that are still open.
    ///
    /// True does not mean ``undo()`` succeeds right away: nested groups may have to be closed
    /// first. Actions whose target has been freed still count.
    ///
    /// Corresponds to Apple's `canUndo`.
    public var canUndo: Bool { state.canUndo }

    /// Whether there is something to redo.
    ///
    /// Corresponds to Apple's `canRedo`.
    public var canRedo: Bool { state.canRedo }

    /// How many times ``undo()`` can run before nothing is left (an open group holding actions
    /// counts as one).
    ///
    /// Corresponds to Apple's `undoCount`.
    public var undoCount: Int { state.undoCount }

    /// How many times ``redo()`` can run before nothing is left.
    ///
    /// Corresponds to Apple's `redoCount`.
    public var redoCount: Int { state.redoCount }

    /// Whether the history is running the actions of an undo.
    ///
    /// Corresponds to Apple's `isUndoing`.
    public var isUndoing: Bool { state.mode == .undoing }

    /// Whether the history is running the actions of a redo.
    ///
    /// Corresponds to Apple's `isRedoing`.
    public var isRedoing: Bool { state.mode == .redoing }

    // MARK: Limits and removal

    /// The most top-level groups each stack keeps; 0 (the default) means no limit.
    ///
    /// When closing a group (or an undo or redo) makes a stack longer than the limit, its oldest
    /// groups are dropped. Lowering the limit drops them at once. Negative values are stored
    /// as 0.
    ///
    /// Corresponds to Apple's `levelsOfUndo`.
    public var levelsOfUndo: Int {
        get { state.levelsOfUndo }
        set {
            let discarded = state.setLevelsOfUndo(newValue)
            UndoGroup.dismantle(consume discarded)
        }
    }

    /// Removes every action from both stacks and from open groups (which are closed without
    /// notifications), and re-enables registration.
    ///
    /// Called from an action during an undo or redo, it also drops the inverse collected so far;
    /// the remaining actions of that group still run.
    ///
    /// - Complexity: O(*n*) in the number of stored groups.
    ///
    /// Corresponds to Apple's `removeAllActions()`.
    public func removeAllActions() {
        let discarded = state.removeAllActions()
        UndoGroup.dismantle(consume discarded)
    }

    /// Removes every action registered with `target`, from both stacks and from open groups.
    ///
    /// Closed groups left empty are dropped; open groups stay open. Actions of other targets stay.
    /// Registration stays disabled if it was.
    ///
    /// - Parameter target: The target whose actions to remove.
    /// - Complexity: O(*n*) in the number of stored actions.
    ///
    /// Corresponds to Apple's `removeAllActions(withTarget:)`.
    public func removeAllActions(withTarget target: AnyObject) {
        let removed = state.removeAllActions(withTarget: target)
        UndoGroup.dismantle(consume removed)
    }

    /// Removes every action registered with a target that has been freed since (such an
    /// action can never run: undoing its group would change nothing), as
    /// ``removeAllActions(withTarget:)`` removes a live target's. An object that registers
    /// actions with itself as the target calls it from its `deinit`, where a reference to
    /// itself no longer matches its actions' (they already read as freed): a managed object
    /// context does, as Apple's removes its actions when it is deallocated.
    ///
    /// - Complexity: O(*n*) in the number of stored actions.
    package func removeActionsOfFreedTargets() {
        let removed = state.removeAllActions { $0.targetIsFreed }
        UndoGroup.dismantle(consume removed)
    }

    #if DEBUG
    /// Traps if the internal state is inconsistent (debug builds; used by tests).
    func _checkInvariants() {
        state._checkInvariants()
    }
    #endif
}

/// An undo history belongs to one thread, task or actor at a time.
@available(*, unavailable)
extension UndoHistory: Sendable {}
