// Values as Xcode's model files write them (defaultValueString, minValueString, …).
import Foundation
import Predicates

extension AttributeDescription.AttributeType {
    /// A value written as text in an Xcode model file (`defaultValueString`) as a constant of
    /// this type, or `nil` when the text does not fit the type: integers as `.integer`,
    /// `Decimal` as `.decimal`, floating point as `.double`, `YES`/`NO` (and `true`/`false`,
    /// `1`/`0`) as `.bool`, dates as seconds since 2001 (Xcode's `defaultDateTimeInterval`),
    /// UUIDs as `.uuid`, text as `.string` (strings, URIs, transformable and others).
    ///
    /// For the loader: a constant made here passes the model's default-value check.
    package func modelConstant(fromText text: String) -> KeyValueConstant? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch self {
        case .integer16, .integer32, .integer64:
            guard let value = Int64(trimmed) else { return nil }
            let constant = KeyValueConstant.integer(value)
            guard AttributeDescription(name: "", type: self).typedValue(from: constant) != nil else { return nil }
            return constant
        case .decimal:
            return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case .double, .float:
            guard let value = Double(trimmed) else { return nil }
            return .double(value)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return nil
            }
        case .date:
            return Double(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid:
            return UUID(uuidString: trimmed).map { .uuid($0) }
        case .uri:
            guard URL(string: text) != nil else { return nil }
            return .string(text)
        case .binaryData:
            return nil
        case .string, .transformable, .objectID, .composite, .undefined:
            return .string(text)
        }
    }

    /// The validation rules for Xcode's `minValueString` / `maxValueString` (and, for dates,
    /// `minDateTimeInterval` / `maxDateTimeInterval`): value bounds for numbers and dates, and
    /// length limits for strings and binary data, as Xcode uses the same two fields for both.
    ///
    /// - Returns: The rules, or `nil` when a text does not fit.
    package func validationRules(minimumText: String?, maximumText: String?) -> [AttributeValidationRule]? {
        var rules: [AttributeValidationRule] = []
        for (text, isMinimum) in [(minimumText, true), (maximumText, false)] {
            guard let text else { continue }
            if self == .string || self == .binaryData {
                guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else { return nil }
                rules.append(isMinimum ? .minimumLength(length) : .maximumLength(length))
            } else if isNumeric || self == .date {
                guard let bound = modelConstant(fromText: text) else { return nil }
                rules.append(isMinimum ? .minimumValue(bound) : .maximumValue(bound))
            } else {
                return nil
            }
        }
        return rules
    }
}
