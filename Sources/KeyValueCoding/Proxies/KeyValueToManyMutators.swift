import Foundation

/// The methods that change one to-many property element by element, which the mutable
/// collection proxies call instead of storing a whole new collection.
///
/// Declare them for a key in ``KeyValueCodable/toManyMutators`` (or give them to an accessor
/// property) when a to-many property needs to see each element that comes and goes: to keep an
/// inverse relationship, to refuse an element (throw) or to store a different one (convert it
/// before storing). The mutable proxies (``KeyValueCodable/mutableArrayValue(forKey:)``,
/// ``KeyValueCodable/mutableSetValue(forKey:)``) and the element-wise entry points
/// (``KeyValueCodable/insertValue(_:at:inPropertyWithKey:)`` and its relatives) call them, with
/// the to-many change notifications around the calls, so observers are told of each edit
/// whoever makes it.
///
/// ```swift
/// final class Theater: KeyValueObservable {
///     var movies: [Movie] = []
///     class var toManyMutators: [String: KeyValueToManyMutators] {
///         ["movies": .array(KeyValueArrayMutators(Theater.self, Movie.self,
///             insert: { theater, movie, index in theater.movies.insert(movie, at: index) },
///             remove: { theater, index in theater.movies.remove(at: index) }))]
///     }
/// }
/// ```
///
/// Corresponds to Apple's indexed and unordered accessor methods (`insertObject:in<Key>AtIndex:`,
/// `removeObjectFrom<Key>AtIndex:`, `replaceObjectIn<Key>AtIndex:withObject:`,
/// `add<Key>Object:`, `remove<Key>Object:`), which key-value coding finds by name.
public enum KeyValueToManyMutators: Sendable {
    /// The mutators of an ordered to-many property (an array).
    case array(KeyValueArrayMutators)
    /// The mutators of an unordered to-many property (a set).
    case set(KeyValueSetMutators)
}

/// The element-wise mutators of an array property (see ``KeyValueToManyMutators``).
///
/// Thread safety: the closures are `@Sendable`; they run on the thread that edits the object.
public struct KeyValueArrayMutators: Sendable {
    /// Inserts an element at a position (0...count); throws to refuse it.
    public var insert: @Sendable (_ object: AnyObject, _ element: Any?, _ index: Int) throws -> Void
    /// Removes the element at a position; throws to refuse.
    public var remove: @Sendable (_ object: AnyObject, _ index: Int) throws -> Void
    /// Replaces the element at a position; `nil` replaces by a removal then an insertion.
    public var replace: (@Sendable (_ object: AnyObject, _ index: Int, _ element: Any?) throws -> Void)?

    /// Creates mutators from untyped closures.
    ///
    /// - Parameters:
    ///   - insert: Inserts an element at an index (0...count).
    ///   - remove: Removes the element at an index.
    ///   - replace: Replaces the element at an index; by default a removal then an insertion.
    public init(insert: @escaping @Sendable (AnyObject, Any?, Int) throws -> Void,
                remove: @escaping @Sendable (AnyObject, Int) throws -> Void,
                replace: (@Sendable (AnyObject, Int, Any?) throws -> Void)? = nil) {
        self.insert = insert
        self.remove = remove
        self.replace = replace
    }

    /// Creates mutators for objects of class `Object` whose elements are `Element`.
    ///
    /// Elements are converted as key-value coding converts values (numbers bridge; `NSNull` is
    /// `nil` for an optional element type); one that cannot be converted is refused with
    /// ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` before any mutator runs.
    ///
    /// - Parameters:
    ///   - objectType: The class that declares the property.
    ///   - elementType: The array's element type.
    ///   - insert: Inserts an element at an index (0...count).
    ///   - remove: Removes the element at an index.
    ///   - replace: Replaces the element at an index; by default a removal then an insertion.
    public init<Object: AnyObject, Element>(
        _ objectType: Object.Type, _ elementType: Element.Type,
        insert: @escaping @Sendable (Object, Element, Int) throws -> Void,
        remove: @escaping @Sendable (Object, Int) throws -> Void,
        replace: (@Sendable (Object, Int, Element) throws -> Void)? = nil
    ) {
        let typed = TypedMutation<Object, Element>()
        self.insert = { object, element, index in
            try insert(typed.object(object), try typed.element(element, owner: object), index)
        }
        self.remove = { object, index in try remove(typed.object(object), index) }
        if let replace {
            self.replace = { object, index, element in
                try replace(typed.object(object), index, try typed.element(element, owner: object))
            }
        } else {
            self.replace = nil
        }
    }
}

/// The element-wise mutators of a set property (see ``KeyValueToManyMutators``).
///
/// Thread safety: the closures are `@Sendable`; they run on the thread that edits the object.
public struct KeyValueSetMutators: Sendable {
    /// Adds a member; throws to refuse it.
    public var add: @Sendable (_ object: AnyObject, _ member: AnyHashable) throws -> Void
    /// Removes a member; throws to refuse.
    public var remove: @Sendable (_ object: AnyObject, _ member: AnyHashable) throws -> Void

    /// Creates mutators from untyped closures.
    ///
    /// - Parameters:
    ///   - add: Adds a member.
    ///   - remove: Removes a member.
    public init(add: @escaping @Sendable (AnyObject, AnyHashable) throws -> Void,
                remove: @escaping @Sendable (AnyObject, AnyHashable) throws -> Void) {
        self.add = add
        self.remove = remove
    }

    /// Creates mutators for objects of class `Object` whose members are `Member`.
    ///
    /// A member that is not a `Member` is refused with
    /// ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` before any mutator runs.
    ///
    /// - Parameters:
    ///   - objectType: The class that declares the property.
    ///   - memberType: The set's member type.
    ///   - add: Adds a member.
    ///   - remove: Removes a member.
    public init<Object: AnyObject, Member>(
        _ objectType: Object.Type, _ memberType: Member.Type,
        add: @escaping @Sendable (Object, Member) throws -> Void,
        remove: @escaping @Sendable (Object, Member) throws -> Void
    ) {
        let typed = TypedMutation<Object, Member>()
        self.add = { object, member in
            try add(typed.object(object), try typed.element(member.base, owner: object))
        }
        self.remove = { object, member in
            try remove(typed.object(object), try typed.element(member.base, owner: object))
        }
    }
}

/// Casts objects and converts elements for typed mutators.
///
/// `@unchecked Sendable`: it has no state; it only carries its type parameters into the
/// `@Sendable` mutator closures.
private struct TypedMutation<Object: AnyObject, Element>: @unchecked Sendable {
    func object(_ object: AnyObject) -> Object { object as! Object }

    func element(_ element: Any?, owner: AnyObject) throws -> Element {
        try convertElement(element, to: Element.self, owner: owner)
    }
}

/// Converts one element for a typed mutator.
private func convertElement<Element>(_ element: Any?, to: Element.Type, owner: AnyObject) throws -> Element {
    if let element, !isNSNull(element) {
        if let converted = try coerce(element, to: Element.self, key: "element", owner: owner) {
            return converted
        }
    }
    let none: Any? = nil
    if Element.self is any OptionalValue.Type { return none as! Element }
    throw KeyValueCodingError.typeMismatch(key: "element", type: typeName(type(of: owner)),
                                           expected: typeName(Element.self), actual: "nil")
}
