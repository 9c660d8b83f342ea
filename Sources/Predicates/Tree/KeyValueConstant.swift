// Constant values inside predicates: a Sendable value enum.
import Foundation

/// A constant inside a predicate or an expression: the value Apple's
/// `NSExpression(forConstantValue:)` holds, as a `Sendable` value.
///
/// Constants come from literals in format strings (`42`, `"a"`, `YES`, `{1, 2}`), from `%@`
/// arguments, from ``KeyValuePredicate/withSubstitutionVariables(_:)`` and from code. Literals
/// build them directly:
///
/// ```swift
/// let answer: KeyValueConstant = 42
/// let names: KeyValueConstant = ["Ada", "Grace"]
/// let status = KeyValueConstant(Status.closed)      // any Sendable & Hashable value
/// let anything = KeyValueConstant(someValue as Any) // sorted by kind at run time
/// ```
///
/// Equality follows the predicate rules rather than the cases: numbers compare numerically
/// across cases (`.integer(1) == .double(1) == .bool(true)`), a value with a raw value (an
/// enumeration) equals a constant equal to its raw value, an array equals a set with the same
/// elements, and object references compare by identity. Equal constants hash alike.
///
/// - Important: Thread safety: `Sendable`. Every case holds a `Sendable` value except
///   ``object(_:)``, whose reference is compared by identity only (see
///   ``KeyValueObjectReference``), and ``value(_:)``, whose box is documented at
///   ``KeyValueOpaqueValue``.
public enum KeyValueConstant: Sendable {
    /// `nil` (also `NULL` and `NSNull`).
    case null
    /// `YES`/`TRUE` or `NO`/`FALSE`.
    case bool(Bool)
    /// A signed integer of any width.
    case integer(Int64)
    /// An unsigned integer too large for `Int64`.
    case unsignedInteger(UInt64)
    /// A floating-point number (`Float` values are widened).
    case double(Double)
    /// A decimal number (Apple: `NSDecimalNumber`).
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A date.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// An ordered collection of constants (an aggregate `{…}`, an array or ordered set).
    case array([KeyValueConstant])
    /// An unordered collection of constants (a `Set` or `NSSet`).
    case set(Set<KeyValueConstant>)
    /// A dictionary of constants (Apple: `NSDictionary`).
    case dictionary([KeyValueConstant: KeyValueConstant])
    /// A class instance, compared by identity (for example a related object passed as `%@`).
    case object(KeyValueObjectReference)
    /// Any other value: an enumeration, a struct (see ``KeyValueOpaqueValue``).
    case value(KeyValueOpaqueValue)

    /// Creates a constant from an opaque `Sendable` and `Hashable` value, such as an
    /// enumeration case.
    ///
    /// Values with their own case (numbers, strings, dates…) are stored in it, so
    /// `KeyValueConstant(5)` is `.integer(5)`.
    ///
    /// - Parameter value: The value.
    public init<Value: Sendable & Hashable>(_ value: Value) {
        self.init(any: value)
    }

    /// Creates a constant from any value, sorting it by kind at run time (the conversion a
    /// `%@` argument goes through).
    ///
    /// `nil`, nested optionals and `NSNull` give ``null``; `Bool`, the integer and
    /// floating-point types, `Decimal` and `NSNumber` their number cases; `String`/`Substring`,
    /// `Date`, `Data`, `UUID` their cases; arrays, sets and dictionaries (Swift or Foundation)
    /// their collection cases, element by element; other class instances ``object(_:)``; any
    /// other value ``value(_:)``.
    ///
    /// - Parameter value: The value.
    /// - Complexity: O(*n*) in the number of elements of a collection.
    public init(_ value: Any?) {
        self.init(any: value)
    }
}

// MARK: - Literals

extension KeyValueConstant: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral {
    /// ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// ``array(_:)``.
    public init(arrayLiteral elements: KeyValueConstant...) { self = .array(elements) }
}

// MARK: - Opaque boxes

/// A class instance inside a constant, compared and hashed by identity.
///
/// A predicate never reads or writes the object's state: evaluation compares the reference with
/// the objects it reads (`department == %@`). A later layer can swap references for its own
/// identifiers with ``KeyValuePredicate/mappingConstants(_:)`` (a managed-object layer turns
/// objects into object IDs before handing a predicate to a store).
///
/// `@unchecked Sendable`: the box itself only compares the reference's identity
/// (`ObjectIdentifier`), which is safe from any thread. ``object`` hands the reference back;
/// use the object only where its owner allows it (its thread, actor or context), as with any
/// object passed through `%@`.
public struct KeyValueObjectReference: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The referenced object. Use it only where the object itself may be used.
    public let object: AnyObject

    /// Wraps `object`.
    ///
    /// - Parameter object: The object.
    public init(_ object: AnyObject) {
        self.object = object
    }

    public static func == (lhs: KeyValueObjectReference, rhs: KeyValueObjectReference) -> Bool {
        lhs.object === rhs.object
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
    }

    /// The type and address, such as `Person(0x00006000…)`.
    public var description: String {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        return "\(type(of: object))(0x\(String(address, radix: 16)))"
    }
}

/// A value with no case of its own inside a constant: an enumeration case, a struct.
///
/// Equal when the values are equal as `AnyHashable` (values that are not `Hashable` compare
/// by their type and their `String(reflecting:)` text). A value with a raw value compares by
/// its raw value (see ``KeyValueConstant``).
///
/// `@unchecked Sendable`: values built with ``KeyValueConstant/init(_:)-(Value)`` are checked
/// `Sendable` by the compiler. Values given as `Any` (a `%@` argument,
/// ``KeyValueConstant/init(_:)-(Any?)``) cannot be checked; class instances never land here
/// (they become ``KeyValueConstant/object(_:)``), so the box holds a value type, which the
/// predicate only reads (compares, hashes, formats) and never mutates. A value type holding a
/// reference to shared mutable state is the caller's responsibility, as with any `Any`.
public struct KeyValueOpaqueValue: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The value.
    public let base: Any
    private let hashable: AnyHashable?
    /// Set for the levels of a collection nested deeper than ``ValueEquality/maximumNesting``
    /// inside a constant: never equal to anything, written as a placeholder.
    let isTooDeep: Bool

    /// Wraps a `Sendable` and `Hashable` value.
    ///
    /// - Parameter value: The value.
    public init<Value: Sendable & Hashable>(_ value: Value) {
        base = value
        hashable = AnyHashable(value)
        isTooDeep = false
    }

    init(unchecked value: Any, tooDeep: Bool = false) {
        base = value
        hashable = tooDeep ? nil : value as? AnyHashable
        isTooDeep = tooDeep
    }

    public static func == (lhs: KeyValueOpaqueValue, rhs: KeyValueOpaqueValue) -> Bool {
        if lhs.isTooDeep || rhs.isTooDeep { return false }
        if let a = lhs.hashable, let b = rhs.hashable { return a == b }
        if lhs.hashable != nil || rhs.hashable != nil { return false }
        return type(of: lhs.base) == type(of: rhs.base)
            && String(reflecting: lhs.base) == String(reflecting: rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        if isTooDeep { return }
        if let hashable { hasher.combine(hashable) } else { hasher.combine(String(reflecting: base)) }
    }

    /// The value's description.
    public var description: String { isTooDeep ? PredicateFormatter.tooDeepPlaceholder : String(describing: base) }

    /// The raw value when the value is `RawRepresentable` (an enumeration with raw values).
    var rawValue: Any? {
        guard !isTooDeep, let raw = base as? any RawRepresentable else { return nil }
        return Self.open(raw)
    }

    private static func open<R: RawRepresentable>(_ value: R) -> Any { value.rawValue }
}
