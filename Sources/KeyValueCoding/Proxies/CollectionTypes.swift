import Foundation

// The collection types the editing proxies accept, told from a property's declared type through
// the shared collection views (``KeyValueCollection``), so that no further protocol is needed.

/// `type` without its optional layers (`[E]??` is `[E]`).
private func unwrappedType(_ type: Any.Type) -> Any.Type {
    var current = type
    while let optional = current as? any OptionalValue.Type { current = optional.wrappedType }
    return current
}

/// The element type of `type` when it is a Swift `Array` (or an optional of one); nil otherwise.
///
/// - Parameter allowingOptional: Whether `[E]?` counts (a non-optional array is edited where
///   it is stored).
func arrayElementType(of type: Any.Type, allowingOptional: Bool = true) -> Any.Type? {
    let unwrapped = allowingOptional ? unwrappedType(type) : type
    guard let collectionType = unwrapped as? any KeyValueCollection.Type else { return nil }
    let element = collectionType.keyValueElementType
    func isArray<E>(_: E.Type) -> Bool { unwrapped == [E].self }
    return _openExistential(element, do: isArray) ? element : nil
}

/// The member type of `type` when it is a Swift `Set` (or an optional of one); nil otherwise.
func setMemberType(of type: Any.Type) -> (any Hashable.Type)? {
    let unwrapped = unwrappedType(type)
    guard let collectionType = unwrapped as? any KeyValueCollection.Type,
          collectionType.keyValueElementType != Any.self,
          let member = collectionType.keyValueElementType as? any Hashable.Type else { return nil }
    func isSet<H: Hashable>(_: H.Type) -> Bool { unwrapped == Set<H>.self }
    return isSet(member) ? member : nil
}

/// A `Set` of `type`'s members (`type` a `Set` or an optional of one) holding `members`, or nil
/// when a member is not of the member type.
func makeSet(from members: Set<AnyHashable>, as type: Any.Type, key: String, owner: AnyObject) throws -> Any? {
    guard let member = setMemberType(of: type) else { return nil }
    func make<H: Hashable>(_: H.Type) throws -> Any? {
        var result = Set<H>()
        for member in members {
            // Members convert as key-value coding converts values (numbers bridge); a member
            // that cannot is named in the error.
            if isSwiftCollection(Swift.type(of: member.base)), isClassTarget(H.self) {
                throw KeyValueCodingError.typeMismatch(key: key, type: typeName(Swift.type(of: owner)),
                                                       expected: typeName(H.self),
                                                       actual: typeName(Swift.type(of: member.base)))
            }
            guard let typed = try coerce(member.base, to: H.self, key: key, owner: owner) else { return nil }
            result.insert(typed)
        }
        return result
    }
    return try make(member)
}

/// The members of the Swift `Set` held in `value` (or in an optional in it), each as
/// `AnyHashable`; nil when `value` is not a Swift set.
func setMembers(of value: Any) -> Set<AnyHashable>? {
    guard let value = flattenOptional(value) else { return nil }
    let valueType = type(of: value)
    guard let member = setMemberType(of: valueType), valueType == unwrappedType(valueType) else { return nil }
    func members<H: Hashable>(_: H.Type) -> Set<AnyHashable> {
        Set<AnyHashable>(loadInline(value, as: Set<H>.self).map { AnyHashable($0) })
    }
    return members(member)
}
