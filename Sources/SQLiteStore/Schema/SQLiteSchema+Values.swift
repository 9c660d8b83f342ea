// Attribute values ↔ SQLite values, per Core Data's type mapping (Docs/SQLiteStore.md).
import Foundation
import ManagedObjects
import Predicates
import SQLCompiling

extension SQLiteSchema {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of stored dates.
    package static let referenceDateOffset: Double = 978_307_200

    /// How a NaN double or float is stored: SQLite keeps no NaN REAL (binding one stores NULL).
    package static let notANumber = "NaN"

    /// The SQLite value stored for an attribute value.
    ///
    /// - Parameters:
    ///   - constant: The value from a store row (`nil` or `.null` for none).
    ///   - attribute: The attribute.
    ///   - entity: The entity's name, for errors.
    ///   - path: The store file's path, for errors.
    /// - Throws: ``SQLiteStoreError/Code/unsupported(_:)`` naming the entity and attribute when the
    ///   value does not fit the attribute's type, or a transformer fails.
    package static func sqlValue(_ constant: KeyValueConstant?, for attribute: AttributeDescription,
                                 entity: String, path: String) throws -> SQLiteValue {
        guard let constant, constant != .null, let value = constant.anyValue else { return .null }
        func mismatch() -> SQLiteStoreError {
            SQLiteStoreError(.unsupported("the value \(value) (\(type(of: value))) of \(entity).\(attribute.name), a \(attribute.attributeType.rawValue) attribute"),
                             path: path)
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
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .integer(let integer) where integer == 0 || integer == 1: return .integer(integer)
            default: break
            }
        case .double, .float, .decimal:
            switch constant {
            // SQLite turns a bound NaN into NULL: NaN is kept as the text "NaN" instead.
            case .double(let double): return double.isNaN ? .text(Self.notANumber) : .real(double)
            case .integer(let integer): return .real(Double(integer))
            // The double nearest the decimal (read back through its shortest text, below).
            // A NaN decimal is refused: Core Data's REAL column has no NaN (SQLite would store
            // NULL, and the value would read back as nil).
            case .decimal(let decimal):
                guard !decimal.isNaN else {
                    throw SQLiteStoreError(.unsupported("the value NaN of \(entity).\(attribute.name), a decimal attribute: a decimal is stored as a REAL, which cannot hold NaN (it would read back as nil); store nil or a number"),
                                           path: path)
                }
                return .real(decimal.nearestDouble)
            default: break
            }
        case .date:
            if case .date(let date) = constant { return .real(date.timeIntervalSinceReferenceDate) }
        case .string:
            if case .string(let string) = constant { return .text(string) }
        case .uri:
            if let url = value as? URL { return .text(url.absoluteString) }
            if case .string(let string) = constant { return .text(string) }
        case .binaryData:
            if case .data(let data) = constant { return .blob(data) }
        case .uuid:
            if case .uuid(let uuid) = constant { return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }) }
        case .transformable:
            do {
                return .blob(try attribute.transformedData(for: value, entity: entity))
            } catch {
                throw SQLiteStoreError(.unsupported(error.description), path: path)
            }
        case .objectID, .composite, .undefined:
            break
        }
        throw mismatch()
    }

    /// The attribute value of a stored SQLite value; `nil` for NULL and for stored values that
    /// do not fit the attribute (a store written by other software).
    ///
    /// - Parameters:
    ///   - value: The stored value.
    ///   - attribute: The attribute.
    ///   - entity: The entity's name, for errors.
    ///   - path: The store file's path, for errors.
    /// - Throws: ``SQLiteStoreError/Code/unsupported(_:)`` when the value does not read as the
    ///   attribute's type (text in a number column, a UUID of the wrong length…) or a
    ///   transformer fails.
    package static func constant(_ value: SQLiteValue, for attribute: AttributeDescription, entity: String,
                                 path: String) throws -> KeyValueConstant? {
        // A value that does not read as the attribute's type is an error naming it: reading it
        // as nil would let the next save write NULL over it.
        func undecodable() -> SQLiteStoreError {
            SQLiteStoreError(.unsupported("the stored value \(value) of \(entity).\(attribute.name) cannot be read as a \(attribute.attributeType.rawValue) attribute"),
                             path: path)
        }
        switch (attribute.attributeType, value) {
        case (_, .null):
            return nil
        case (.integer16, _), (.integer32, _), (.integer64, _):
            guard let integer = value.integerValue else { throw undecodable() }
            return .integer(integer)
        case (.boolean, _):
            guard let integer = value.integerValue else { throw undecodable() }
            return .bool(integer != 0)
        case (.double, .text(Self.notANumber)), (.float, .text(Self.notANumber)):
            return .double(.nan)
        case (.double, _), (.float, _):
            guard let double = value.doubleValue else { throw undecodable() }
            return .double(double)
        case (.decimal, .text(let text)):
            guard let decimal = Decimal(string: text) else { throw undecodable() }
            return .decimal(decimal)
        case (.decimal, .integer(let integer)):
            return .decimal(Decimal(integer))
        case (.decimal, .real(let real)):
            // Core Data keeps decimals as REAL; the shortest decimal text of the double is the
            // value that was stored (10.11, not 10.1099999…).
            return Decimal(string: "\(real)").map(KeyValueConstant.decimal) ?? .decimal(Decimal(real))
        case (.date, _):
            guard let seconds = value.doubleValue else { throw undecodable() }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.string, .text(let text)):
            return .string(text)
        case (.uri, .text(let text)):
            guard let url = URL(string: text) else { throw undecodable() }
            return KeyValueConstant(url)
        case (.binaryData, .blob(let data)):
            return .data(data)
        case (.uuid, .blob(let data)) where data.count == 16:
            let bytes = Array(data)
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case (.uuid, .text(let text)):
            guard let uuid = UUID(uuidString: text) else { throw undecodable() }
            return .uuid(uuid)
        case (.transformable, .blob(let data)):
            do {
                return KeyValueConstant(try attribute.value(fromTransformedData: data, entity: entity))
            } catch {
                throw SQLiteStoreError(.unsupported(error.description), path: path)
            }
        default:
            throw undecodable()
        }
    }
}
