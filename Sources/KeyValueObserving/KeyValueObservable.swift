import Foundation
import KeyValueCoding

/// A key-value coding class whose changes can be observed by key path.
///
/// Conform a class and mark the properties that should notify on every plain assignment with
/// ``Observed``:
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var name = ""
///     @Observed var age = 0
///     var nickname = ""           // notifies only through setValue(_:forKey:)
/// }
///
/// let token = try person.observe("name", options: [.old, .new]) { person, change in
///     print(change.oldValue as Any, change.newValue as Any)
/// }
/// person.name = "Ada"             // the handler runs here, on this thread
/// ```
///
/// Changes made through `setValue(_:forKey:)`, through the mutable collection proxies of key-value
/// coding, and between ``KeyValueCodable/willChangeValue(forKey:)`` and
/// ``KeyValueCodable/didChangeValue(forKey:)`` notify too. Conforming to this protocol replaces key-value
/// coding's no-op change hooks with ones that notify.
///
/// Override ``KeyValueCodable/automaticallyNotifiesObservers(forKey:)`` to send notifications
/// for a key yourself, and ``keyPathsForValuesAffectingValue(forKey:)`` to declare the keys a
/// computed key depends on.
///
/// Corresponds to Apple's `NSKeyValueObserving` informal protocol on `NSObject`.
///
/// - Important: Thread safety: registering, removing and notifying are thread-safe.
///   Notifications are delivered on the thread that makes the change.
public protocol KeyValueObservable: KeyValueCodable, SendableMetatype {
    /// The key paths whose values affect the value of `key`.
    ///
    /// Observers of `key` are notified whenever one of these key paths changes. Key paths are
    /// relative to the object and may have several links (`"department.name"`). Dependencies
    /// can be transitive; cycles are cut and a change reaching a key by several ways is reported
    /// once. The default is empty.
    ///
    /// ```swift
    /// class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
    ///     key == "fullName" ? ["firstName", "lastName"] : []
    /// }
    /// ```
    ///
    /// - Parameter key: A key of the class.
    /// - Returns: The key paths that affect it.
    ///
    /// Corresponds to `+[NSObject keyPathsForValuesAffectingValueForKey:]`.
    static func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String>

    /// Called by `@Observed` properties when they are read. A no-op unless the class conforms
    /// to ``KeyValueObservationTracking``; you do not call or implement it.
    func observationTrackingAccess<Root, Member>(_ keyPath: KeyPath<Root, Member>)
    /// Called by `@Observed` properties before a store. See ``observationTrackingAccess(_:)``.
    func observationTrackingWillSet<Root, Member>(_ keyPath: KeyPath<Root, Member>)
    /// Called by `@Observed` properties after a store. See ``observationTrackingAccess(_:)``.
    func observationTrackingDidSet<Root, Member>(_ keyPath: KeyPath<Root, Member>)
}

extension KeyValueObservable {
    public static func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> { [] }

    @inlinable @inline(__always)
    public func observationTrackingAccess<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}
    @inlinable @inline(__always)
    public func observationTrackingWillSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}
    @inlinable @inline(__always)
    public func observationTrackingDidSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {}

    // MARK: Change notification (replaces key-value coding's no-op hooks)

    /// Tells observers that the value for `key` is about to change.
    ///
    /// Call it before changing a key whose automatic notifications are off, then call
    /// ``didChangeValue(forKey:)`` after the change. Pairs may be nested (also for the same key);
    /// each pair notifies once, innermost first, as on Apple platforms.
    ///
    /// - Parameter key: The key that will change.
    ///
    /// Corresponds to `-[NSObject willChangeValueForKey:]`.
    public func willChangeValue(forKey key: String) {
        ObservationTable.shared.existingObservers(of: self, key: key)?
            .willChange(object: self, kind: .setting, indexes: nil)
    }

    /// Tells observers that the value for `key` has changed. See ``willChangeValue(forKey:)``.
    ///
    /// - Parameter key: The key that changed.
    ///
    /// Corresponds to `-[NSObject didChangeValueForKey:]`.
    public func didChangeValue(forKey key: String) {
        ObservationTable.shared.existingObservers(of: self, key: key)?.didChange(object: self)
    }

    /// Tells observers that elements of the array property `key` are about to change.
    ///
    /// - Parameters:
    ///   - change: `.insertion`, `.removal` or `.replacement`.
    ///   - indexes: The positions affected: for an insertion, the positions the new elements
    ///     will have; otherwise the positions of the elements removed or replaced.
    ///   - key: The array property.
    ///
    /// Corresponds to `-[NSObject willChange:valuesAtIndexes:forKey:]`.
    public func willChange(_ change: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String) {
        ObservationTable.shared.existingObservers(of: self, key: key)?
            .willChange(object: self, kind: change, indexes: indexes)
    }

    /// Tells observers that elements of the array property `key` changed.
    /// See ``willChange(_:valuesAt:forKey:)``.
    ///
    /// Corresponds to `-[NSObject didChange:valuesAtIndexes:forKey:]`.
    public func didChange(_ change: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String) {
        ObservationTable.shared.existingObservers(of: self, key: key)?.didChange(object: self)
    }

    /// Tells observers that the set property `key` is about to change by `mutation`.
    ///
    /// Observers receive `.insertion` (union), `.removal` (minus, intersect) or `.replacement`
    /// (set), with the members actually added as new value and removed as old value.
    ///
    /// Corresponds to `-[NSObject willChangeValueForKey:withSetMutation:usingObjects:]`.
    public func willChangeValue(forKey key: String, withSetMutation mutation: KeyValueSetMutationKind,
                                using objects: Set<AnyHashable>) {
        ObservationTable.shared.existingObservers(of: self, key: key)?
            .willChange(object: self, kind: .setting, indexes: nil,
                        setMutation: SetMutation(kind: mutation, objects: objects))
    }

    /// Tells observers that the set property `key` changed.
    /// See ``willChangeValue(forKey:withSetMutation:using:)``.
    ///
    /// Corresponds to `-[NSObject didChangeValueForKey:withSetMutation:usingObjects:]`.
    public func didChangeValue(forKey key: String, withSetMutation mutation: KeyValueSetMutationKind,
                               using objects: Set<AnyHashable>) {
        ObservationTable.shared.existingObservers(of: self, key: key)?.didChange(object: self)
    }
}
