import KeyValueCoding

/// An owner that must hear of every change of an object, before its observers do: the role a
/// managed-object context plays for its objects.
///
/// Install one per object with ``KeyValueObservable/setKeyValueChangeSink(_:)``. The sink hears
/// of every notified change of the object: stores through key-value coding and key paths,
/// edits through the mutable collection proxies, manual will/did notifications, and stores into
/// `@Observed` properties (installing a sink makes those notify, as an observer would). It is
/// called on the thread that makes the change, before the observers in each phase, and is
/// held weakly.
///
/// ```swift
/// final class ChangeLog: KeyValueChangeSink {
///     var keys: [String] = []
///     func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {}
///     func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
///         keys.append(event.key)
///     }
/// }
/// ```
///
/// Corresponds to nothing public in Apple's API: `NSManagedObjectContext` learns of its objects'
/// changes from inside `NSManagedObject`'s accessors.
/// Like ``KeyValueObserver``, it cannot be conformed to with an actor isolation: the sink is
/// called on the thread that makes each change.
public protocol KeyValueChangeSink: AnyObject, SendableMetatype {
    /// Called before a change of `object`, before its observers' prior notifications.
    ///
    /// - Parameters:
    ///   - object: The object that changes.
    ///   - event: The key and kind of the change; the old value, when the store supplies it.
    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent)

    /// Called after a change of `object`, before its observers are notified.
    ///
    /// - Parameters:
    ///   - object: The object that changed.
    ///   - event: The key and kind of the change; old and new values, when the store supplies
    ///     them.
    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent)
}

extension KeyValueObservable {
    /// The object's change sink, if one is installed and still alive.
    public var keyValueChangeSink: (any KeyValueChangeSink)? {
        ObservationCenter.existingStorage(of: self)?.sink
    }

    /// Installs (or, with `nil`, removes) the object's change sink.
    ///
    /// - Parameter sink: The sink, held weakly; `nil` to remove it.
    /// - Complexity: O(*n*) in the number of the object's `@Observed` properties, whose
    ///   storage starts notifying.
    public func setKeyValueChangeSink(_ sink: (any KeyValueChangeSink)?) {
        let storage = ObservationCenter.storage(of: self)
        storage.setSink(sink)
        guard sink != nil else { return }
        for property in KeyValueKeyTable.of(object: self).properties {
            if case .wrapped(_, let wrapperType) = property.storage, wrapperType is any ObservedStorage.Type {
                _ = storage.observers(of: self, key: property.key)
            }
        }
    }
}
