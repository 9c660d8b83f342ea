// The inverse of each kind of observed change, registered with the recorder's history.

import Foundation
import KeyValueCoding
import KeyValueObserving

extension UndoRecorder {
    /// Registers the inverse of `change` of `key` of `object` with the history.
    ///
    /// Called from the observation handlers. While the history is undoing, the registration goes
    /// to the redo stack, and while redoing to the undo stack: the inverse of an inverse is the
    /// original change, so redo restores exactly what undo reverted.
    func registerInverse<Object: KeyValueObservable>(of change: KeyValueChange, key: String,
                                                     on object: Object) {
        guard !change.isPrior, history.isUndoRegistrationEnabled else { return }
        if change.kind != .setting, let indexes = change.indexes,
           !isConsistent(change, indexes: indexes, key: key, on: object) {
            return
        }
        switch change.kind {
        case .setting:
            // The common case, written out: one closure instead of two.
            let oldValue = change.oldValue
            do {
                try history.registerUndo(withTarget: object) { [weak self] target in
                    do {
                        try target.setValue(oldValue, forKey: key)
                    } catch {
                        self?.reportFailure(key: key, type: String(describing: Object.self), error: error)
                    }
                }
            } catch {
                reportRefusal(key: key, type: String(describing: Object.self), error: error)
            }
        case .insertion:
            if let indexes = change.indexes {
                register(on: object, key: key) { try $0.mutableArrayValue(forKey: key).remove(at: indexes) }
            } else {
                let added = change.newValue as? Set<AnyHashable> ?? []
                register(on: object, key: key) { try $0.mutableSetValue(forKey: key).subtract(added) }
            }
        case .removal:
            if let indexes = change.indexes {
                let removed = Self.elements(change.oldValue)
                register(on: object, key: key) {
                    try $0.mutableArrayValue(forKey: key).insert(removed, at: indexes)
                }
            } else {
                let removed = change.oldValue as? Set<AnyHashable> ?? []
                register(on: object, key: key) { try $0.mutableSetValue(forKey: key).union(removed) }
            }
        case .replacement:
            if let indexes = change.indexes {
                let replaced = Self.elements(change.oldValue)
                register(on: object, key: key) {
                    try $0.mutableArrayValue(forKey: key).replace(at: indexes, with: replaced)
                }
            } else {
                registerSetReplacementInverse(of: change, key: key, on: object)
            }
        }
    }

    /// A set replacement added the members in `newValue` and removed those in `oldValue`: the
    /// inverse removes the first and adds the second back (two changes, each recorded in turn).
    private func registerSetReplacementInverse<Object: KeyValueObservable>(
        of change: KeyValueChange, key: String, on object: Object
    ) {
        let added = change.newValue as? Set<AnyHashable> ?? []
        let removed = change.oldValue as? Set<AnyHashable> ?? []
        register(on: object, key: key) { target in
            let members = try target.mutableSetValue(forKey: key)
            if !added.isEmpty { try members.subtract(added) }
            if !removed.isEmpty { try members.union(removed) }
        }
    }

    /// Registers `revert` with `object` as target; a failure is reported, not thrown.
    private func register<Object: KeyValueObservable>(on object: Object, key: String,
                                                      revert: @escaping (Object) throws -> Void) {
        do {
            try history.registerUndo(withTarget: object) { [weak self] target in
                do {
                    try revert(target)
                } catch {
                    self?.reportFailure(key: key, type: String(describing: Object.self), error: error)
                }
            }
        } catch {
            reportRefusal(key: key, type: String(describing: Object.self), error: error)
        }
    }

    private func reportFailure(key: String, type: String, error: any Error) {
        report(.inverseFailed(key: key, type: type, reason: "\(error)"))
    }

    /// The history refused the registration (no open group while `groupsByEvent` is off).
    @inline(never)
    private func reportRefusal(key: String, type: String, error: UndoError) {
        report(.registrationRefused(key: key, type: type, error: error))
    }

    private func report(_ failure: UndoRecorderError) {
        lastFailure = failure
        failureHandler?(failure)
    }

    /// Whether an indexed change names only indexes the array has; if not, reports
    /// ``UndoRecorderError/inconsistentChange(key:type:kind:indexes:outOfRange:)``.
    @inline(never)
    private func isConsistent<Object: KeyValueObservable>(_ change: KeyValueChange, indexes: IndexSet,
                                                          key: String, on object: Object) -> Bool {
        guard let outOfRange = Self.indexesOutOfRange(of: change, indexes: indexes, key: key,
                                                      on: object) else { return true }
        report(.inconsistentChange(key: key, type: String(describing: Object.self),
                                   kind: change.kind, indexes: indexes, outOfRange: outOfRange))
        return false
    }

    /// The indexes of an indexed change that the array did not have, or nil when all are valid.
    ///
    /// The old value of a removal or replacement holds the elements at its indexes, read from
    /// the array before the change; indexes beyond the end contribute no element. Indexes are
    /// sorted, so when only *k* elements came back, the indexes after the first *k* are the ones
    /// out of range. An insertion's indexes must lie within the array after the change: checked
    /// against its count (array keys are observed without new values, see `observingOptions`).
    ///
    /// - Complexity: O(1) when the change is consistent.
    static func indexesOutOfRange<Object: KeyValueObservable>(
        of change: KeyValueChange, indexes: IndexSet, key: String, on object: Object
    ) -> IndexSet? {
        guard let last = indexes.last else { return nil }
        if change.kind == .insertion {
            if let newValue = change.newValue {
                // Observed with new values: they hold the elements found at the indexes.
                let found = elementCount(newValue)
                return found < indexes.count ? IndexSet(indexes.dropFirst(found)) : nil
            }
            guard let count = currentCount(of: object, key: key), last >= count else { return nil }
            return IndexSet(indexes.filter { $0 >= count })
        }
        let found = elementCount(change.oldValue)
        return found < indexes.count ? IndexSet(indexes.dropFirst(found)) : nil
    }

    /// The number of elements of the array `key` of `object` now, or nil if it is not an array.
    private static func currentCount<Object: KeyValueObservable>(of object: Object,
                                                                 key: String) -> Int? {
        guard let value = try? object.value(forKey: key),
              let array = keyValueCollection(of: value), !array.keyValueIsUnordered else { return nil }
        return array.keyValueCount
    }

    private static func elementCount(_ value: Any?) -> Int {
        (value as? [Any])?.count ?? 0
    }

    /// The elements of a to-many change record (`[Any]`), as the proxies take them.
    private static func elements(_ value: Any?) -> [Any?] {
        guard let array = value as? [Any] else { return [] }
        return array.map { Optional($0) }
    }
}
