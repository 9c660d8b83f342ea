// The undo recorder: watches chosen keys of observable objects and registers the inverse of every
// change with an undo history. The inverses themselves are in UndoRecorder+Inverses.swift.

import KeyValueCoding
import KeyValueObserving

/// Records undo actions for changes of observed objects, so a model gets undo and redo without
/// writing an undo handler for each property.
///
/// The recorder observes the keys you choose (through key-value observing) and, for each change,
/// registers its inverse with ``history``:
///
/// | Change | Inverse registered |
/// | --- | --- |
/// | a value set (an `@Observed` store, `setValue(_:forKey:)`) | `setValue(old, forKey:)` |
/// | array elements inserted at indexes | remove the elements at those indexes |
/// | array elements removed at indexes | insert the removed elements at those indexes |
/// | array elements replaced at indexes | put the old elements back at those indexes |
/// | set members added / removed | remove / add those members |
///
/// To-many changes are the ones the proxies of ``KeyValueCoding/KeyValueCodable/mutableArrayValue(forKey:)``
/// and `mutableSetValue(forKey:)` report.
///
/// Inverses go through key-value coding, so running one is itself an observed change, and the
/// recorder registers *its* inverse in turn. Because the history is undoing at that moment, that
/// registration goes to the redo stack (and while redoing, to the undo stack): this is how
/// Apple's undo architecture works, and it is what makes ``UndoHistory/redo()`` restore the exact
/// state. Each change is registered exactly once, so nothing loops.
///
/// ```swift
/// final class Movie: KeyValueObservable {
///     @Observed var title = ""
///     @Observed var year = 0
/// }
///
/// let history = UndoHistory()
/// let recorder = UndoRecorder(history: history)
/// let movie = Movie()
/// try recorder.record(movie, keys: ["title", "year"])
///
/// movie.title = "Alien"
/// history.setActionName("Rename")
/// try history.closeEventGroup()   // one user command = one undo step
///
/// try history.undo()              // movie.title == ""
/// try history.redo()              // movie.title == "Alien"
/// ```
///
/// Grouping, action names and disabling are the history's: the inverses join whatever group is
/// open (the event group by default), and nothing is recorded while
/// ``UndoHistory/disableUndoRegistration()`` is in effect.
///
/// ## Lifetimes
/// The recorder keeps its observations and the ``history``, but not the recorded objects. When a
/// recorded object is released its observations end and the history skips its actions (targets
/// are held weakly). Releasing the recorder ends all its observations; actions it registered stay
/// in the history and still run, but their own inverses are then no longer recorded.
///
/// ## Thread safety
/// Not thread-safe, like ``UndoHistory``. Create the recorder, change the recorded objects, and
/// undo or redo on one thread, task or actor: observation handlers run on the thread that makes
/// the change, and there they register with the history.
///
/// No direct Apple equivalent: on Apple platforms each setter registers its own inverse, or Core
/// Data's managed object context records changes of managed objects.
public final class UndoRecorder {
    /// The history that receives the inverses.
    public let history: UndoHistory

    /// Called when the recorder cannot do its job and cannot throw (undo and observation
    /// handlers do not):
    ///
    /// - while undoing or redoing, an inverse failed:
    ///   ``UndoRecorderError/inverseFailed(key:type:reason:)``. The failed change stays as it is;
    ///   the rest of the group still runs.
    /// - when a change arrives, a to-many change named indexes the array does not have:
    ///   ``UndoRecorderError/inconsistentChange(key:type:kind:indexes:outOfRange:)``. No inverse
    ///   is registered for it (where Apple raises a range exception).
    /// - when a change arrives, the history refused its inverse (no open group while
    ///   ``UndoHistory/groupsByEvent`` is off):
    ///   ``UndoRecorderError/registrationRefused(key:type:error:)``. The change cannot be undone.
    public var failureHandler: ((UndoRecorderError) -> Void)?

    /// The most recent failure reported through ``failureHandler``, or nil.
    public internal(set) var lastFailure: UndoRecorderError?

    /// The recorded objects, by identity. Entries of released objects are swept as it grows.
    private var entries: [ObjectIdentifier: RecordedObject] = [:]

    /// The entry count above which the next `record` sweeps out released objects.
    private var sweepThreshold = 64

    /// Creates a recorder that registers inverses with `history`.
    ///
    /// - Parameter history: The undo history to register with. The recorder keeps it alive.
    public init(history: UndoHistory) {
        self.history = history
    }

    /// Starts recording changes of `keys` of `object`.
    ///
    /// Keys already recorded for the object are left as they are, so recording twice does not
    /// register two inverses per change. Either all keys are recorded or, when this throws,
    /// none of the new ones.
    ///
    /// ```swift
    /// try recorder.record(theater, keys: ["name", "movies"])
    /// ```
    ///
    /// Record `@Observed` properties, manually notified properties, and computed keys (a stored
    /// property listed in `computedKeys` is changed through key-value coding and its mutable
    /// proxies only). A plain stored `var` cannot be recorded: observing it throws
    /// `KeyValueObservingError.assignmentNotObservable`, since an assignment to it would go
    /// unrecorded. A computed key is reverted through `setValue(_:forKey:)` too, so it needs a
    /// setter.
    ///
    /// - Parameters:
    ///   - object: The object to watch. It is not kept alive.
    ///   - keys: Plain keys of the object (no key paths, no collection operators).
    /// - Throws: ``UndoRecorderError/keyPathNotRecordable(_:type:)`` for a key path or operator;
    ///   `KeyValueObservingError.undefinedKey` (and the other errors of
    ///   `observe(_:options:changeHandler:)`) for a key the object does not have.
    /// - Complexity: O(*k*) for *k* keys.
    public func record<Object: KeyValueObservable>(_ object: Object, keys: [String]) throws {
        let identifier = ObjectIdentifier(object)
        // A released object's entry may sit at a reused identity: start afresh then.
        var entry = entries[identifier].flatMap { $0.object == nil ? nil : $0 }
            ?? RecordedObject(object: object)
        let reference = RecorderReference(self)
        var added: [String: KeyValueObservation] = [:]
        for key in keys where entry.observations[key] == nil && added[key] == nil {
            if key.contains(".") || key.hasPrefix("@") {
                throw UndoRecorderError.keyPathNotRecordable(key, type: String(describing: Object.self))
            }
            let options = Self.observingOptions(forValue: try? object.value(forKey: key))
            added[key] = try object.observe(key, options: options) { object, change in
                reference.recorder?.registerInverse(of: change, key: key, on: object)
            }
        }
        entry.observations.merge(added) { old, _ in old }
        entries[identifier] = entry
        if entries.count > sweepThreshold { sweepReleasedObjects() }
    }

    /// Stops recording `keys` of `object`; keys that are not recorded are ignored.
    ///
    /// Actions already registered stay in the history and still run; the inverses they cause are
    /// no longer recorded. Remove them with ``UndoHistory/removeAllActions(withTarget:)`` if they
    /// should not run.
    ///
    /// - Parameters:
    ///   - object: A recorded object.
    ///   - keys: The keys to stop recording.
    public func stopRecording(_ object: AnyObject, keys: [String]) {
        let identifier = ObjectIdentifier(object)
        guard var entry = entries[identifier], entry.object === object else { return }
        for key in keys {
            entry.observations.removeValue(forKey: key)?.invalidate()
        }
        entries[identifier] = entry.observations.isEmpty ? nil : entry
    }

    /// Stops recording every key of `object`.
    ///
    /// - Parameter object: A recorded object; other objects are ignored.
    public func stopRecording(_ object: AnyObject) {
        let identifier = ObjectIdentifier(object)
        guard let entry = entries[identifier], entry.object === object else { return }
        entries[identifier] = nil
        entry.invalidate()
    }

    /// Stops recording every object.
    public func stopRecordingAll() {
        let removed = entries
        entries = [:]
        for entry in removed.values { entry.invalidate() }
    }

    /// The keys of `object` being recorded (empty if it is not recorded).
    ///
    /// - Parameter object: Any object.
    /// - Returns: The recorded keys.
    public func recordedKeys(of object: AnyObject) -> Set<String> {
        guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return [] }
        return Set(entry.observations.keys)
    }

    /// The number of live objects being recorded (released objects do not count).
    ///
    /// - Complexity: O(*n*) in the number of entries.
    public var recordedObjectCount: Int {
        entries.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) }
    }

    /// The options to observe a key with, chosen by its current value.
    ///
    /// Old values always: every inverse puts them back. New values only where an inverse needs
    /// them, the members a set mutation added. An array key is observed without them: the
    /// inverse of an insertion removes at the indexes, and leaving them out spares every edit
    /// of a long array a copy of it (the new elements are read out of the whole array).
    static func observingOptions(forValue value: Any?) -> KeyValueObservingOptions {
        if let value, let collection = keyValueCollection(of: value), !collection.keyValueIsUnordered { return [.old] }
        return [.old, .new]
    }

    /// Drops the entries of released objects, and raises the threshold for the next sweep.
    private func sweepReleasedObjects() {
        entries = entries.filter { $0.value.object != nil }
        sweepThreshold = max(64, entries.count * 2)
    }
}

/// An undo recorder belongs to one thread, task or actor at a time, like its history.
@available(*, unavailable)
extension UndoRecorder: Sendable {}

/// The observations of one recorded object.
private struct RecordedObject {
    /// The object, to tell a released object from a new one at the same address.
    weak var object: AnyObject?
    var observations: [String: KeyValueObservation] = [:]

    init(object: AnyObject) { self.object = object }

    func invalidate() {
        for observation in observations.values { observation.invalidate() }
    }
}

/// Carries a weak reference to the recorder into the `@Sendable` observation handlers.
///
/// Why `@unchecked Sendable` is safe: the recorder is confined to one thread (see "Thread
/// safety" on ``UndoRecorder``), and observation handlers run synchronously on the thread that
/// changes the object, which by that contract is the recorder's thread; the reference is never
/// used anywhere else. A change made on another thread would already be a data race on the
/// recorder's history, which is not thread-safe either. The reference is weak so that the
/// observations do not keep the recorder alive.
struct RecorderReference: @unchecked Sendable {
    weak var recorder: UndoRecorder?

    init(_ recorder: UndoRecorder) { self.recorder = recorder }
}
