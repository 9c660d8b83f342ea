// Reading the text values of Xcode's model XML: flags, counts, typed default values and bounds.
import Foundation
import Predicates

/// Turns the strings of a `contents` file's XML attributes into typed values. Every function
/// returns `nil` for text that does not fit; the reader turns that into an
/// ``ManagedObjectModelError/Code/invalidValue(_:)`` error with the file and line.
enum ModelXMLValue {
    /// The locale numbers are written in (a point for decimals).
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// `YES`/`NO` as Xcode writes flags (also `true`/`false`, `1`/`0`, any case).
    static func flag(_ text: String) -> Bool? {
        switch text {
        case "YES", "yes", "Yes", "true", "TRUE", "True", "1": return true
        case "NO", "no", "No", "false", "FALSE", "False", "0": return false
        default: return nil
        }
    }

    /// `text` without leading and trailing spaces and tabs (without Foundation's slower
    /// character-set trimming, since most values have none).
    static func trimmed(_ text: String) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.first, let last = text.last, isBlank(first) || isBlank(last) else { return text }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    /// A non-negative count or limit (`minCount`, `fetchLimit`…).
    static func count(_ text: String) -> Int? {
        guard let value = Int(trimmed(text)), value >= 0 else { return nil }
        return value
    }

    /// A number of seconds since the reference date (`defaultDateTimeInterval`…), as a date.
    static func date(_ text: String) -> KeyValueConstant? {
        guard let seconds = Double(trimmed(text)), seconds.isFinite else { return nil }
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// A number that fits `type` (an integer of its width, a decimal, a double or a float).
    static func number(_ text: String, as type: AttributeDescription.AttributeType) -> KeyValueConstant? {
        let plain = trimmed(text)
        switch type {
        case .integer16:
            return Int16(plain).map { .integer(Int64($0)) }
        case .integer32:
            return Int32(plain).map { .integer(Int64($0)) }
        case .integer64:
            return Int64(plain).map { .integer($0) }
        case .double:
            guard let value = Double(plain), value.isFinite else { return nil }
            return .double(value)
        case .float:
            guard let value = Double(plain), value.isFinite, Float(value).isFinite else { return nil }
            return .double(value)
        case .decimal:
            return decimal(plain).map { .decimal($0) }
        default:
            return nil
        }
    }

    /// A decimal number in plain notation (`-12.50`, `1e3`); `nil` for anything else, checked
    /// before Foundation's parser sees it (which accepts a valid prefix of any text).
    static func decimal(_ text: String) -> Decimal? {
        var digits = 0
        var exponentDigits = 0
        var seenPoint = false
        var inExponent = false
        var previous: UInt8 = 0
        for (i, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent { exponentDigits += 1 } else { digits += 1 }
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard i == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return nil }
            case UInt8(ascii: "."):
                guard !seenPoint, !inExponent else { return nil }
                seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !inExponent, digits > 0 else { return nil }
                inExponent = true
            default:
                return nil
            }
            previous = byte
        }
        // Decimal holds 38 digits and exponents of ±127; keep far inside both.
        guard digits > 0, digits <= 38, !inExponent || (exponentDigits > 0 && exponentDigits <= 2) else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// An attribute's default value from its `defaultValueString`, read as its type says.
    ///
    /// - Returns: `.some(nil)` when the type takes no default from text (empty text for a
    ///   non-string type, binary data, transformable…), `nil` when the text does not fit.
    static func defaultValue(_ text: String, as type: AttributeDescription.AttributeType) -> KeyValueConstant?? {
        if text.isEmpty && type != .string { return .some(nil) }
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            return number(text, as: type).map { .some($0) }
        case .boolean:
            return flag(text).map { .some(.bool($0)) }
        case .string:
            return .some(.string(text))
        case .date:
            return date(text).map { .some($0) }
        case .uuid:
            return UUID(uuidString: text).map { .some(.uuid($0)) }
        case .uri:
            return URL(string: text).map { .some(KeyValueConstant($0)) }
        case .binaryData, .transformable, .objectID, .composite, .undefined:
            return .some(nil)
        }
    }

    /// The result type of a fetch request template: Apple's `NSFetchRequestResultType` raw
    /// values (0, 1, 2, 4) or their names.
    static func resultType(_ text: String) -> EntityFetchRequest.ResultType? {
        switch text {
        case "0", "ManagedObject", "managedObject", "NSManagedObjectResultType": return .managedObjects
        case "1", "ManagedObjectID", "managedObjectID", "NSManagedObjectIDResultType": return .objectIDs
        case "2", "Dictionary", "dictionary", "NSDictionaryResultType": return .dictionaries
        case "4", "Count", "count", "NSCountResultType": return .count
        default: return nil
        }
    }
}
