import Foundation
import KeyValueCoding
import ObjectGraphInternals

extension Array where Element: KeyValueObservable {
    /// Registers `observer` for changes of `keyPath` of each element at `indexes`.
    ///
    /// The key path is relative to the elements, not to the array: this observes the elements
    /// themselves, as calling ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)``
    /// on each of them would. Changes of the array (insertions, removals) are not observed;
    /// observe the to-many property that holds the array for those. A later change of the array
    /// does not move the registrations: they stay with the objects they were made on.
    ///
    /// ```swift
    /// try people.addObserver(inspector, toElementsAt: IndexSet(0..<2), forKeyPath: "name",
    ///                        options: [.new])
    /// ```
    ///
    /// Nothing is registered when an error is thrown.
    ///
    /// - Parameters:
    ///   - observer: The object whose `observeValue(forKeyPath:of:change:context:)` is called,
    ///     with the element that changed as `object`.
    ///   - indexes: The positions of the elements to observe.
    ///   - keyPath: A key path of the elements.
    ///   - options: What the change records carry.
    ///   - context: A value passed back with each notification and used to remove it.
    /// - Throws: ``KeyValueObservingError/indexOutOfRange(_:count:)`` for the first index
    ///   that is not a position of the array, and the errors of
    ///   ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)``.
    /// - Complexity: O(*k*) registrations for *k* indexes.
    ///
    /// Corresponds to `-[NSArray addObserver:toObjectsAtIndexes:forKeyPath:options:context:]`.
    public func addObserver<Observer: KeyValueObserver>(_ observer: Observer, toElementsAt indexes: IndexSet,
                            forKeyPath keyPath: String, options: KeyValueObservingOptions = [],
                            context: UnsafeMutableRawPointer? = nil) throws {
        try ElementObservation.add(observer, to: indexes, count: count, keyPath: keyPath,
                                   options: options, context: context) { self[$0] }
    }

    /// Removes the registrations that
    /// ``addObserver(_:toElementsAt:forKeyPath:options:context:)`` made on the elements at
    /// `indexes`.
    ///
    /// Nothing is removed when an error is thrown.
    ///
    /// - Parameters:
    ///   - observer: The registered observer.
    ///   - indexes: The positions of the observed elements.
    ///   - keyPath: The registered key path.
    ///   - context: The registered context, or `nil` for any.
    /// - Throws: ``KeyValueObservingError/indexOutOfRange(_:count:)`` for the first index that
    ///   is not a position of the array; ``KeyValueObservingError/observerNotRegistered(keyPath:)``
    ///   when an element at `indexes` has no matching registration.
    /// - Complexity: O(*k* × *r*) for *k* indexes and *r* registrations per element.
    ///
    /// Corresponds to `-[NSArray removeObserver:fromObjectsAtIndexes:forKeyPath:context:]`.
    public func removeObserver(_ observer: any KeyValueObserver, fromElementsAt indexes: IndexSet,
                               forKeyPath keyPath: String, context: UnsafeMutableRawPointer? = nil) throws {
        try ElementObservation.remove(observer, from: indexes, count: count, keyPath: keyPath,
                                      context: context) { self[$0] }
    }
}

extension Array where Element == any KeyValueObservable {
    /// Registers `observer` for changes of `keyPath` of each element at `indexes`, for arrays
    /// of mixed observable types. See the `Element: KeyValueObservable` form.
    ///
    /// - Parameters:
    ///   - observer: The object whose `observeValue(forKeyPath:of:change:context:)` is called.
    ///   - indexes: The positions of the elements to observe.
    ///   - keyPath: A key path of the elements.
    ///   - options: What the change records carry.
    ///   - context: A value passed back with each notification and used to remove it.
    /// - Throws: ``KeyValueObservingError/indexOutOfRange(_:count:)`` and the errors of
    ///   ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)``; nothing is
    ///   registered then.
    ///
    /// Corresponds to `-[NSArray addObserver:toObjectsAtIndexes:forKeyPath:options:context:]`.
    public func addObserver<Observer: KeyValueObserver>(_ observer: Observer, toElementsAt indexes: IndexSet,
                            forKeyPath keyPath: String, options: KeyValueObservingOptions = [],
                            context: UnsafeMutableRawPointer? = nil) throws {
        try ElementObservation.add(observer, to: indexes, count: count, keyPath: keyPath,
                                   options: options, context: context) { self[$0] }
    }

    /// Removes the registrations made on the elements at `indexes`, for arrays of mixed
    /// observable types. See the `Element: KeyValueObservable` form.
    ///
    /// - Parameters:
    ///   - observer: The registered observer.
    ///   - indexes: The positions of the observed elements.
    ///   - keyPath: The registered key path.
    ///   - context: The registered context, or `nil` for any.
    /// - Throws: ``KeyValueObservingError/indexOutOfRange(_:count:)`` or
    ///   ``KeyValueObservingError/observerNotRegistered(keyPath:)``; nothing is removed then.
    ///
    /// Corresponds to `-[NSArray removeObserver:fromObjectsAtIndexes:forKeyPath:context:]`.
    public func removeObserver(_ observer: any KeyValueObserver, fromElementsAt indexes: IndexSet,
                               forKeyPath keyPath: String, context: UnsafeMutableRawPointer? = nil) throws {
        try ElementObservation.remove(observer, from: indexes, count: count, keyPath: keyPath,
                                      context: context) { self[$0] }
    }
}

/// The shared work of the array forms of `addObserver` and `removeObserver`.
enum ElementObservation {
    static func add(_ observer: any KeyValueObserver, to indexes: IndexSet, count: Int, keyPath: String,
                    options: KeyValueObservingOptions, context: UnsafeMutableRawPointer?,
                    element: (Int) -> any KeyValueObservable) throws {
        try checkBounds(indexes, count: count)
        var registered: [any KeyValueObservable] = []
        do {
            for index in indexes {
                let object = element(index)
                try object.addObserver(observer, forKeyPath: keyPath, options: options, context: context)
                registered.append(object)
            }
        } catch {
            // All or nothing: take back the registrations made before the failing element.
            for object in registered.reversed() {
                try? object.removeObserver(observer, forKeyPath: keyPath, context: context)
            }
            throw error
        }
    }

    static func remove(_ observer: any KeyValueObserver, from indexes: IndexSet, count: Int, keyPath: String,
                       context: UnsafeMutableRawPointer?, element: (Int) -> any KeyValueObservable) throws {
        try checkBounds(indexes, count: count)
        let identity = ObjectIdentifier(observer)
        let contextBits = context.map { UInt(bitPattern: $0) }
        // How many registrations each object must give up (an object may stand at several
        // of the indexes), checked before anything is removed.
        var needed: [ObjectIdentifier: (object: any KeyValueObservable, count: Int)] = [:]
        for index in indexes {
            let object = element(index)
            needed[ObjectIdentifier(object), default: (object, 0)].count += 1
        }
        for (object, wanted) in needed.values {
            let available = storage(of: object)?.observerRegistrationCount(
                observer: identity, keyPath: keyPath, context: contextBits) ?? 0
            guard available >= wanted else { throw KeyValueObservingError.observerNotRegistered(keyPath: keyPath) }
        }
        for index in indexes {
            try element(index).removeObserver(observer, forKeyPath: keyPath, context: context)
        }
    }

    private static func storage(of object: any KeyValueObservable) -> KeyValueObservationStorage? {
        func open<Object: KeyValueObservable>(_ object: Object) -> KeyValueObservationStorage? {
            ObservationCenter.storageForRemoval(of: object)
        }
        return open(object)
    }

    private static func checkBounds(_ indexes: IndexSet, count: Int) throws {
        if let first = indexes.first, first < 0 { throw KeyValueObservingError.indexOutOfRange(first, count: count) }
        if let last = indexes.last, last >= count { throw KeyValueObservingError.indexOutOfRange(last, count: count) }
    }
}

extension KeyValueObservationStorage {
    /// How many observer-object registrations match the arguments (any context when `context`
    /// is nil).
    func observerRegistrationCount(observer: ObjectIdentifier, keyPath: String, context: UInt?) -> Int {
        state.withTrackedLock(self) { state in
            state.observerRegistrations.count {
                $0.observerIdentity == observer && $0.keyPath == keyPath && (context == nil || $0.context == context)
            }
        }
    }
}
