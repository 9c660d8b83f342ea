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

    /// Whether the action was registered with a target that has been freed since (it can
    /// never run again).
    var targetIsFreed: Bool {
        guard case .targeted = body else { return false }
        return target == nil
    }
}

/// One element of a group: an action, or a closed nested group.
enum UndoEntry {
    case action(UndoAction)
    case group(UndoGroup)
}

/// A group of undo actions that is undone as one unit, in reverse order of registration.
///
/// Groups nest to any depth (one level per `beginUndoGrouping()`), so nothing that walks a group
/// recurses: running, counting, removing and freeing use explicit stacks
/// (UndoGroup+Nesting.swift). Freeing a deeply nested group by dropping its last reference would
/// release one level per stack frame; hand dropped groups to `dismantle(_:)` instead.
struct UndoGroup {
    /// Actions and closed nested groups, in registration order.
    var entries: [UndoEntry] = []
    /// The name shown in "Undo <name>" (empty when none was set).
    var actionName = ""
    /// Whether the group as a whole may be discarded (Apple's `setActionIsDiscardable`).
    var isDiscardable = false

    /// Whether a nested group was ever added (it may have been taken out again): groups without
    /// one are freed without being taken apart (see `dismantle(_:)`).
    private(set) var mayHoldNestedGroups = false

    /// Whether the group holds nothing.
    var isEmpty: Bool { entries.isEmpty }

    /// Adds a closed nested group as the newest entry.
    mutating func append(nested group: UndoGroup) {
        entries.append(.group(group))
        mayHoldNestedGroups = true
    }
}
