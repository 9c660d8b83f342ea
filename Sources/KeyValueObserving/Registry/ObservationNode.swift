import KeyValueCoding

/// One listening point of a registration: a key of one object.
///
/// - A *main* node is a link of the registration's key path. Its `next` node listens to the
///   following key on the object that this node's key currently holds.
/// - A *dependency* node listens to a key that another node's key depends on
///   (`keyPathsForValuesAffectingValue(forKey:)`); `owner` is that node.
///
/// `anchor` is the main node whose value the registration reports (`nil`: the node itself).
/// Thread safety: `next` and `dependencies` change only under the registration's tree lock;
/// the other properties are immutable.
@usableFromInline
final class ObservationNode: @unchecked Sendable {
    // @unchecked: mutable state (`next`, `dependencies`) is only touched under the owning
    // registration's `tree` mutex; `objectBelowRoot`, `anchor` and `owner` are weak lets.

    @usableFromInline let registration: Registration
    /// The registration's handler (nodes hold it, so that it goes with the tree).
    let handler: ChangeHandler
    let key: String
    let remaining: ArraySlice<String>
    let depth: Int
    /// The list this node is in.
    let list: KeyObservers
    /// The object of a node below the root (`nil` at depth 0: see ``object``).
    private weak let objectBelowRoot: AnyObject?
    weak let anchor: ObservationNode?
    weak let owner: ObservationNode?
    /// Whether the node's key is the registration's key path itself, on its root: its value
    /// is the reported value, so an `@Observed` setter can report its old and new values as is.
    @usableFromInline let isDirect: Bool
    /// Whether an `@Observed` setter can deliver the values it has in hand to this node as
    /// they are: a direct node of a registration without prior notifications or `@count`.
    let isSimple: Bool
    /// The registration's ``KeyValueObservingOptions/old`` and ``KeyValueObservingOptions/new``,
    /// copied here for the setter's loop.
    let wantsOld: Bool
    let wantsNew: Bool
    /// Whether the node is the last link of a main path: its key's value is the reported value.
    let isLeaf: Bool
    var next: ObservationNode?
    var dependencies: [ObservationNode] = []

    init(registration: Registration, handler: @escaping ChangeHandler, object: AnyObject, key: String,
         remaining: ArraySlice<String>, depth: Int, anchor: ObservationNode?, owner: ObservationNode?,
         list: KeyObservers) {
        self.registration = registration
        self.handler = handler
        // Every node at depth 0 (the first link and its dependencies) is on the registration's
        // root, which the registration references weakly already: a second weak reference
        // per node would cost a side-table update on creation and release.
        objectBelowRoot = depth == 0 ? nil : object
        self.key = key
        self.remaining = remaining
        self.depth = depth
        self.anchor = anchor
        self.owner = owner
        self.list = list
        isLeaf = remaining.isEmpty && owner == nil
        isDirect = isLeaf && depth == 0
        isSimple = isDirect && !registration.wantsPrior && !registration.countsElements
        wantsOld = registration.wantsOld
        wantsNew = registration.wantsNew
    }

    /// Creates the node for `key` of `object`, its dependency nodes and its next node.
    static func attach(registration: Registration, handler: @escaping ChangeHandler, object: AnyObject,
                       key: String, remaining: ArraySlice<String>, depth: Int, anchor: ObservationNode?,
                       owner: ObservationNode?, ancestors: inout [AncestorKey],
                       knownList: KeyObservers? = nil) -> ObservationNode {
        let list = knownList ?? ObservationCenter.storage(of: object).observers(of: object, key: key)
        let node = ObservationNode(registration: registration, handler: handler, object: object, key: key,
                                   remaining: remaining, depth: depth, anchor: anchor, owner: owner,
                                   list: list)
        list.add(node)
        let dependencyPaths = list.dependencyKeyPaths
        // The common case, a plain key: no dependencies, no next link, no bookkeeping.
        if dependencyPaths.isEmpty && remaining.isEmpty { return node }
        guard ancestors.count < 64 else { return node }
        let here = AncestorKey(object: ObjectIdentifier(object), key: key)
        ancestors.append(here)
        defer { ancestors.removeLast() }
        let dependencyAnchor = anchor ?? node
        for path in dependencyPaths {
            let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, !first.isEmpty,
                  !ancestors.contains(AncestorKey(object: ObjectIdentifier(object), key: first)) else {
                continue
            }
            let dependency = attach(registration: registration, handler: handler, object: object, key: first,
                                    remaining: parts.dropFirst(), depth: depth,
                                    anchor: dependencyAnchor, owner: node, ancestors: &ancestors)
            node.dependencies.append(dependency)
        }
        node.next = node.attachNext(ancestors: &ancestors)
        return node
    }

    /// Attaches the node for the next key of the path, on the object this node's key holds.
    private func attachNext(ancestors: inout [AncestorKey]) -> ObservationNode? {
        guard let nextKey = remaining.first, let object,
              let child = valueAlong(object, [key][...]) as? any KeyValueCodable else { return nil }
        return ObservationNode.attach(registration: registration, handler: handler, object: child, key: nextKey,
                                      remaining: remaining.dropFirst(), depth: depth + 1,
                                      anchor: anchor, owner: owner, ancestors: &ancestors)
    }

    /// Replaces the subtree below this node after its object's value for `key` changed.
    /// Call under the registration's tree lock.
    func rebuildNext() {
        guard !remaining.isEmpty else { return }
        next?.detachSubtree()
        var ancestors: [AncestorKey] = []
        next = attachNext(ancestors: &ancestors)
    }

    /// The object whose `key` this node listens to, while it is alive.
    var object: AnyObject? { depth == 0 ? registration.root : objectBelowRoot }

    /// Delivers `change` to the registration's handler, unless the registration has ended.
    @inline(__always)
    func deliver(_ root: AnyObject, _ change: KeyValueChange) {
        guard registration.isActive.load(ordering: .relaxed) else { return }
        handler(root, change)
    }

    /// Removes this node and everything below it from their lists.
    func detachSubtree() {
        list.remove(self)
        next?.detachSubtree()
        for dependency in dependencies { dependency.detachSubtree() }
    }

    /// The nodes whose subtrees must be rebuilt when this node's key changes: this node when it
    /// has a next link, and each node whose value depends on this one and has a next link.
    func nodesToRewire(into result: inout [ObservationNode]) {
        if !remaining.isEmpty { result.append(self) }
        var current = owner
        while let node = current {
            if !node.remaining.isEmpty { result.append(node) }
            current = node.owner
        }
    }

    /// The value the registration reports, read now: `key` of `object` for a leaf, or the
    /// anchor's path (its element count, for a key path ending in `@count`).
    func reportedValue() -> Any? {
        let value: Any?
        if isLeaf {
            guard let object else { return nil }
            value = valueAlong(object, [key][...])
        } else {
            let main = anchor ?? self
            guard let object = main.object else { return nil }
            var path = [main.key]
            path.append(contentsOf: main.remaining)
            value = valueAlong(object, path[...])
        }
        return registration.countsElements ? elementCount(of: value) : value
    }

    /// A value of this leaf's key supplied by the store, as the registration reports it.
    func reported(supplied value: Any?) -> Any? {
        registration.countsElements ? elementCount(of: value) : value
    }
}
