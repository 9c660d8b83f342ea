// The values an undo history stores: actions, and groups of actions.
//
// None of these types is public: users only see `UndoHistory`. They are values so that the
// state machine (`UndoStateMachine`) stays a pure struct.

/// One registered undo action: a closure, and the object it acts on (if any).
///
/// The target is held weakly. Apple documents that its undo manager keeps an unowned reference
/// to the target "to prevent retain cycles"; a weak reference keeps that promise (the history
/// never keeps a target alive) and turns the crash Apple gets on a freed target into a skipped
/// action.
struct UndoAction {
    /// What to run.
    enum Body {
        /// Runs with the target, which must still be alive.
        case targeted((AnyObject) -> Void)
        /// Runs without a target (registrations for value types).
        case untargeted(() -> Void)
    }

    /// The object the action acts on; nil for untargeted actions, or once the target is freed.
    weak var target: AnyObject?
    /// The closure to run.
    let body: Body

    /// Creates an action that calls `handler` with `target`.
    init<Target: AnyObject>(target: Target, handler: @escaping (Target) -> Void) {
        self.target = target
        // The stored target is always a `Target`: registration is the only place it is set.
        self.body = .targeted { handler(unsafeDowncast($0, to: Target.self)) }
    }

    /// Creates an action with no target.
    init(handler: @escaping () -> Void) {
        self.target = nil
        self.body = .untargeted(handler)
    }

    /// Runs the action. Returns false, without running anything, if the target has been freed.
    @discardableResult
    func perform() -> Bool {
        switch body {
        case .targeted(let handler):
            guard let target else { return false }
            handler(target)
            return true
        case .untargeted(let handler):
            handler()
            return true
        }
    }

    /// Whether the action was registered with `object` as its target.
    func involves(_ object: AnyObject) -> Bool {
        target === object
    }
}

/// One element of a group: an action, or a closed nested group.
enum UndoEntry {
    case action(UndoAction)
    case group(UndoGroup)
}

/// A group of undo actions that is undone as one unit, in reverse order of registration.
struct UndoGroup {
    /// Actions and closed nested groups, in registration order.
    var entries: [UndoEntry] = []
    /// The name shown in "Undo <name>" (empty when none was set).
    var actionName = ""
    /// Whether the group as a whole may be discarded (Apple's `setActionIsDiscardable`).
    var isDiscardable = false

    /// Whether the group holds nothing.
    var isEmpty: Bool { entries.isEmpty }

    /// The number of actions in this group and its nested groups.
    var actionCount: Int {
        var count = 0
        for entry in entries {
            switch entry {
            case .action: count += 1
            case .group(let nested): count += nested.actionCount
            }
        }
        return count
    }

    /// Removes every action whose target is `object`, in this group and its nested groups, and
    /// drops nested groups that become empty.
    ///
    /// - Returns: The removed entries, so the caller can release them outside any state access
    ///   (releasing a closure can run a `deinit` that calls back into the history).
    mutating func removeActions(involving object: AnyObject) -> [UndoEntry] {
        var removed: [UndoEntry] = []
        var kept: [UndoEntry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            switch entry {
            case .action(let action):
                if action.involves(object) { removed.append(entry) } else { kept.append(entry) }
            case .group(var nested):
                removed += nested.removeActions(involving: object)
                if nested.isEmpty { removed.append(.group(nested)) } else { kept.append(.group(nested)) }
            }
        }
        if !removed.isEmpty { entries = kept }
        return removed
    }
}
