// Attribute values ↔ PostgreSQL parameters and result text.
import Foundation
import ManagedObjects
import Predicates
import SQLCompiling

extension PostgreSQLSchema {
    /// The parameter stored for an attribute value.
    ///
    /// - Throws: ``PostgreSQLStoreError/Code/unsupported(_:)`` naming the entity and attribute
    ///   when the value does not fit the attribute's type, or a transformer fails.
    package static func parameter(_ constant: KeyValueConstant?, for attribute: AttributeDescription,
                                  entity: String, server: String) throws -> PostgreSQLValue {
        guard let constant, constant != .null, let value = constant.anyValue else { return .null }
        func mismatch() -> PostgreSQLStoreError {
            PostgreSQLStoreError(.unsupported("the value \(value) (\(type(of: value))) of \(entity).\(attribute.name), a \(attribute.attributeType.rawValue) attribute"),
                                 server: server)
        }
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64:
            switch constant {
            case .integer(let integer): return .integer(integer)
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .double(let double): if let integer = Int64(exactly: double) { return .integer(integer) }
            case .unsignedInteger(let unsigned): if let integer = Int64(exactly: unsigned) { return .integer(integer) }
            default: break
            }
        case .boolean:
            switch constant {
            case .bool(let flag): return .text(flag ? "true" : "false")
            case .integer(let integer) where integer == 0 || integer == 1: return .text(integer == 1 ? "true" : "false")
            default: break
            }
        case .double, .float:
            switch constant {
            case .double(let double): return .text(text(of: double))
            case .integer(let integer): return .text(String(integer))
            case .decimal(let decimal): return .text(text(of: decimal.nearestDouble))
            default: break
            }
        case .decimal:
            switch constant {
            case .decimal(let decimal): return .text(decimal.description)
            case .integer(let integer): return .text(String(integer))
            case .double(let double) where double.isFinite: return .text(String(double))
            default: break
            }
        case .date:
            if case .date(let date) = constant { return .text(text(of: date.timeIntervalSinceReferenceDate)) }
        case .string:
            if case .string(let string) = constant { return .text(string) }
        case .uri:
            if let url = value as? URL { return .text(url.absoluteString) }
            if case .string(let string) = constant { return .text(string) }
        case .binaryData:
            if case .data(let data) = constant { return .bytes(data) }
        case .uuid:
            if case .uuid(let uuid) = constant { return .text(uuid.uuidString) }
        case .transformable:
            do {
                return .bytes(try attribute.transformedData(for: value, entity: entity))
            } catch {
                throw PostgreSQLStoreError(.unsupported(error.description), server: server)
            }
        case .objectID, .composite, .undefined:
            break
        }
        throw mismatch()
    }

    /// The attribute value of a column's text.
    ///
    /// - Throws: ``PostgreSQLStoreError/Code/unsupported(_:)`` when the text does not read as
    ///   the attribute's type, or a transformer fails.
    package static func constant(_ text: String?, for attribute: AttributeDescription, entity: String,
                                 server: String) throws -> KeyValueConstant? {
        guard let text else { return nil }
        func undecodable() -> PostgreSQLStoreError {
            PostgreSQLStoreError(.unsupported("the stored value \(text) of \(entity).\(attribute.name) cannot be read as a \(attribute.attributeType.rawValue) attribute"),
                                 server: server)
        }
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64:
            guard let integer = Int64(text) else { throw undecodable() }
            return .integer(integer)
        case .boolean:
            return .bool(text == "t" || text == "true")
        case .double, .float:
            guard let double = double(text) else { throw undecodable() }
            return .double(double)
        case .decimal:
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw undecodable() }
            return .decimal(decimal)
        case .date:
            guard let seconds = double(text) else { throw undecodable() }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .string:
            return .string(text)
        case .uri:
            guard let url = URL(string: text) else { throw undecodable() }
            return KeyValueConstant(url)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw undecodable() }
            return .uuid(uuid)
        case .binaryData:
            guard let data = bytes(text) else { throw undecodable() }
            return .data(data)
        case .transformable, .objectID, .composite, .undefined:
            guard let data = bytes(text) else { throw undecodable() }
            do {
                return KeyValueConstant(try attribute.value(fromTransformedData: data, entity: entity))
            } catch {
                throw PostgreSQLStoreError(.unsupported(error.description), server: server)
            }
        }
    }

    /// PostgreSQL's text for a double (`Infinity`, `NaN` spelled its way).
    static func text(of double: Double) -> String {
        if double.isNaN { return "NaN" }
        if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
        return String(double)
    }

    static func double(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// The bytes of a `bytea` in PostgreSQL's hex output form (`\x0a1b…`).
    static func bytes(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }
}
