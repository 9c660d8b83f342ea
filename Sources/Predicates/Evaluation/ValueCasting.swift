// CAST(value, "NSDate" | "NSNumber" | "NSString").
import Foundation
import KeyValueCoding

enum ValueCasting {
    /// Why `value` cannot be cast to `type` (for error messages).
    static func failure(_ value: Any, to type: String) -> String {
        let text: String
        if let string = value as? String {
            var quoted = ""
            PredicateFormatter.writeString(string, into: &quoted)
            text = quoted
        } else {
            text = "a value of type " + ValueCollections.typeDescription(value)
        }
        switch type {
        case "NSNumber", "NSDecimalNumber": return "\(text) is not a number"
        case "NSDate": return "\(text) is not a number of seconds or a date"
        default: return "\(text) cannot be converted to \(type)"
        }
    }

    static func isKnownType(_ name: String) -> Bool {
        name == "NSDate" || name == "NSNumber" || name == "NSString" || name == "NSDecimalNumber"
    }

    /// Converts `value` as Apple's `CAST` does; nil when it cannot.
    ///
    /// A number cast to `NSDate` counts seconds since 2001-01-01 (the reference date); a date
    /// cast to `NSNumber` gives that count back; strings parse as numbers.
    static func cast(_ value: Any?, to type: String) -> Any? {
        let value = ValueEquality.normalize(value)
        switch type {
        case "NSDate":
            if let date = value as? Date { return date }
            if let value, let number = KeyValueNumber(value) {
                return Date(timeIntervalSinceReferenceDate: number.doubleValue)
            }
            if let string = value as? String, let seconds = Double(string) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            return nil
        case "NSNumber":
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
            if let value, KeyValueNumber(value) != nil { return value }
            if let string = value as? String {
                let trimmed = string.trimmingCharacters(in: .whitespaces)
                if let int = Int(trimmed) { return int }
                return Double(trimmed)
            }
            return nil
        case "NSDecimalNumber":
            if let value, let number = KeyValueNumber(value) {
                switch number {
                case .decimal(let v): return v
                case .integer(let v): return Decimal(v)
                case .unsigned(let v): return Decimal(v)
                case .boolean(let v): return Decimal(v ? 1 : 0)
                case .floating(let v): return v.isFinite ? Decimal(v) : nil
                }
            }
            if let string = value as? String {
                return Decimal(string: string.trimmingCharacters(in: .whitespaces), locale: Locale(identifier: "en_US_POSIX"))
            }
            return nil
        case "NSString":
            guard let value else { return nil }
            if let string = value as? String { return string }
            return String(describing: value)
        default:
            return nil
        }
    }
}
