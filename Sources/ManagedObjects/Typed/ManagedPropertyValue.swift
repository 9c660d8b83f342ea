// The Swift types a `@Managed` property can have, and how each maps to the managed storage.
import Foundation

/// What a `@Managed` property's Swift type stands for in the entity, checked when a class is
/// bound to an entity.
public struct ManagedPropertyShape: Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// An attribute of one of `types`; `isOptional` when the Swift type is optional;
        /// `hasZero` when a non-optional Swift type reads a missing value as zero (scalars).
        case attribute(types: [AttributeDescription.AttributeType], isOptional: Bool, isScalar: Bool)
        /// A to-one relationship to objects of `element`.
        case toOne(element: ManagedObject.Type)
        /// An unordered to-many relationship (`Set`).
        case toMany(element: ManagedObject.Type)
        /// An ordered to-many relationship (`Array`).
        case orderedToMany(element: ManagedObject.Type)
    }

    package let kind: Kind
    /// The Swift type, as written (`Double`, `Set<Fruit>`).
    package let swiftType: Any.Type

    package init(_ kind: Kind, swiftType: Any.Type) {
        self.kind = kind
        self.swiftType = swiftType
    }

    /// The Swift type's name.
    public var description: String { String(describing: swiftType) }
}

/// A Swift type that a `@Managed` property can have: the attribute types' Swift types
/// (`Int16`, `Int32`, `Int64`, `Double`, `Float`, `Bool`, `String`, `Decimal`, `Data`, `Date`,
/// `UUID`, and, optional only, `URL`), their optionals, and relationships typed by a
/// managed-object class: `Crate?`, `Set<Fruit>`, `[Fruit]`.
///
/// The package conforms these types; you do not conform your own.
public protocol ManagedPropertyValue {
    /// What the property's storage holds: the value key-value coding and the context see,
    /// `Double?` for `Double`, `ManagedObject?` for `Crate?`, `Set<ManagedObject>` for
    /// `Set<Fruit>`.
    associatedtype ManagedStorage
    /// The storage of a property that holds nothing (`nil`, or an empty collection).
    static var managedEmptyStorage: ManagedStorage { get }
    /// The typed value of a storage.
    static func managedValue(from storage: ManagedStorage) -> Self
    /// The storage of a typed value.
    static func managedStorage(from value: Self) -> ManagedStorage
    /// The storage as key-value coding and the context hold it (`nil`, or the plain value).
    static func boxedManagedStorage(_ storage: ManagedStorage) -> Any?
    /// The storage of a value as key-value coding and the context hold it.
    static func unboxedManagedStorage(_ value: Any?) -> ManagedStorage
    /// What the type stands for in an entity.
    static var managedShape: ManagedPropertyShape { get }
    /// Whether the type is a to-many relationship's (`Set` or `Array` of objects), whose
    /// storage may be a relationship fault until first read. `false` by default.
    static var isManagedToManyRelationship: Bool { get }
    /// Whether the type is a relationship's (`Crate?`, `Set<Fruit>`, `[Fruit]`): a typed
    /// store of it into an object whose context was released changes nothing. `false` by
    /// default.
    static var isManagedRelationship: Bool { get }
}

extension ManagedPropertyValue {
    /// `false`: attributes and to-one relationships are never relationship faults.
    @inlinable public static var isManagedToManyRelationship: Bool { false }
    /// `false`: attributes.
    @inlinable public static var isManagedRelationship: Bool { false }
}

/// A type whose optional a `@Managed` property can have: an attribute value or a
/// managed-object class (a to-one relationship). The package conforms these types.
public protocol ManagedOptionalElement {
    /// What the storage of an optional of this type holds (`Double`, `ManagedObject`).
    associatedtype ManagedElement
    /// The typed value of a stored element.
    static func managedElementValue(_ element: ManagedElement) -> Self
    /// The typed value of a stored element, or `nil` when the element is not of this type (an
    /// object of another class in a relationship, put there against the model): what typed
    /// reads use, so that such a value reads as missing instead of stopping the process.
    static func managedElementValueIfOfType(_ element: ManagedElement) -> Self?
    /// The stored element of a typed value.
    static func managedElement(_ value: Self) -> ManagedElement
    /// The shape of `Self?`.
    static var optionalManagedShape: ManagedPropertyShape { get }
    /// Whether `Self?` is a to-one relationship's type (a managed-object class). `false` by
    /// default.
    static var isManagedObjectElement: Bool { get }
}

extension ManagedOptionalElement {
    /// `false`: attribute values.
    @inlinable public static var isManagedObjectElement: Bool { false }
}

/// An attribute's Swift type. The package conforms these types.
public protocol ManagedAttributeValue: ManagedOptionalElement where ManagedElement == Self {
    /// The attribute types whose values have this Swift type.
    static var managedAttributeTypes: [AttributeDescription.AttributeType] { get }
    /// Whether a non-optional property of this type reads a missing value as zero (numbers and
    /// `Bool`, as Core Data's scalar accessors), rather than needing a non-optional attribute.
    static var isManagedScalar: Bool { get }
}

extension ManagedAttributeValue {
    public static func managedElementValue(_ element: Self) -> Self { element }
    @inlinable @inline(__always)
    public static func managedElementValueIfOfType(_ element: Self) -> Self? { element }
    public static func managedElement(_ value: Self) -> Self { value }
    public static var optionalManagedShape: ManagedPropertyShape {
        ManagedPropertyShape(.attribute(types: managedAttributeTypes, isOptional: true, isScalar: isManagedScalar),
                             swiftType: Self?.self)
    }
    public static var isManagedScalar: Bool { false }
}

/// An attribute type whose non-optional Swift type a `@Managed` property can have: a missing
/// value reads as ``managedZero``.
public protocol ManagedNonOptionalAttributeValue: ManagedAttributeValue, ManagedPropertyValue
    where ManagedStorage == Self? {
    /// What a missing value reads as (`0`, `false`, `""`, empty data, the reference date, the
    /// all-zero UUID).
    static var managedZero: Self { get }
}

extension ManagedNonOptionalAttributeValue {
    public static var managedEmptyStorage: Self? { nil }
    @inlinable @inline(__always)
    public static func managedValue(from storage: Self?) -> Self { storage ?? managedZero }
    @inlinable @inline(__always)
    public static func managedStorage(from value: Self) -> Self? { value }
    public static func boxedManagedStorage(_ storage: Self?) -> Any? { storage.map { $0 as Any } }
    public static func unboxedManagedStorage(_ value: Any?) -> Self? { value as? Self }
    public static var managedShape: ManagedPropertyShape {
        ManagedPropertyShape(.attribute(types: managedAttributeTypes, isOptional: false, isScalar: isManagedScalar),
                             swiftType: Self.self)
    }
}

extension Int16: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.integer16] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Int16 { 0 }
}

extension Int32: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.integer32] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Int32 { 0 }
}

extension Int64: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.integer64] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Int64 { 0 }
}

extension Double: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.double] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Double { 0 }
}

extension Float: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.float] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Float { 0 }
}

extension Bool: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.boolean] }
    public static var isManagedScalar: Bool { true }
    public static var managedZero: Bool { false }
}

extension String: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.string] }
    public static var managedZero: String { "" }
}

extension Decimal: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.decimal] }
    public static var managedZero: Decimal { 0 }
}

extension Data: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.binaryData] }
    public static var managedZero: Data { Data() }
}

extension Date: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.date] }
    /// 2001-01-01 00:00:00 UTC: zero seconds, as Core Data's scalar date accessor reads a
    /// missing date.
    public static var managedZero: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension UUID: ManagedNonOptionalAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.uuid] }
    /// `00000000-0000-0000-0000-000000000000`.
    public static var managedZero: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

// URL stays optional only: no URL stands for "none" the way zero, "" or empty data do.

extension URL: ManagedAttributeValue {
    public static var managedAttributeTypes: [AttributeDescription.AttributeType] { [.uri] }
}

extension Optional: ManagedPropertyValue where Wrapped: ManagedOptionalElement {
    public typealias ManagedStorage = Wrapped.ManagedElement?
    public static var managedEmptyStorage: Wrapped.ManagedElement? { nil }
    @inlinable @inline(__always)
    public static func managedValue(from storage: Wrapped.ManagedElement?) -> Self {
        storage.flatMap(Wrapped.managedElementValueIfOfType)
    }
    @inlinable @inline(__always)
    public static func managedStorage(from value: Self) -> Wrapped.ManagedElement? {
        value.map(Wrapped.managedElement)
    }
    public static func boxedManagedStorage(_ storage: Wrapped.ManagedElement?) -> Any? { storage.map { $0 as Any } }
    public static func unboxedManagedStorage(_ value: Any?) -> Wrapped.ManagedElement? { value as? Wrapped.ManagedElement }
    /// Whether the optional is a to-one relationship's (of a managed-object class).
    @inlinable public static var isManagedRelationship: Bool { Wrapped.isManagedObjectElement }
    public static var managedShape: ManagedPropertyShape { Wrapped.optionalManagedShape }
}

extension ManagedObject: ManagedOptionalElement {
    public typealias ManagedElement = ManagedObject

    /// The object as an instance of this class; traps naming both classes otherwise (the
    /// relationship holds an object that key-value coding put there against the model).
    public static func managedElementValue(_ element: ManagedObject) -> Self {
        guard let typed = element as? Self else { ManagedTypedAccess.wrongClass(element, expected: self) }
        return typed
    }

    /// The object as an instance of this class, or `nil` when it is of another class: a typed
    /// to-one property reads such an object as `nil`, and a typed to-many one leaves it out.
    public static func managedElementValueIfOfType(_ element: ManagedObject) -> Self? { element as? Self }

    public static func managedElement(_ value: ManagedObject) -> ManagedObject { value }

    public static var optionalManagedShape: ManagedPropertyShape {
        ManagedPropertyShape(.toOne(element: self), swiftType: Self?.self)
    }

    /// `true`: an optional object is a to-one relationship.
    @inlinable public static var isManagedObjectElement: Bool { true }
}

extension Set: ManagedPropertyValue where Element: ManagedObject {
    public typealias ManagedStorage = Set<ManagedObject>
    public static var managedEmptyStorage: Set<ManagedObject> { [] }
    public static func managedValue(from storage: Set<ManagedObject>) -> Self {
        if Element.self == ManagedObject.self { return storage as! Self }
        // An object of another class (put there against the model) is left out; room for
        // every member is made at once (a compact map cannot know the count).
        var typed = Self(minimumCapacity: storage.count)
        for object in storage {
            if let member = Element.managedElementValueIfOfType(object) { typed.insert(member) }
        }
        return typed
    }
    public static func managedStorage(from value: Self) -> Set<ManagedObject> {
        value as Set<ManagedObject>
    }
    public static func boxedManagedStorage(_ storage: Set<ManagedObject>) -> Any? { storage }
    public static func unboxedManagedStorage(_ value: Any?) -> Set<ManagedObject> { value as? Set<ManagedObject> ?? [] }
    public static var managedShape: ManagedPropertyShape { ManagedPropertyShape(.toMany(element: Element.self), swiftType: Self.self) }
    @inlinable public static var isManagedToManyRelationship: Bool { true }
    @inlinable public static var isManagedRelationship: Bool { true }
}

extension Array: ManagedPropertyValue where Element: ManagedObject {
    public typealias ManagedStorage = [ManagedObject]
    public static var managedEmptyStorage: [ManagedObject] { [] }
    public static func managedValue(from storage: [ManagedObject]) -> Self {
        // An object of another class is left out; room for every member is made at once.
        var typed = Self()
        typed.reserveCapacity(storage.count)
        for object in storage {
            if let member = Element.managedElementValueIfOfType(object) { typed.append(member) }
        }
        return typed
    }
    public static func managedStorage(from value: Self) -> [ManagedObject] { value }
    public static func boxedManagedStorage(_ storage: [ManagedObject]) -> Any? { storage }
    public static func unboxedManagedStorage(_ value: Any?) -> [ManagedObject] { value as? [ManagedObject] ?? [] }
    public static var managedShape: ManagedPropertyShape {
        ManagedPropertyShape(.orderedToMany(element: Element.self), swiftType: Self.self)
    }
    @inlinable public static var isManagedToManyRelationship: Bool { true }
    @inlinable public static var isManagedRelationship: Bool { true }
}

/// Failures of typed access that are contract misuse.
enum ManagedTypedAccess {
    static func wrongClass(_ object: ManagedObject, expected: ManagedObject.Type) -> Never {
        preconditionFailure("a relationship holds \(object.objectID) of class \(type(of: object)), not \(expected): "
                            + "set relationships only to objects of their destination entity")
    }
}
