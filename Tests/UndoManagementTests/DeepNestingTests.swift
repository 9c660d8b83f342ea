// Groups nested 100,000 deep: undoing, redoing, trimming and freeing them must not grow the
// stack with the depth. Each scenario also runs on a thread with a 512 KiB stack.

import Foundation
import ObjectGraphInternals
import Testing
@testable import UndoManagement

/// Runs `body` on a new thread with a 512 KiB stack and hands back what it returned or threw.
private func onSmallStack(
    _ body: @escaping @Sendable () throws -> [String: Int]
) async -> Result<[String: Int], any Error> {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: Result { try body() })
        }
        thread.stackSize = 512 * 1024 * ThreadSanitizer.stackScale  // instrumented code needs more
        thread.start()
    }
}

/// Scenarios on deeply nested groups; each returns counters to compare with `expected`.
enum DeepScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case undo, redo, removeAllActionsAfterClosing, removeAllActionsWhileOpen, undoNestedGroup,
         levelsOfUndoTrimming, loweringLevelsOfUndo, registrationClearsDeepRedo,
         removeAllActionsWithTarget, historyDeinit

    static let depth = 100_000

    var testDescription: String { rawValue }

    /// Opens `depth` nested groups, registering `action` in each, and closes them all: one
    /// top-level group nested `depth` deep.
    private static func pushDeepGroup(on history: UndoHistory, depth: Int = depth,
                                      action: @escaping () -> Void) throws {
        for _ in 0..<depth {
            history.beginUndoGrouping()
            try history.registerUndo(handler: action)
        }
        for _ in 0..<depth { try history.endUndoGrouping() }
    }

    func run() throws -> [String: Int] {
        let depth = Self.depth
        let history = UndoHistory(notificationCenter: nil)
        // Explicit groups only, so a group begun at level 0 is top-level; the one scenario that
        // registers with no group open uses the event group.
        history.groupsByEvent = self == .registrationClearsDeepRedo
        var count = 0
        switch self {
        case .undo:
            try Self.pushDeepGroup(on: history) { count += 1 }
            try history.undo()
            return ["count": count, "undoCount": history.undoCount, "level": history.groupingLevel]
        case .redo:
            // Level i holds [close, level i+1, open+register]: undoing runs every "open" first,
            // then every "close", so the inverse (the redo group) is nested `depth` deep too.
            var redone = 0
            for _ in 0..<depth {
                history.beginUndoGrouping()
                try history.registerUndo { [unowned history] in try? history.endUndoGrouping() }
            }
            for _ in 0..<depth {
                try history.registerUndo { [unowned history] in
                    history.beginUndoGrouping()
                    try? history.registerUndo { redone += 1 }
                }
                try history.endUndoGrouping()
            }
            try history.undo()
            let redoCount = history.redoCount
            try history.redo()
            return ["redoCount": redoCount, "redone": redone, "level": history.groupingLevel]
        case .removeAllActionsAfterClosing:
            try Self.pushDeepGroup(on: history) { count += 1 }
            history.removeAllActions()
            return ["count": count, "undoCount": history.undoCount]
        case .removeAllActionsWhileOpen:
            for _ in 0..<depth {
                history.beginUndoGrouping()
                try history.registerUndo { count += 1 }
            }
            history.removeAllActions()
            return ["count": count, "undoCount": history.undoCount, "level": history.groupingLevel]
        case .undoNestedGroup:
            history.beginUndoGrouping()
            try Self.pushDeepGroup(on: history) { count += 1 }
            try history.undoNestedGroup()
            let level = history.groupingLevel
            try history.endUndoGrouping()
            return ["count": count, "level": level, "undoCount": history.undoCount]
        case .levelsOfUndoTrimming:
            history.levelsOfUndo = 1
            try Self.pushDeepGroup(on: history) { count += 1 }
            try Self.pushDeepGroup(on: history, depth: 1) { count += 10 }
            let undoCount = history.undoCount
            try history.undo()
            return ["count": count, "undoCount": undoCount]
        case .loweringLevelsOfUndo:
            try Self.pushDeepGroup(on: history) { count += 1 }
            try Self.pushDeepGroup(on: history) { count += 1 }
            history.levelsOfUndo = 1
            let undoCount = history.undoCount
            try history.undo()
            return ["count": count, "undoCount": undoCount]
        case .registrationClearsDeepRedo:
            // The undo of a flat group whose actions open groups leaves a deep redo group.
            for _ in 0..<depth { try history.registerUndo { [unowned history] in try? history.endUndoGrouping() } }
            for _ in 0..<depth {
                try history.registerUndo { [unowned history] in
                    history.beginUndoGrouping()
                    try? history.registerUndo { count += 1 }
                }
            }
            try history.undo()
            let redoCount = history.redoCount
            try history.registerUndo { count += 1 }
            return ["redoCount": redoCount, "redoCountAfter": history.redoCount, "count": count]
        case .removeAllActionsWithTarget:
            let target = OrderLog()
            for level in 0..<depth {
                history.beginUndoGrouping()
                if level.isMultiple(of: 2) || level >= depth - 10 {
                    try history.registerUndo(withTarget: target) { $0.entries.append("x") }
                } else {
                    try history.registerUndo { count += 1 }
                }
            }
            for _ in 0..<depth { try history.endUndoGrouping() }
            history.removeAllActions(withTarget: target)
            history._checkInvariants()
            let undoCount = history.undoCount
            try history.undo()
            return ["count": count, "targetRuns": target.entries.count, "undoCount": undoCount]
        case .historyDeinit:
            // Only the local history holds the deep group: it is freed on return.
            try Self.pushDeepGroup(on: history) { count += 1 }
            history._checkInvariants()
            return ["count": count, "undoCount": history.undoCount]
        }
    }

    var expected: [String: Int] {
        let depth = Self.depth
        switch self {
        case .undo: return ["count": depth, "undoCount": 0, "level": 0]
        case .redo: return ["redoCount": 1, "redone": depth, "level": 0]
        case .removeAllActionsAfterClosing: return ["count": 0, "undoCount": 0]
        case .removeAllActionsWhileOpen: return ["count": 0, "undoCount": 0, "level": 0]
        // The outer group, empty once its nested group is undone, stays a step (as on Apple).
        case .undoNestedGroup: return ["count": depth, "level": 1, "undoCount": 1]
        case .levelsOfUndoTrimming: return ["count": 10, "undoCount": 1]
        case .loweringLevelsOfUndo: return ["count": depth, "undoCount": 1]
        case .registrationClearsDeepRedo: return ["redoCount": 1, "redoCountAfter": 0, "count": 0]
        case .removeAllActionsWithTarget:
            // Odd levels below the innermost ten; those ten groups end up empty and are dropped.
            return ["count": (depth - 10) / 2, "targetRuns": 0, "undoCount": 1]
        case .historyDeinit: return ["count": 0, "undoCount": 1]
        }
    }
}

@Suite("Deeply nested groups")
struct DeepNestingTests {
    @Test(arguments: DeepScenario.allCases)
    func scenarioOnTheTestThread(_ scenario: DeepScenario) throws {
        #expect(try scenario.run() == scenario.expected)
    }

    @Test(arguments: DeepScenario.allCases)
    func scenarioOnA512KiBStack(_ scenario: DeepScenario) async throws {
        let outcome = await onSmallStack { try scenario.run() }
        #expect(try outcome.get() == scenario.expected)
    }

    @Test func stateMachineCountsAndChecksDeepGroupsIteratively() throws {
        var state = UndoStateMachine()
        for _ in 0..<DeepScenario.depth {
            state.openGroup()
            _ = state.register(UndoAction {})
        }
        for _ in 0..<DeepScenario.depth { _ = try state.closeGroup() }
        #expect(state.undoStack.count == 1)
        #expect(state.undoStack[0].actionCount == DeepScenario.depth)
        state._checkInvariants()
        UndoGroup.dismantle(state.removeAllActions())
        #expect(state.undoCount == 0)
    }
}
