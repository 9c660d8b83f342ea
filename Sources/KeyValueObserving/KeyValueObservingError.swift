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
    /// `key` of `type`, reached along `keyPath`, is a plain stored `var` whose changes are
    /// notified automatically: a plain assignment to it would never notify (Swift has no hook
    /// there), so the observation would miss changes. Mark the property `@Observed`, or notify
    /// manually (return `false` from `automaticallyNotifiesObservers(forKey:)` for it and call
    /// `willChangeValue(forKey:)`/`didChangeValue(forKey:)` around its changes).
    case assignmentNotObservable(String, keyPath: String, type: String)
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
            return "the key path \(Self.readable(path)) has no key-value coding name: a computed property "
                + "can be observed only when it is @Observed or listed in computedKeys (with "
                + "keyPathsForValuesAffectingValue(forKey:) for the keys it depends on)"
        case let .observerNotRegistered(path):
            return "cannot remove an observer for the key path '\(path)' because it is not registered"
        case let .assignmentNotObservable(key, path, type):
            return "cannot observe '\(path)': '\(key)' of \(type) is a plain stored property, and assigning "
                + "to it would not notify; mark it @Observed, or notify manually (return false from "
                + "automaticallyNotifiesObservers(forKey: \"\(key)\") and call willChangeValue(forKey:) and "
                + "didChangeValue(forKey:) around each change)"
        case let .indexOutOfRange(index, count):
            return "index \(index) is out of range for an array of \(count) elements"
        }
    }

    /// The same text as ``description``, so that `localizedDescription` names the culprit too.
    public var errorDescription: String? { description }

    /// A key path's description with each computed component's accessor address replaced by
    /// what it is: `\Shape.<computed 0x00005f… (Int)>` → `\Shape.<computed property of type Int>`.
    /// Swift keeps no name for a computed property in its key path, only the address.
    static func readable(_ path: String) -> String {
        var result = ""
        var rest = Substring(path)
        while let start = rest.range(of: "<computed 0x") {
            result += rest[..<start.lowerBound]
            let afterAddress = rest[start.upperBound...].drop { $0.isHexDigit }
            guard afterAddress.hasPrefix(" ("), let close = afterAddress.range(of: ")>") else {
                result += rest[start.lowerBound..<start.upperBound]
                rest = rest[start.upperBound...]
                continue
            }
            let valueType = afterAddress[afterAddress.index(afterAddress.startIndex, offsetBy: 2)..<close.lowerBound]
            result += "<computed property of type \(valueType)>"
            rest = afterAddress[close.upperBound...]
        }
        return result + rest
    }
}
