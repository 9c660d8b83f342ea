// The pure state of an undo history: stacks, open groups, the undo/redo mode and the
// registration counter. `UndoHistory` owns one and performs what its methods return.
//
// Rule: no method here runs user code. Methods that drop groups hand them back to the caller
// (`discarded`), because releasing a closure can run a `deinit` that calls into the history,
// and that must happen after this struct's mutation has ended.

/// The state of an undo history, as a value with no side effects.
struct UndoStateMachine {
    /// Whether the history is performing a group, and in which direction.
    enum Mode: Equatable {
        case idle, undoing, redoing
    }

    /// Where `register(_:)` would put an action now.
    enum RegistrationRoute {
        /// Into the group collecting the inverse, or the innermost open group.
        case direct
        /// Nowhere: registration is disabled.
        case ignored
        /// No group is open and `groupsByEvent` is on: open the event group first.
        case needsEventGroup
        /// No group is open and `groupsByEvent` is off: the registration is refused (Apple raises
        /// "must begin a group before registering undo").
        case refused
    }

    /// What closing a group produced.
    struct CloseOutcome {
        /// Whether the closed group was top-level and marked discardable.
        var isDiscardable: Bool
        /// Groups dropped by `levelsOfUndo` (to release outside the state access).
        var discarded: [UndoGroup]

        /// Moves `discarded` out, leaving it empty, so the caller holds the only reference.
        mutating func takeDiscarded() -> [UndoGroup] {
            var taken: [UndoGroup] = []
            swap(&taken, &discarded)
            return taken
        }
    }

    /// What finishing an undo or redo produced.
    struct FinishOutcome {
        /// How many groups the performed actions opened and did not close (closed now).
        var groupsLeftOpen: Int
        /// Groups dropped by `levelsOfUndo`.
        var discarded: [UndoGroup]

        /// Moves `discarded` out, leaving it empty, so the caller holds the only reference.
        mutating func takeDiscarded() -> [UndoGroup] {
            var taken: [UndoGroup] = []
            swap(&taken, &discarded)
            return taken
        }
    }

    /// Closed top-level groups that `undo()` can perform, oldest first.
    private(set) var undoStack: [UndoGroup] = []
    /// Closed top-level groups that `redo()` can perform, oldest first.
    private(set) var redoStack: [UndoGroup] = []
    /// Groups opened outside undo/redo, outermost first.
    private(set) var openGroups: [UndoGroup] = []
    /// Whether `openGroups[0]` was opened by `groupsByEvent` rather than by `beginUndoGrouping`.
    private(set) var eventGroupIsOpen = false
    /// While undoing or redoing: the group that collects the inverse registrations (first), and
    /// groups the performed actions opened inside it.
    private(set) var recordingGroups: [UndoGroup] = []
    /// Whether the history is performing a group.
    private(set) var mode: Mode = .idle
    /// How many `disableUndoRegistration()` calls are not yet balanced.
    private(set) var disableCount = 0
    /// Whether a registration with no open group opens an event group.
    var groupsByEvent = true
    /// The most top-level groups each stack keeps; 0 means no limit.
    private(set) var levelsOfUndo = 0

    // MARK: Queries

    /// The nesting depth of open groups (while performing: of groups collecting the inverse).
    var groupingLevel: Int {
        mode == .idle ? openGroups.count : recordingGroups.count
    }

    /// Whether some open group already holds an action or a closed nested group.
    var openGroupsHoldActions: Bool {
        for group in openGroups where !group.isEmpty { return true }
        return false
    }

    /// Whether there is anything to undo (possibly after closing open groups).
    var canUndo: Bool { !undoStack.isEmpty || openGroupsHoldActions }

    /// Whether there is anything to redo.
    var canRedo: Bool { !redoStack.isEmpty }

    /// How many times `undo()` can run before nothing is left.
    var undoCount: Int { undoStack.count + (openGroupsHoldActions ? 1 : 0) }

    /// How many times `redo()` can run before nothing is left.
    var redoCount: Int { redoStack.count }

    // MARK: Registration

    /// Where `register(_:)` would put an action now.
    var registrationRoute: RegistrationRoute {
        if disableCount > 0 { return .ignored }
        if mode != .idle || !openGroups.isEmpty { return .direct }
        return groupsByEvent ? .needsEventGroup : .refused
    }

    /// Whether `beginUndoGrouping()` must open the event group first: `groupsByEvent` is on, no
    /// group is open, and the history is not undoing or redoing (Apple's undo manager does the
    /// same, so a group begun at level 0 lands at level 2, inside the event group).
    var beginNeedsEventGroup: Bool {
        groupsByEvent && mode == .idle && openGroups.isEmpty
    }

    /// Stores `action` in the group that should receive it, after the caller opened the group
    /// `registrationRoute` asked for.
    ///
    /// If no group is open even so (a notification observer closed it again), the action opens
    /// the event group quietly: it is never lost.
    ///
    /// - Returns: The redo groups the registration cleared, to release outside the state access.
    mutating func register(_ action: consuming UndoAction) -> [UndoGroup] {
        if disableCount > 0 { return [] }
        if mode != .idle {
            recordingGroups[recordingGroups.count - 1].entries.append(.action(action))
            return []
        }
        if openGroups.isEmpty { openGroup(isEvent: true) }
        openGroups[openGroups.count - 1].entries.append(.action(action))
        if redoStack.isEmpty { return [] }
        let cleared = redoStack
        redoStack = []
        return cleared
    }

    /// Counts one more `disableUndoRegistration()`.
    mutating func disableRegistration() {
        disableCount += 1
    }

    /// Balances one `disableUndoRegistration()`.
    mutating func enableRegistration() throws(UndoError) {
        guard disableCount > 0 else { throw .enableWithoutDisable }
        disableCount -= 1
    }

    // MARK: Action names

    /// Which group `setActionName(_:)` and `setActionIsDiscardable(_:)` change.
    private enum MetadataTarget {
        case recording, outermostOpenGroup, newestUndoGroup, none
    }

    /// While undoing or redoing: the group collecting the inverse. Otherwise the outermost open
    /// group, or else the newest group on the undo stack.
    private var metadataTarget: MetadataTarget {
        if mode != .idle { return .recording }
        if !openGroups.isEmpty { return .outermostOpenGroup }
        if !undoStack.isEmpty { return .newestUndoGroup }
        return .none
    }

    /// Names the group that the next undo (or, while undoing, the next redo) performs.
    mutating func setActionName(_ name: String) {
        switch metadataTarget {
        case .recording: recordingGroups[0].actionName = name
        case .outermostOpenGroup: openGroups[0].actionName = name
        case .newestUndoGroup: undoStack[undoStack.count - 1].actionName = name
        case .none: break
        }
    }

    /// Marks the group that `setActionName(_:)` would name as discardable or not.
    mutating func setActionIsDiscardable(_ discardable: Bool) {
        switch metadataTarget {
        case .recording: recordingGroups[0].isDiscardable = discardable
        case .outermostOpenGroup: openGroups[0].isDiscardable = discardable
        case .newestUndoGroup: undoStack[undoStack.count - 1].isDiscardable = discardable
        case .none: break
        }
    }

    // MARK: Groups

    /// Opens a group, nested in the current one if any.
    ///
    /// - Parameter isEvent: Whether `groupsByEvent` opens it (only at level 0, outside undo/redo).
    mutating func openGroup(isEvent: Bool = false) {
        if mode != .idle {
            recordingGroups.append(UndoGroup())
            return
        }
        if openGroups.isEmpty { eventGroupIsOpen = isEvent }
        openGroups.append(UndoGroup())
    }

    /// Checks that `closeGroup()` would succeed, and tells whether the group it closes is
    /// discardable (for the will-close notification).
    func checkCanCloseGroup() throws(UndoError) -> Bool {
        if mode != .idle {
            // The first recording group belongs to the undo/redo itself.
            guard recordingGroups.count > 1 else { throw .endUndoGroupingWithoutBegin }
            return false
        }
        guard let outermost = openGroups.first else { throw .endUndoGroupingWithoutBegin }
        return openGroups.count == 1 && outermost.isDiscardable
    }

    /// Closes the innermost open group. A nested group becomes one entry of its parent; a
    /// top-level group goes onto the undo stack. Empty groups are kept, as Apple keeps them: an
    /// empty step can be undone (doing nothing) and then redone.
    mutating func closeGroup() throws(UndoError) -> CloseOutcome {
        let isDiscardable = try checkCanCloseGroup()
        if mode != .idle {
            let closed = recordingGroups.removeLast()
            recordingGroups[recordingGroups.count - 1].append(nested: closed)
            return CloseOutcome(isDiscardable: false, discarded: [])
        }
        let closed = openGroups.removeLast()
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].append(nested: closed)
            return CloseOutcome(isDiscardable: false, discarded: [])
        }
        eventGroupIsOpen = false
        undoStack.append(closed)
        return CloseOutcome(isDiscardable: isDiscardable, discarded: Self.trim(&undoStack, to: levelsOfUndo))
    }

    // MARK: Undo and redo

    /// Takes the group `undoNestedGroup()` performs and enters undoing mode.
    ///
    /// With no open group that is the newest group on the undo stack. With open groups it is the
    /// newest closed group inside the innermost open group.
    ///
    /// - Returns: The group to perform, or nil when there is nothing to undo (mode unchanged).
    /// - Throws: `UndoError.busy` while undoing or redoing, `.ungroupedActionsInOpenGroup` or
    ///   `.noClosedGroupInOpenGroup` when the innermost open group does not end with a closed group.
    mutating func beginUndo() throws(UndoError) -> UndoGroup? {
        try checkIdle("undoNestedGroup()")
        let group: UndoGroup
        if openGroups.isEmpty {
            guard let last = undoStack.popLast() else { return nil }
            group = last
        } else {
            let index = openGroups.count - 1
            switch openGroups[index].entries.last {
            case .group(let nested)?:
                openGroups[index].entries.removeLast()
                group = nested
            case .action?:
                throw .ungroupedActionsInOpenGroup(groupingLevel: openGroups.count)
            case nil:
                throw .noClosedGroupInOpenGroup(groupingLevel: openGroups.count)
            }
        }
        startRecording(.undoing, like: group)
        return group
    }

    /// Takes the newest group on the redo stack and enters redoing mode.
    ///
    /// - Returns: The group to perform, or nil when there is nothing to redo (mode unchanged).
    /// - Throws: `UndoError.busy` while undoing or redoing, `.groupOpen` if a group is open.
    mutating func beginRedo() throws(UndoError) -> UndoGroup? {
        try checkIdle("redo()")
        guard openGroups.isEmpty else {
            throw .groupOpen(operation: "redo()", groupingLevel: openGroups.count)
        }
        guard let group = redoStack.popLast() else { return nil }
        startRecording(.redoing, like: group)
        return group
    }

    /// Leaves undoing or redoing mode: the inverse registrations become one top-level group on
    /// the other stack, even when there are none (as Apple does: undoing an empty group, or one
    /// whose actions register nothing, leaves a step that redo can perform). Groups the actions
    /// left open are closed first.
    mutating func finishPerforming() -> FinishOutcome {
        precondition(mode != .idle, "finishPerforming() outside undo or redo")
        let leftOpen = recordingGroups.count - 1
        while recordingGroups.count > 1 {
            let closed = recordingGroups.removeLast()
            recordingGroups[recordingGroups.count - 1].append(nested: closed)
        }
        let recorded = recordingGroups.removeLast()
        let wasUndoing = mode == .undoing
        mode = .idle
        let discarded: [UndoGroup]
        if wasUndoing {
            redoStack.append(recorded)
            discarded = Self.trim(&redoStack, to: levelsOfUndo)
        } else {
            undoStack.append(recorded)
            discarded = Self.trim(&undoStack, to: levelsOfUndo)
        }
        return FinishOutcome(groupsLeftOpen: leftOpen, discarded: discarded)
    }

    /// Throws `UndoError.busy` unless the history is idle.
    func checkIdle(_ operation: String) throws(UndoError) {
        switch mode {
        case .idle: return
        case .undoing: throw .busy(operation: operation, whileUndoing: true)
        case .redoing: throw .busy(operation: operation, whileUndoing: false)
        }
    }

    private mutating func startRecording(_ newMode: Mode, like group: UndoGroup) {
        mode = newMode
        // The inverse keeps the name and discardability of what it reverts, unless an action
        // sets new ones.
        recordingGroups = [UndoGroup(actionName: group.actionName, isDiscardable: group.isDiscardable)]
    }

    // MARK: Removal and limits

    /// Clears both stacks, drops open groups, and re-enables registration.
    ///
    /// While undoing or redoing, the inverse collected so far is dropped too and collecting
    /// starts again in a fresh group.
    mutating func removeAllActions() -> [[UndoGroup]] {
        // The arrays are handed back whole (no copying of their groups).
        var discarded = [undoStack, redoStack, openGroups]
        undoStack = []
        redoStack = []
        openGroups = []
        eventGroupIsOpen = false
        disableCount = 0
        if mode != .idle {
            discarded.append(recordingGroups)
            recordingGroups = [UndoGroup()]
        }
        return discarded
    }

    /// Removes every action whose target is `object`, from both stacks and from open groups.
    /// Closed groups that become empty are dropped (groups that were empty already stay); open
    /// groups stay open.
    mutating func removeAllActions(withTarget object: AnyObject) -> [UndoEntry] {
        removeAllActions { $0.involves(object) }
    }

    /// Removes every action `shouldRemove` picks, as ``removeAllActions(withTarget:)`` does.
    mutating func removeAllActions(where shouldRemove: (UndoAction) -> Bool) -> [UndoEntry] {
        var removed: [UndoEntry] = []
        removed += Self.removeActions(where: shouldRemove, from: &undoStack)
        removed += Self.removeActions(where: shouldRemove, from: &redoStack)
        for index in openGroups.indices {
            removed += openGroups[index].removeActions(where: shouldRemove)
        }
        for index in recordingGroups.indices {
            removed += recordingGroups[index].removeActions(where: shouldRemove)
        }
        return removed
    }

    /// Sets the limit on top-level groups per stack, dropping the oldest groups beyond it.
    /// Negative values count as 0 (no limit).
    mutating func setLevelsOfUndo(_ levels: Int) -> [UndoGroup] {
        levelsOfUndo = max(0, levels)
        return Self.trim(&undoStack, to: levelsOfUndo) + Self.trim(&redoStack, to: levelsOfUndo)
    }

    private static func trim(_ stack: inout [UndoGroup], to levels: Int) -> [UndoGroup] {
        guard levels > 0, stack.count > levels else { return [] }
        let excess = stack.count - levels
        let dropped = Array(stack[..<excess])
        stack.removeFirst(excess)
        return dropped
    }

    private static func removeActions(where shouldRemove: (UndoAction) -> Bool,
                                      from stack: inout [UndoGroup]) -> [UndoEntry] {
        var removed: [UndoEntry] = []
        var emptied: [Int] = []
        for index in stack.indices {
            let taken = stack[index].removeActions(where: shouldRemove)
            if !taken.isEmpty, stack[index].isEmpty { emptied.append(index) }
            removed += taken
        }
        for index in emptied.reversed() {
            removed.append(.group(stack.remove(at: index)))
        }
        return removed
    }
}
