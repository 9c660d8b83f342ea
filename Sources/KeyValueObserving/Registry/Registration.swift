import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// One observation: a root object, a key path, options and a way to deliver changes.
///
/// A registration owns a tree of ``ObservationNode``s, one per (object, key) it listens to: the
/// links of its key path and the keys its keys depend on. The tree is rebuilt below a link
/// when the object at that link changes.
///
/// The change handler lives in the tree: each node holds it, and the registration holds it only
/// until the tree is attached. Invalidating drops the tree, so whatever the handler captures (often
/// the observed object itself) is released then, not when the token is.
///
/// Thread safety: `isActive` is atomic; the tree is guarded by `tree`'s mutex. Delivery happens
/// without any lock held.
@usableFromInline
final class Registration: @unchecked Sendable {
    // @unchecked: `root` is a `weak let` (reads are atomic in the runtime), every other stored
    // property is immutable or a Mutex/Atomic; the handler is @Sendable.

    @usableFromInline let keyPath: String
    /// The first key of the key path (without a final `@count`).
    let firstKey: String
    /// The keys after the first (none for a plain key: no array is allocated then).
    let laterKeys: [String]
    @usableFromInline let wantsOld: Bool
    @usableFromInline let wantsNew: Bool
    let wantsPrior: Bool
    /// Whether the key path ended in `@count`: the values reported are the element counts of
    /// the collection that `components` lead to, and every change of it is a `.setting`.
    let countsElements: Bool
    /// The object the key path starts from.
    @usableFromInline weak let root: AnyObject?
    /// For observer-object registrations: who observes, and with which context.
    let observerIdentity: ObjectIdentifier?
    let context: UInt
    /// For observer-object registrations: the observation state of the root that lists it.
    weak let observerStorage: KeyValueObservationStorage?

    @usableFromInline let isActive = Atomic<Bool>(true)
    let tree: Mutex<Tree>

    /// The nodes of the registration, and the handler until the registration ends.
    struct Tree {
        var root: ObservationNode?
        var handler: ChangeHandler?
    }

    init(root: AnyObject, keyPath: String, firstKey: String, laterKeys: [String], countsElements: Bool = false,
         options: KeyValueObservingOptions,
         observerIdentity: ObjectIdentifier? = nil, context: UInt = 0,
         observerStorage: KeyValueObservationStorage? = nil,
         deliver: @escaping ChangeHandler) {
        self.root = root
        self.keyPath = keyPath
        self.firstKey = firstKey
        self.laterKeys = laterKeys
        self.countsElements = countsElements
        wantsOld = options.contains(.old)
        wantsNew = options.contains(.new)
        wantsPrior = options.contains(.prior)
        self.observerIdentity = observerIdentity
        self.context = context
        self.observerStorage = observerStorage
        tree = Mutex(Tree(root: nil, handler: deliver))
    }

    /// Attaches the node tree to `root`. Called once, before the registration is returned.
    ///
    /// - Parameter list: The list of the first key on `root`, when the caller has it.
    func start(on root: AnyObject, list: KeyObservers? = nil) {
        tree.withTrackedLock(self) { tree in
            guard let handler = tree.handler else { return }
            var ancestors: [AncestorKey] = []
            tree.root = ObservationNode.attach(registration: self, handler: handler, object: root,
                                               key: firstKey, remaining: laterKeys[...],
                                               depth: 0, anchor: nil, owner: nil, ancestors: &ancestors,
                                               knownList: list)
        }
    }

    /// Ends the observation: no more deliveries; detaches every node. Safe to call repeatedly,
    /// from any thread, and from inside a delivery.
    func invalidate() {
        guard isActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let (root, handler) = tree.withTrackedLock(self) { tree -> (ObservationNode?, ChangeHandler?) in
            defer { tree = Tree() }
            return (tree.root, tree.handler)
        }
        root?.detachSubtree()
        withExtendedLifetime(handler) {}   // released here, outside the lock
        if observerIdentity != nil { observerStorage?.removeObserverRegistration(self) }
    }

    /// The current value of the whole key path.
    func currentValue() -> Any? {
        guard let root else { return nil }
        let value = valueAlong(root, ([firstKey] + laterKeys)[...])
        return countsElements ? elementCount(of: value) : value
    }

    /// Rebuilds the part of the tree below each of `nodes` (whose objects changed).
    func rewire(_ nodes: [ObservationNode]) {
        tree.withTrackedLock(self) { tree in
            guard tree.root != nil else { return }
            for node in nodes { node.rebuildNext() }
        }
    }
}

/// Receives a change for the registration's key path of its root object.
typealias ChangeHandler = @Sendable (AnyObject, KeyValueChange) -> Void

/// Reads `path` starting at `object`, through key-value coding: objects answer for themselves,
/// other values (structs, enums, dictionaries) as ``KeyValue/value(forKey:of:)`` reads them.
/// Stops with `nil` at a `nil` link or an undefined key.
func valueAlong(_ object: AnyObject, _ path: ArraySlice<String>) -> Any? {
    var current: Any? = object
    for key in path {
        guard let value = current else { return nil }
        if let codable = value as? any KeyValueCodable {
            current = flattenOptional(try? codable.value(forKey: key))
        } else {
            current = flattenOptional(try? KeyValue.value(forKey: key, of: value))
        }
    }
    return current
}

/// An (object, key) pair on the path of an attachment, to stop dependency cycles.
struct AncestorKey: Equatable {
    var object: ObjectIdentifier
    var key: String
}
