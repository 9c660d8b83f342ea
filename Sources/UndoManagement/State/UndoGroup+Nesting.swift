// Walking nested groups without recursion: counting, removing a target's actions, and freeing.
//
// Groups can be nested as deep as a program calls `beginUndoGrouping()` (100,000 levels is a
// few lines of code), and a recursive walk or release of such a group overflows the stack.
// Every function here keeps its own stack of groups on the heap instead.

extension UndoGroup {
    /// The number of actions in this group and its nested groups.
    ///
    /// - Complexity: O(*n*) in the number of entries at all levels; constant stack depth.
    var actionCount: Int {
        var count = 0
        var pending: [UndoGroup] = [self]
        while let group = pending.popLast() {
            for entry in group.entries {
                switch entry {
                case .action: count += 1
                case .group(let nested): pending.append(nested)
                }
            }
        }
        return count
    }

    /// Removes every action whose target is `object`, in this group and its nested groups, and
    /// drops nested groups that become empty (a nested group that was empty already stays).
    ///
    /// Each group's entries are moved out while it is rebuilt, so no old copy of the tree is
    /// left to be released recursively.
    ///
    /// - Returns: The removed entries (actions and emptied groups, none of them nested), so the
    ///   caller can release them outside any state access (releasing a closure can run a
    ///   `deinit` that calls back into the history).
    /// - Complexity: O(*n*) in the number of entries at all levels; constant stack depth.
    mutating func removeActions(involving object: AnyObject) -> [UndoEntry] {
        removeActions { $0.involves(object) }
    }

    /// Removes every action `shouldRemove` picks, as ``removeActions(involving:)`` does.
    mutating func removeActions(where shouldRemove: (UndoAction) -> Bool) -> [UndoEntry] {
        var removed: [UndoEntry] = []
        var frames = [RebuildFrame(taking: &self)]
        while !frames.isEmpty {
            let top = frames.count - 1
            if let entry = frames[top].pending.popLast() {
                switch consume entry {
                case .action(let action):
                    if shouldRemove(action) {
                        removed.append(.action(action))
                    } else {
                        frames[top].kept.append(.action(action))
                    }
                case .group(var nested):
                    frames.append(RebuildFrame(taking: &nested))
                }
                continue
            }
            let frame = frames.removeLast()
            let wasEmpty = frame.wasEmpty
            let group = frame.finished()
            if frames.isEmpty {
                self = group
            } else if group.isEmpty, !wasEmpty {
                removed.append(.group(group))
            } else {
                // The parent's `mayHoldNestedGroups` is already set: it held this group before.
                frames[frames.count - 1].kept.append(.group(group))
            }
        }
        return removed
    }

    /// Frees `groups` and everything nested in them, one level at a time.
    ///
    /// Dropping the last reference to a group nested *d* deep releases it with *d* nested
    /// calls; this moves each nested group out of its parent first, so every release is flat.
    /// Pass groups nobody else holds (`consume` the variable), or the other holder frees them
    /// recursively later.
    ///
    /// - Complexity: O(*n*) in the number of entries at all levels; constant stack depth.
    @inline(__always)
    static func dismantle(_ groups: consuming [UndoGroup]) {
        // Nearly always empty (an undo, redo or registration that dropped nothing).
        if groups.isEmpty { return }
        dismantleNested(consume groups)
    }

    @inline(never)
    private static func dismantleNested(_ groups: consuming [UndoGroup]) {
        var pending = consume groups
        while var group = pending.popLast() {
            // A group that never held a nested group is freed flat as it is.
            guard group.mayHoldNestedGroups else { continue }
            while let entry = group.entries.popLast() {
                if case .group(let nested) = consume entry { pending.append(nested) }
            }
        }
    }

    /// Frees several arrays of groups (what `removeAllActions()` hands back).
    static func dismantle(_ stacks: consuming [[UndoGroup]]) {
        var remaining = consume stacks
        while let groups = remaining.popLast() { dismantle(consume groups) }
    }

    /// Frees entries, and the groups among them.
    static func dismantle(_ entries: consuming [UndoEntry]) {
        if entries.isEmpty { return }
        var remaining = consume entries
        var groups: [UndoGroup] = []
        while let entry = remaining.popLast() {
            if case .group(let group) = consume entry { groups.append(group) }
        }
        dismantle(consume groups)
    }
}

/// A group being rebuilt by `removeActions(involving:)`: its entries are moved out into
/// `pending` and taken from the end; those kept collect in reverse order.
private struct RebuildFrame {
    var group: UndoGroup
    var pending: [UndoEntry]
    var kept: [UndoEntry] = []
    /// Whether the group held nothing before (such a group is kept).
    let wasEmpty: Bool

    init(taking group: inout UndoGroup) {
        pending = group.entries
        wasEmpty = pending.isEmpty
        group.entries = []
        self.group = group
        kept.reserveCapacity(pending.count)
    }

    /// The group with the kept entries, in registration order.
    consuming func finished() -> UndoGroup {
        var result = group
        kept.reverse()
        result.entries = kept
        return result
    }
}
