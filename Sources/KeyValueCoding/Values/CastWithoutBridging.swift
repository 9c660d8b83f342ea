import Foundation

/// Casts `value` to `T`, never letting Foundation bridge a Swift collection into an object.
///
/// On Linux, casting a Swift `Set` (or a collection holding one) to a class type or to
/// `AnyObject` bridges it through Foundation, which recurses without end for some members
/// (`Decimal`) and overflows the stack. Key-value coding never needs such a bridge, so these
/// casts are answered from the type's metadata instead (nil).
///
/// - Parameters:
///   - value: The value to cast.
///   - type: The type wanted.
/// - Returns: The value as `T`, or nil.
@inline(__always)
func castWithoutBridging<T>(_ value: Any, to type: T.Type) -> T? {
    if Swift.type(of: value) == T.self { return loadInline(value, as: T.self) }
    if isSwiftCollection(Swift.type(of: value)), isClassTarget(T.self) { return nil }
    return value as? T
}

/// Whether a cast to `type` could only succeed for a Swift collection by bridging it into an
/// object: a class, `AnyObject`, or an optional of one.
func isClassTarget(_ type: Any.Type) -> Bool {
    if type is AnyClass || type == AnyObject.self { return true }
    if let optional = type as? any OptionalValue.Type { return isClassTarget(optional.wrappedType) }
    return false
}

/// Whether values of `type` are Swift arrays, sets or dictionaries (values, not Foundation
/// objects), whose casts to classes go through Foundation's bridging.
func isSwiftCollection(_ type: Any.Type) -> Bool {
    let kind = ValueKind.of(type)
    return !kind.isClass && (kind.category == .collection || kind.category == .dictionary)
}
