import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// One observation: a root object, a key path, options and a way to deliver changes.
///
/// A registration owns a tree of ``ObservationNode``s, one per (object, key) it listens to: the
/// links of its key path and the keys its keys depend on. The tree is rebuilt below a link
/// when the object at that link changes.
///
/// Thread safety: `isActive` is atomic; the tree is guarded by `tree`'s mutex. Delivery happens
/// without any lock held.
@usableFromInline
final class Registration: @unchecked Sendable {
    // @unchecked: `root` is a `weak let` (reads are atomic in the runtime), every other stored
    // property is immutable or a Mutex/Atomic; `deliver` is @Sendable.

    @usableFromInline let keyPath: String
    let components: [String]
    @usableFromInline let wantsOld: Bool
    @usableFromInline let wantsNew: Bool
    let wantsPrior: Bool
    /// Delivers a change for `keyPath` of `root`.
    @usableFromInline let deliver: @Sendable (AnyObject, KeyValueChange) -> Void
    /// The object the key path starts from.
    @usableFromInline weak let root: AnyObject?
    /// For observer-object registrations: who observes, and with which context.
    let observerIdentity: ObjectIdentifier?
    let context: UInt
    /// For observer-object registrations: the observation state of the root that lists it.
    weak let observerStorage: KeyValueObservationStorage?

    @usableFromInline let isActive = Atomic<Bool>(true)
    let tree = Mutex<ObservationNode?>(nil)

    init(root: AnyObject, keyPath: String, components: [String], options: KeyValueObservingOptions,
         observerIdentity: ObjectIdentifier? = nil, context: UInt = 0,
         observerStorage: KeyValueObservationStorage? = nil,
         deliver: @escaping @Sendable (AnyObject, KeyValueChange) -> Void) {
        self.root = root
        self.keyPath = keyPath
        self.components = components
        wantsOld = options.contains(.old)
        wantsNew = options.contains(.new)
        wantsPrior = options.contains(.prior)
        self.observerIdentity = observerIdentity
        self.context = context
        self.observerStorage = observerStorage
        self.deliver = deliver
    }

    /// Attaches the node tree to `root`. Called once, before the registration is returned.
    func start(on root: AnyObject) {
        tree.withTrackedLock(self) { tree in
            var ancestors: [AncestorKey] = []
            tree = ObservationNode.attach(registration: self, object: root, key: components[0],
                                          remaining: components.dropFirst(), depth: 0,
                                          anchor: nil, owner: nil, ancestors: &ancestors)
        }
    }

    /// Ends the observation: no more deliveries; detaches every node. Safe to call repeatedly,
    /// from any thread, and from inside a delivery.
    func invalidate() {
        guard isActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let root = tree.withTrackedLock(self) { tree -> ObservationNode? in
            let root = tree
            tree = nil
            return root
        }
        root?.detachSubtree()
        if observerIdentity != nil { observerStorage?.removeObserverRegistration(self) }
    }

    /// The current value of the whole key path.
    func currentValue() -> Any? {
        guard let root else { return nil }
        return valueAlong(root, components[...])
    }

    /// Rebuilds the part of the tree below each of `nodes` (whose objects changed).
    func rewire(_ nodes: [ObservationNode]) {
        tree.withTrackedLock(self) { tree in
            guard tree != nil else { return }
            for node in nodes { node.rebuildNext() }
        }
    }
}

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
