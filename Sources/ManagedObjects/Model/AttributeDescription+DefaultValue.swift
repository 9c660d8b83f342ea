// TEMPORARY in branch objects: replaced by the validation branch's version at merge.
import Foundation
import Predicates

extension AttributeDescription {
    /// The default value as the attribute type's Swift value, or `nil`.
    public var defaultValueForNewObject: Any? {
        guard let value = defaultValue?.anyValue else { return nil }
        switch attributeType {
        case .integer16: return (value as? NSNumber).map { Int16(truncating: $0) } ?? (value as? Int).map { Int16($0) }
        case .integer32: return (value as? NSNumber).map { Int32(truncating: $0) }
        case .integer64: return (value as? NSNumber).map { Int64(truncating: $0) }
        case .double: return (value as? NSNumber).map { Double(truncating: $0) }
        case .float: return (value as? NSNumber).map { Float(truncating: $0) }
        default: return value
        }
    }
}

extension AttributeDescription {
    /// A stored constant as this attribute's Swift value (`Int16`, `Date`, `URL`…), or `nil`.
    package func swiftValue(of constant: KeyValueConstant) -> Any? {
        if case .null = constant { return nil }
        if case .value(let opaque) = constant { return opaque.base }
        let value = constant.anyValue
        switch attributeType {
        case .integer16: return (value as? NSNumber).map { Int16(truncating: $0) } ?? value
        case .integer32: return (value as? NSNumber).map { Int32(truncating: $0) } ?? value
        case .integer64: return (value as? NSNumber).map { Int64(truncating: $0) } ?? value
        case .double: return (value as? NSNumber).map { Double(truncating: $0) } ?? value
        case .float: return (value as? NSNumber).map { Float(truncating: $0) } ?? value
        default: return value
        }
    }
}
