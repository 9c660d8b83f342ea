// A thread-safe recorder of key-value observing changes, for tests.
import Foundation
import KeyValueObserving
import ObjectGraphInternals
import Synchronization

/// Collects ``KeyValueObserving/KeyValueChange`` records from any thread, in arrival order.
///
/// Use it as an observer object, or take a closure for `observe(_:options:changeHandler:)`:
///
/// ```swift
/// let recorder = ChangeRecorder()
/// let token = try account.observe("balance", options: [.old, .new], changeHandler: recorder.handler("balance"))
/// account.balance = 10
/// #expect(recorder.newValues(as: Int.self) == [10])
/// ```
///
/// Thread safety: thread-safe; records appended by concurrent changes are kept in the order
/// their notifications took the recorder's lock.
package final class ChangeRecorder: KeyValueObserver, Sendable {
    /// One recorded change.
    package struct Record: Sendable {
        /// The key path the change was reported for (as registered, or as given to ``record(_:keyPath:object:)``).
        package var keyPath: String
        /// The change.
        package var change: KeyValueChange
        /// The observed object, when known.
        package var object: ObjectIdentifier?
    }

    private let storage = Mutex<[Record]>([])

    package init() {}

    /// Appends a change.
    ///
    /// - Parameters:
    ///   - change: The change to keep.
    ///   - keyPath: The key path it belongs to.
    ///   - object: The observed object.
    package func record(_ change: KeyValueChange, keyPath: String = "", object: AnyObject? = nil) {
        let record = Record(keyPath: keyPath, change: change, object: object.map(ObjectIdentifier.init))
        storage.withTrackedLock(self) { $0.append(record) }
    }

    /// A change handler for `observe(_:options:changeHandler:)` that records into this recorder.
    ///
    /// - Parameter keyPath: The key path to note in each record.
    /// - Returns: A `@Sendable` handler.
    package func handler<Object: AnyObject>(_ keyPath: String = "") -> @Sendable (Object, KeyValueChange) -> Void {
        { [self] object, change in record(change, keyPath: keyPath, object: object) }
    }

    /// A change handler for the typed `observe(\.key, options:changeHandler:)`, recording the
    /// typed change as an untyped one.
    ///
    /// - Parameter keyPath: The key path to note in each record.
    /// - Returns: A `@Sendable` handler.
    package func typedHandler<Object: AnyObject, Value>(_ keyPath: String = "")
        -> @Sendable (Object, KeyValueObservedChange<Value>) -> Void {
        { [self] object, change in
            let untyped = KeyValueChange(kind: change.kind, oldValue: change.oldValue.map { $0 as Any },
                                         newValue: change.newValue.map { $0 as Any },
                                         indexes: change.indexes, isPrior: change.isPrior)
            record(untyped, keyPath: keyPath, object: object)
        }
    }

    /// Records a change sent to this recorder as a ``KeyValueObserving/KeyValueObserver``.
    package func observeValue(forKeyPath keyPath: String, of object: AnyObject, change: KeyValueChange,
                              context: UnsafeMutableRawPointer?) {
        record(change, keyPath: keyPath, object: object)
    }

    /// Every record so far.
    package var records: [Record] { storage.withTrackedLock(self) { $0 } }

    /// Every change so far.
    package var changes: [KeyValueChange] { records.map(\.change) }

    /// The number of changes so far.
    package var count: Int { storage.withTrackedLock(self) { $0.count } }

    /// The records for `keyPath`.
    package func records(for keyPath: String) -> [Record] { records.filter { $0.keyPath == keyPath } }

    /// The new values of the changes so far, cast to `T` (`nil` where absent or of another type).
    package func newValues<T>(as _: T.Type) -> [T?] { changes.map { $0.newValue as? T } }

    /// The old values of the changes so far, cast to `T` (`nil` where absent or of another type).
    package func oldValues<T>(as _: T.Type) -> [T?] { changes.map { $0.oldValue as? T } }

    /// Removes and returns every record so far.
    @discardableResult
    package func removeAll() -> [Record] {
        storage.withTrackedLock(self) { records in
            defer { records.removeAll() }
            return records
        }
    }

    /// Waits until at least `count` changes arrived (from other threads), or `timeout` passed.
    ///
    /// - Returns: Whether the count was reached.
    package func wait(forCount count: Int, timeout: Duration = .seconds(10)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while self.count < count {
            if clock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
