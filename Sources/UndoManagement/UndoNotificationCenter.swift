// Where undo histories post their notifications by default: a notification center that knows
// which names are observed, so a notification nobody observes costs an atomic load.
//
// Why not NotificationCenter.default: on Linux (swift-corelibs-foundation) a post with an object
// costs about 290 ns even when nobody observes, and a group open and close posts five; the
// center cannot say whether a name is observed, and its addObserver cannot be overridden to
// count observers. So the layer keeps its own hub, with the same observing API.

import Foundation
import ObjectGraphInternals
import Synchronization

/// The notification center every ``UndoHistory`` posts to: observe undo notifications here.
///
/// Its observing API is that of Foundation's `NotificationCenter` (block-based): add an
/// observer for a notification name (or all names), optionally only for one history, and remove
/// it with the returned token.
///
/// ```swift
/// let token = UndoNotificationCenter.shared.addObserver(
///     forName: UndoHistory.checkpointNotification, object: history, queue: nil
/// ) { notification in
///     // flush pending changes into the open group
/// }
/// ...
/// UndoNotificationCenter.shared.removeObserver(token)
/// ```
///
/// Unlike `NotificationCenter.default`, it knows which names are observed, so a history skips
/// building and posting a notification nobody listens to: while it has no observers, posting
/// costs one atomic load. A history whose ``UndoHistory/notificationCenter`` is set posts there
/// too (always; that is where Apple's undo manager posts).
///
/// ## Thread safety
/// Thread-safe: observers can be added and removed from any thread. Observers run on the thread
/// that posts (the history's), or on `queue` when one is given, as with `NotificationCenter`.
///
/// No direct Apple equivalent: Apple's undo manager posts to `NotificationCenter.default`.
public final class UndoNotificationCenter: Sendable {
    /// The center all undo histories post to.
    public static let shared = UndoNotificationCenter()

    /// Delivers the notifications: filtering by object, queues and ordering are Foundation's.
    private let center = NotificationCenter()

    /// One bit per ``UndoNotificationKind`` that some observer would receive, for the check
    /// that skips posting. Written under `registrations`' lock.
    private let observedKinds = Atomic<Int>(0)

    /// The registered observers and the names they observe.
    private let registrations = Mutex(Registrations())

    private init() {}

    /// Adds an observer that runs `block` for each notification named `name` (any name when
    /// nil) whose object is `object` (any object when nil).
    ///
    /// - Parameters:
    ///   - name: The notification name, such as ``UndoHistory/checkpointNotification``; nil
    ///     observes every undo notification.
    ///   - object: The history to observe, or nil for every history.
    ///   - queue: The queue to run `block` on, or nil to run it synchronously on the posting
    ///     thread (needed to register into the closing group from a checkpoint observer).
    ///   - block: The observer.
    /// - Returns: A token; pass it to ``removeObserver(_:)`` to stop observing. The center keeps
    ///   the observer until then.
    ///
    /// Corresponds to `NotificationCenter.addObserver(forName:object:queue:using:)`.
    public func addObserver(forName name: Notification.Name?, object: AnyObject?,
                            queue: OperationQueue?,
                            using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        let token = center.addObserver(forName: name, object: object, queue: queue, using: block)
        let identifier = ObjectIdentifier(token)
        registrations.withTrackedLock(self) { registrations in
            registrations.add(identifier, name: name)
            observedKinds.store(registrations.observedKinds, ordering: .releasing)
        }
        return token
    }

    /// Removes an observer added with ``addObserver(forName:object:queue:using:)``; other
    /// values are ignored.
    ///
    /// - Parameter observer: The token `addObserver` returned.
    ///
    /// Corresponds to `NotificationCenter.removeObserver(_:)`.
    public func removeObserver(_ observer: any NSObjectProtocol) {
        center.removeObserver(observer)
        registrations.withTrackedLock(self) { registrations in
            registrations.remove(ObjectIdentifier(observer))
            observedKinds.store(registrations.observedKinds, ordering: .releasing)
        }
    }

    /// Whether some observer would receive a notification named `name` (from some history).
    ///
    /// - Parameter name: A notification name.
    /// - Returns: True when an observer of `name`, or of every name, is registered.
    /// - Complexity: One atomic load while there are no observers; else a lock and a dictionary
    ///   look-up.
    public func isObserved(_ name: Notification.Name) -> Bool {
        if observedKinds.load(ordering: .acquiring) == 0 { return false }
        return registrations.withTrackedLock(self) { $0.observes(name) }
    }

    /// Whether some observer would receive a notification of `kind`: one atomic load.
    @inline(__always)
    func isObserved(_ kind: UndoNotificationKind) -> Bool {
        observedKinds.load(ordering: .acquiring) & kind.bit != 0
    }

    /// Posts a notification to the observers, if any observes `name`.
    func post(_ name: Notification.Name, object: AnyObject, userInfo: [AnyHashable: Any]?) {
        center.post(name: name, object: object, userInfo: userInfo)
    }
}

/// The observers of an ``UndoNotificationCenter``, by token, and how many observe each name.
private struct Registrations {
    /// The name each observer observes (nil: every name), by token.
    private var nameByObserver: [ObjectIdentifier: Notification.Name?] = [:]
    /// How many observers observe each name.
    private var countByName: [Notification.Name: Int] = [:]
    /// How many observers observe every name.
    private var everyNameCount = 0

    mutating func add(_ observer: ObjectIdentifier, name: Notification.Name?) {
        nameByObserver[observer] = .some(name)
        if let name {
            countByName[name, default: 0] += 1
        } else {
            everyNameCount += 1
        }
    }

    /// Removes `observer`, if it is registered.
    mutating func remove(_ observer: ObjectIdentifier) {
        guard let entry = nameByObserver.removeValue(forKey: observer) else { return }
        if let name = entry {
            let remaining = countByName[name, default: 1] - 1
            countByName[name] = remaining > 0 ? remaining : nil
        } else {
            everyNameCount -= 1
        }
    }

    func observes(_ name: Notification.Name) -> Bool {
        everyNameCount > 0 || countByName[name] != nil
    }

    /// The bits of the notification kinds some observer would receive.
    var observedKinds: Int {
        var bits = 0
        for kind in UndoNotificationKind.allCases where observes(kind.name) { bits |= kind.bit }
        return bits
    }
}

/// The notifications an ``UndoHistory`` posts, so it can ask cheaply whether one is observed.
enum UndoNotificationKind: Int, CaseIterable {
    case checkpoint, willUndoChange, didUndoChange, willRedoChange, didRedoChange,
         didOpenUndoGroup, willCloseUndoGroup, didCloseUndoGroup

    /// The bit of this kind in `UndoNotificationCenter`'s mask.
    var bit: Int { 1 << rawValue }

    /// The notification name.
    var name: Notification.Name {
        switch self {
        case .checkpoint: return UndoHistory.checkpointNotification
        case .willUndoChange: return UndoHistory.willUndoChangeNotification
        case .didUndoChange: return UndoHistory.didUndoChangeNotification
        case .willRedoChange: return UndoHistory.willRedoChangeNotification
        case .didRedoChange: return UndoHistory.didRedoChangeNotification
        case .didOpenUndoGroup: return UndoHistory.didOpenUndoGroupNotification
        case .willCloseUndoGroup: return UndoHistory.willCloseUndoGroupNotification
        case .didCloseUndoGroup: return UndoHistory.didCloseUndoGroupNotification
        }
    }
}
