// Converting values into constants (by kind at run time) and constants back into values.
import Foundation
import KeyValueCoding

extension KeyValueConstant {
    /// Sorts `raw` by kind. Collections nested deeper than ``ValueEquality/maximumNesting``
    /// keep their deeper levels as opaque values rather than recursing further.
    init(any raw: Any?, depth: Int = 0) {
        guard let value = ValueEquality.normalize(raw) else {
            self = .null
            return
        }
        if let constant = value as? KeyValueConstant {
            self = constant
            return
        }
        if let string = value as? String {
            self = .string(string)
        } else if let number = KeyValueNumber(value) {
            self = Self(number)
        } else if let substring = value as? Substring {
            self = .string(String(substring))
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let uuid = value as? UUID {
            self = .uuid(uuid)
        } else if ValueCollections.isCollection(value) {
            if depth < ValueEquality.maximumNesting, let collection = Self(collection: value, depth: depth) {
                self = collection
            } else {
                self = .value(KeyValueOpaqueValue(unchecked: value, tooDeep: true))
            }
        } else if type(of: value) is AnyClass {
            self = .object(KeyValueObjectReference(value as AnyObject))
        } else {
            self = .value(KeyValueOpaqueValue(unchecked: value))
        }
    }

    init(_ number: KeyValueNumber) {
        switch number {
        case .integer(let v): self = .integer(v)
        case .unsigned(let v): self = Int64(exactly: v).map { .integer($0) } ?? .unsignedInteger(v)
        case .floating(let v): self = .double(v)
        case .decimal(let v): self = .decimal(v)
        case .boolean(let v): self = .bool(v)
        }
    }

    private init?(collection value: Any, depth: Int) {
        if let dictionaryEntries = ValueCollections.entries(of: value) {
            var entries: [KeyValueConstant: KeyValueConstant] = [:]
            for (key, element) in dictionaryEntries {
                entries[KeyValueConstant(any: key, depth: depth + 1)] = KeyValueConstant(any: element, depth: depth + 1)
            }
            self = .dictionary(entries)
            return
        }
        guard let elements = ValueCollections.elements(of: value) else { return nil }
        let constants = elements.map { KeyValueConstant(any: $0, depth: depth + 1) }
        self = ValueCollections.isUnordered(value) ? .set(Set(constants)) : .array(constants)
    }

    // MARK: Values for evaluation

    /// The constant as a plain Swift value: `nil`, `Bool`, `Int` (or `Int64`/`UInt64` when it
    /// does not fit), `Double`, `Decimal`, `String`, `Date`, `Data`, `UUID`, `[Any?]` for an
    /// array, `Set<AnyHashable>` for a set, `[String: Any]` (or `[AnyHashable: Any]`) for a
    /// dictionary (`nil` values as `NSNull`), the object, or the opaque value.
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let v): return v
        case .integer(let v): return Int(exactly: v).map { $0 as Any } ?? v
        case .unsignedInteger(let v): return v
        case .double(let v): return v
        case .decimal(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .data(let v): return v
        case .uuid(let v): return v
        case .array(let elements): return elements.map(\.anyValue)
        case .set(let elements): return Set(elements.map(\.hashableValue))
        case .dictionary(let entries): return Self.dictionaryValue(entries)
        case .object(let reference): return reference.object
        case .value(let opaque): return opaque.base
        }
    }

    /// The value a predicate compares with: as ``anyValue``, with values that have a raw value
    /// replaced by it (key-value coding reads enumeration properties as their raw values).
    var evaluationValue: Any? {
        switch self {
        case .array(let elements): return elements.map(\.evaluationValue)
        case .set(let elements): return Set(elements.map { Self.hashable($0.evaluationValue, $0) })
        case .value(let opaque): return opaque.rawValue ?? opaque.base
        default: return anyValue
        }
    }

    private var hashableValue: AnyHashable { Self.hashable(anyValue, self) }

    private static func hashable(_ value: Any?, _ constant: KeyValueConstant) -> AnyHashable {
        if let value, let hashable = value as? AnyHashable { return hashable }
        return AnyHashable(constant)
    }

    private static func dictionaryValue(_ entries: [KeyValueConstant: KeyValueConstant]) -> Any {
        var strings: [String: Any] = [:]
        var allStrings = true
        for (key, element) in entries {
            guard case .string(let name) = key else {
                allStrings = false
                break
            }
            strings[name] = element.anyValue ?? NSNull()
        }
        if allStrings { return strings }
        var any: [AnyHashable: Any] = [:]
        for (key, element) in entries { any[key.hashableValue] = element.anyValue ?? NSNull() }
        return any
    }

    /// The number this constant holds, or nil.
    var number: KeyValueNumber? {
        switch self {
        case .bool(let v): return .boolean(v)
        case .integer(let v): return .integer(v)
        case .unsignedInteger(let v): return .unsigned(v)
        case .double(let v): return .floating(v)
        case .decimal(let v): return .decimal(v)
        default: return nil
        }
    }
}
