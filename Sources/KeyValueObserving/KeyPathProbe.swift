import KeyValueCoding
import Synchronization

/// Finds the key-value coding name of a Swift key path, for the typed `observe(\.name, ...)`.
///
/// Stored properties are named by the key path's description. An `@Observed` property is a
/// computed property to the key path machinery, so it is found by reading it once while a probe
/// is active: the wrapper then records its storage key path (`\Person._name`), whose name gives
/// the key. Names are cached, so each key path is probed once per process.
@usableFromInline
enum KeyPathProbe {
    private static let activeCount = Atomic<Int>(0)
    private static let recorded = Mutex<[KeyPathKey: String]>([:])
    private static let cache = Mutex<[KeyPathKey: String]>([:])

    /// Whether a probe is running (one relaxed atomic load).
    @usableFromInline
    static var isActive: Bool { activeCount.load(ordering: .relaxed) != 0 }

    /// Records the key of an `@Observed` property read during a probe.
    @usableFromInline @inline(never)
    static func record(wrapped: AnyKeyPath, storage: AnyKeyPath) {
        guard let name = lastComponent(of: storage), name.hasPrefix("_") else { return }
        recorded.withTrackedLock(ThreadSanitizer.staticOwner) { $0[KeyPathKey(wrapped)] = String(name.dropFirst()) }
    }

    /// Returns the key-value coding key path for `keyPath`, read on `object`.
    ///
    /// - Throws: ``KeyValueObservingError/unsupportedKeyPath(_:)`` when no name can be found.
    static func keyPathString<Root: AnyObject, Value>(for keyPath: KeyPath<Root, Value>,
                                                      on object: Root) throws -> String {
        if let cached = cache.withTrackedLock(ThreadSanitizer.staticOwner, { $0[KeyPathKey(keyPath)] }) { return cached }
        let description = keyPath.debugDescription
        var name: String?
        if !description.contains("<computed") {
            name = dottedPath(of: description)
        } else {
            activeCount.add(1, ordering: .relaxed)
            _ = object[keyPath: keyPath]
            activeCount.subtract(1, ordering: .relaxed)
            name = recorded.withTrackedLock(ThreadSanitizer.staticOwner) { $0[KeyPathKey(keyPath)] }
            if name == nil, let codable = object as? any KeyValueCodable {
                name = computedKeyName(for: keyPath, in: type(of: codable))
            }
        }
        guard let name, !name.isEmpty else {
            throw KeyValueObservingError.unsupportedKeyPath(description)
        }
        cache.withTrackedLock(ThreadSanitizer.staticOwner) { $0[KeyPathKey(keyPath)] = name }
        return name
    }

    /// `\Person.department?.name` → `department.name`.
    private static func dottedPath(of description: String) -> String? {
        guard description.hasPrefix("\\"), let dot = description.firstIndex(of: ".") else { return nil }
        let path = description[description.index(after: dot)...]
            .replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
        return path.isEmpty ? nil : path
    }

    private static func lastComponent(of keyPath: AnyKeyPath) -> Substring? {
        let description = keyPath.debugDescription
        guard !description.contains("<computed"), let dot = description.lastIndex(of: ".") else { return nil }
        return description[description.index(after: dot)...]
    }

    /// A computed key listed in `computedKeys` with an equal key path.
    private static func computedKeyName(for keyPath: AnyKeyPath, in type: any KeyValueCodable.Type) -> String? {
        type.computedKeys.first { $0.value == keyPath }?.key
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A key path as a dictionary key.
///
/// `@unchecked Sendable`: key path objects are immutable once created.
private struct KeyPathKey: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
