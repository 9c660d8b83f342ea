// Validation errors of managed objects: Apple's codes, the entity, the key and the value.
import Foundation
import Predicates

/// A value that breaks a rule of the model: a missing mandatory property, a number out of
/// range, a string too long, a relationship with too few objects… (Apple: the `NSError`s of
/// `NSCocoaErrorDomain` with codes 1550–1690 that Core Data's validation produces).
///
/// The ``code`` has Apple's integer error codes as raw values, so code that checks
/// `error.code.rawValue == 1570` (Apple: `NSValidationMissingMandatoryPropertyError`) reads the
/// same here. The error names the entity and key (Apple: `NSValidationKeyErrorKey`), holds the
/// offending value (Apple: `NSValidationValueErrorKey`) and, once a context validates an object,
/// a description of the object (Apple: `NSValidationObjectErrorKey`). Several failures travel
/// as one error with the code ``Code/multipleErrors`` whose ``underlyingErrors`` hold them
/// (Apple: `NSValidationMultipleErrorsError` with `NSDetailedErrorsKey`).
///
/// ```swift
/// do {
///     try title.validate("")
/// } catch {
///     error.code            // .stringTooShort
///     error.code.rawValue   // 1670
///     error.key             // "title"
/// }
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct ManagedObjectValidationError: Error, Sendable, Hashable {
    /// What was wrong; the raw values are Apple's Core Data error codes.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// A value of the wrong type, or another failure without a code of its own
        /// (Apple: `NSManagedObjectValidationError`, 1550).
        case managedObjectValidation = 1550
        /// A uniqueness constraint is broken (Apple: `NSManagedObjectConstraintValidationError`,
        /// 1551).
        case constraintValidation = 1551
        /// Several errors, in ``ManagedObjectValidationError/underlyingErrors``
        /// (Apple: `NSValidationMultipleErrorsError`, 1560).
        case multipleErrors = 1560
        /// A non-optional property is `nil` (Apple: `NSValidationMissingMandatoryPropertyError`,
        /// 1570).
        case missingMandatoryProperty = 1570
        /// A to-many relationship holds fewer objects than its minimum count
        /// (Apple: `NSValidationRelationshipLacksMinimumCountError`, 1580).
        case relationshipLacksMinimumCount = 1580
        /// A to-many relationship holds more objects than its maximum count
        /// (Apple: `NSValidationRelationshipExceedsMaximumCountError`, 1590).
        case relationshipExceedsMaximumCount = 1590
        /// A delete is refused by a deny delete rule while related objects exist
        /// (Apple: `NSValidationRelationshipDeniedDeleteError`, 1600).
        case relationshipDeniedDelete = 1600
        /// A number above the maximum, or too large for the attribute's integer type
        /// (Apple: `NSValidationNumberTooLargeError`, 1610).
        case numberTooLarge = 1610
        /// A number below the minimum, or too small for the attribute's integer type
        /// (Apple: `NSValidationNumberTooSmallError`, 1620).
        case numberTooSmall = 1620
        /// A date after the maximum (Apple: `NSValidationDateTooLateError`, 1630).
        case dateTooLate = 1630
        /// A date before the minimum (Apple: `NSValidationDateTooSoonError`, 1640).
        case dateTooSoon = 1640
        /// A date that is not a point in time (not finite) (Apple: `NSValidationInvalidDateError`,
        /// 1650).
        case invalidDate = 1650
        /// A string (or data) longer than the maximum length
        /// (Apple: `NSValidationStringTooLongError`, 1660).
        case stringTooLong = 1660
        /// A string (or data) shorter than the minimum length
        /// (Apple: `NSValidationStringTooShortError`, 1670).
        case stringTooShort = 1670
        /// A string that does not match the attribute's regular expression
        /// (Apple: `NSValidationStringPatternMatchingError`, 1680).
        case stringPatternMatching = 1680
        /// A URI attribute given text that is not a URI (Apple: `NSValidationInvalidURIError`,
        /// 1690).
        case invalidURI = 1690

        /// Apple's constant name for the code, such as `"NSValidationStringTooLongError"`.
        public var appleName: String {
            switch self {
            case .managedObjectValidation: return "NSManagedObjectValidationError"
            case .constraintValidation: return "NSManagedObjectConstraintValidationError"
            case .multipleErrors: return "NSValidationMultipleErrorsError"
            case .missingMandatoryProperty: return "NSValidationMissingMandatoryPropertyError"
            case .relationshipLacksMinimumCount: return "NSValidationRelationshipLacksMinimumCountError"
            case .relationshipExceedsMaximumCount: return "NSValidationRelationshipExceedsMaximumCountError"
            case .relationshipDeniedDelete: return "NSValidationRelationshipDeniedDeleteError"
            case .numberTooLarge: return "NSValidationNumberTooLargeError"
            case .numberTooSmall: return "NSValidationNumberTooSmallError"
            case .dateTooLate: return "NSValidationDateTooLateError"
            case .dateTooSoon: return "NSValidationDateTooSoonError"
            case .invalidDate: return "NSValidationInvalidDateError"
            case .stringTooLong: return "NSValidationStringTooLongError"
            case .stringTooShort: return "NSValidationStringTooShortError"
            case .stringPatternMatching: return "NSValidationStringPatternMatchingError"
            case .invalidURI: return "NSValidationInvalidURIError"
            }
        }
    }

    /// What was wrong.
    public var code: Code
    /// The entity whose rule was broken, if known.
    public var entity: String?
    /// The property (key) whose rule was broken (Apple: `NSValidationKeyErrorKey`).
    public var key: String?
    /// The offending value (Apple: `NSValidationValueErrorKey`); `nil` when there is none
    /// (a missing value, or a multiple-errors error).
    public var value: KeyValueConstant?
    /// The object that failed, as text (its object ID's URI once the context layer attaches
    /// it; Apple: `NSValidationObjectErrorKey`). `Sendable`, unlike the object.
    public var objectDescription: String?
    /// What the rule demanded, in words (`"at most 10"`, `"matching ^[a-z]+$"`), or `nil`.
    public var reason: String?
    /// For ``Code/multipleErrors``: the errors collected (Apple: `NSDetailedErrorsKey`);
    /// empty otherwise.
    public var underlyingErrors: [ManagedObjectValidationError]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What was wrong.
    ///   - entity: The entity's name.
    ///   - key: The property's name.
    ///   - value: The offending value.
    ///   - reason: What the rule demanded, in words.
    ///   - objectDescription: The failing object, as text.
    public init(_ code: Code, entity: String? = nil, key: String? = nil, value: KeyValueConstant? = nil,
                reason: String? = nil, objectDescription: String? = nil) {
        self.code = code
        self.entity = entity
        self.key = key
        self.value = value
        self.reason = reason
        self.objectDescription = objectDescription
        self.underlyingErrors = []
    }

    /// One error for several: `nil` for none, the error itself for one, and a
    /// ``Code/multipleErrors`` error holding them for more (as Core Data reports them).
    /// Nested multiple-errors errors are flattened.
    ///
    /// - Parameter errors: The errors found.
    /// - Returns: The error to throw, or `nil` when `errors` is empty.
    public static func combining(_ errors: [ManagedObjectValidationError]) -> ManagedObjectValidationError? {
        let flat = errors.flatMap(\.errors)
        guard let first = flat.first else { return nil }
        if flat.count == 1 { return first }
        var combined = ManagedObjectValidationError(.multipleErrors)
        combined.underlyingErrors = flat
        let entities = Set(flat.compactMap(\.entity))
        if entities.count == 1 { combined.entity = entities.first }
        let objects = Set(flat.compactMap(\.objectDescription))
        if objects.count == 1 { combined.objectDescription = objects.first }
        return combined
    }

    /// The single errors this error stands for: ``underlyingErrors`` for a multiple-errors
    /// error, otherwise the error itself.
    public var errors: [ManagedObjectValidationError] {
        code == .multipleErrors ? underlyingErrors.flatMap(\.errors) : [self]
    }

    /// A copy with ``objectDescription`` set on it and on every underlying error (used by the
    /// context layer to attach the failing object).
    ///
    /// - Parameter description: The object's description, such as its URI.
    /// - Returns: The error naming the object.
    public func attributed(toObject description: String) -> ManagedObjectValidationError {
        var copy = self
        copy.objectDescription = description
        copy.underlyingErrors = underlyingErrors.map { $0.attributed(toObject: description) }
        return copy
    }
}

extension ManagedObjectValidationError: CustomStringConvertible, LocalizedError {
    /// A sentence naming the object, entity and key, the problem, the value and Apple's code.
    public var description: String {
        if code == .multipleErrors {
            let parts = underlyingErrors.map(\.description)
            return "\(parts.count) validation errors: " + parts.joined(separator: "; ")
        }
        var place: [String] = []
        if let objectDescription { place.append("object \(objectDescription)") }
        switch (entity, key) {
        case let (entity?, key?): place.append("\(entity).\(key)")
        case let (entity?, nil): place.append("entity '\(entity)'")
        case let (nil, key?): place.append("'\(key)'")
        case (nil, nil): break
        }
        var text = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        text += problem
        if let reason { text += " (\(reason))" }
        if let value, code != .missingMandatoryProperty, code != .relationshipDeniedDelete { text += "; value: \(Self.describe(value))" }
        return text + " [\(code.appleName) \(code.rawValue)]"
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    private var problem: String {
        switch code {
        case .managedObjectValidation: return "the value is not valid"
        case .constraintValidation: return "another object has the same values for a uniqueness constraint"
        case .multipleErrors: return "several validation errors"
        case .missingMandatoryProperty: return "a value is required"
        case .relationshipLacksMinimumCount: return "too few related objects"
        case .relationshipExceedsMaximumCount: return "too many related objects"
        case .relationshipDeniedDelete:
            return "the delete rule denies deleting an object with related objects (remove or reassign them "
                + "first, or undo the delete or roll back)"
        case .numberTooLarge: return "the number is too large"
        case .numberTooSmall: return "the number is too small"
        case .dateTooLate: return "the date is too late"
        case .dateTooSoon: return "the date is too soon"
        case .invalidDate: return "the date is not valid"
        case .stringTooLong: return "the value is too long"
        case .stringTooShort: return "the value is too short"
        case .stringPatternMatching: return "the text does not match the required pattern"
        case .invalidURI: return "the value is not a valid URI"
        }
    }

    private static func describe(_ value: KeyValueConstant) -> String {
        let text: String
        if case .string(let s) = value {
            text = "\"\(s)\""
        } else if case .date(let date) = value {
            text = printableDate(date)
        } else {
            text = String(describing: value.anyValue ?? "nil")
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
