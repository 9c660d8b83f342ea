import Foundation

/// An error thrown by key-value observing.
///
/// Apple's `NSKeyValueObserving` raises Objective-C exceptions for these cases (for example
/// when removing an observer that is not registered); ObjectGraph throws, naming the key path.
///
/// The message is the same whichever way it is read: `print(error)`, `String(describing:)`
/// and `error.localizedDescription` all give ``description`` (the one source of the text).
public enum KeyValueObservingError: Error, Equatable, Sendable {
    /// The key path is malformed: empty, or with an empty component (`"a..b"`, `".a"`, `"a."`).
    case malformedKeyPath(String, reason: String)
    /// The object reached along `keyPath` has no property for `key`.
    case undefinedKey(String, keyPath: String, type: String)
    /// Collection operators (`@sum`, `@avg`, ...) cannot be observed. The one exception is a
    /// final `@count` after a to-many key (`"items.@count"`); this error is thrown for `@count`
    /// elsewhere in a key path, or when the value it would count is not a collection.
    case collectionOperatorNotObservable(String, keyPath: String)
    /// The value of `key` is an array or a set and the key path goes on through it: key paths
    /// through to-many values are not observable (as on Apple platforms, where arrays and sets
    /// do not accept observers). Observe the collection's key itself instead.
    case notObservableThroughCollection(String, keyPath: String)
    /// A typed key path could not be turned into a key-value coding key path (for example a
    /// computed property that is not an `@Observed` property or a listed computed key).
    case unsupportedKeyPath(String)
    /// `removeObserver(_:forKeyPath:context:)` found no matching registration.
    case observerNotRegistered(keyPath: String)
    /// An index given to the array forms of `addObserver` / `removeObserver` is not a position
    /// of the array (Apple raises `NSRangeException`).
    case indexOutOfRange(Int, count: Int)
}

extension KeyValueObservingError: CustomStringConvertible, LocalizedError {
    /// A sentence naming the key path (and the key and type where one is at fault).
    public var description: String {
        switch self {
        case let .malformedKeyPath(path, reason):
            return "malformed key path '\(path)': \(reason)"
        case let .undefinedKey(key, path, type):
            return "cannot observe '\(path)': \(type) has no key '\(key)'"
        case let .collectionOperatorNotObservable(op, path):
            if op == "@count" {
                return "cannot observe '\(path)': '@count' is observable only as the last key, "
                    + "after a key whose value is an array, a set or a dictionary"
            }
            return "cannot observe '\(path)': the collection operator '\(op)' is not observable"
        case let .notObservableThroughCollection(key, path):
            return "cannot observe '\(path)': the value of '\(key)' is a collection, and key paths "
                + "through arrays and sets are not observable; observe '\(key)' itself"
        case let .unsupportedKeyPath(path):
            return "the key path \(path) has no key-value coding name"
        case let .observerNotRegistered(path):
            return "cannot remove an observer for the key path '\(path)' because it is not registered"
        case let .indexOutOfRange(index, count):
            return "index \(index) is out of range for an array of \(count) elements"
        }
    }

    /// The same text as ``description``, so that `localizedDescription` names the culprit too.
    public var errorDescription: String? { description }
}
