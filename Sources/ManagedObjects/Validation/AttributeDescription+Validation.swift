// Validating one attribute value: mandatory, type, range, length, pattern (Apple's codes).
import Foundation
import Predicates

extension AttributeDescription {
    /// Checks `value` against the attribute: present when mandatory, of the attribute's type,
    /// and within its ``validationRules`` (Apple: the property-level part of
    /// `NSManagedObject.validateValue(_:forKey:)`).
    ///
    /// The checks and their codes: `nil` (or `NSNull`) for a non-optional attribute →
    /// ``ManagedObjectValidationError/Code/missingMandatoryProperty``; a value of the wrong type
    /// → ``ManagedObjectValidationError/Code/managedObjectValidation`` (any Swift integer, or an
    /// integer `NSNumber`, is accepted for integer attributes when it fits the width, otherwise
    /// ``ManagedObjectValidationError/Code/numberTooLarge`` / `numberTooSmall`); numbers beyond
    /// the minimum or maximum → `numberTooSmall` / `numberTooLarge`; dates → `dateTooSoon` /
    /// `dateTooLate`; strings (counted in characters) and binary data (in bytes) beyond the
    /// length limits → `stringTooShort` / `stringTooLong`; a string that does not match the
    /// regular expression as a whole → `stringPatternMatching`. Several failures are thrown as
    /// one ``ManagedObjectValidationError/Code/multipleErrors`` error.
    ///
    /// ```swift
    /// var year = AttributeDescription(name: "year", type: .integer16)
    /// year.validationRules = [.minimumValue(1888)]
    /// try year.validate(1999)      // passes
    /// try year.validate(1700)      // throws .numberTooSmall (1620)
    /// try year.validate(70_000)    // throws .numberTooLarge (1610): beyond Int16
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value; `nil`, a nested `nil` optional and `NSNull` count as no value.
    ///   - entity: The entity's name, reported in the error.
    /// - Throws: ``ManagedObjectValidationError`` naming the entity, the key and the value.
    /// - Complexity: O(*n*) in the length of a string or data value; a regular expression
    ///   costs what the pattern costs.
    /// - Important: Thread safety: a pure function of its arguments.
    public func validate(_ value: Any?, entity: String? = nil) throws(ManagedObjectValidationError) {
        if let error = ManagedObjectValidationError.combining(validationErrors(for: value, entity: entity)) {
            throw error
        }
    }

    /// Every rule that `value` breaks, one error each; empty when it is valid. See
    /// ``validate(_:entity:)``.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - entity: The entity's name, reported in the errors.
    /// - Returns: The errors, in rule order.
    public func validationErrors(for value: Any?, entity: String? = nil) -> [ManagedObjectValidationError] {
        func error(_ code: ManagedObjectValidationError.Code, _ value: Any?, _ reason: String? = nil) -> ManagedObjectValidationError {
            ManagedObjectValidationError(code, entity: entity, key: name, value: value.map { KeyValueConstant($0) },
                                         reason: reason)
        }
        guard let value = unwrappedAttributeValue(value) else {
            return isOptional ? [] : [error(.missingMandatoryProperty, nil)]
        }
        let scalar = AttributeScalar(value)
        if let problem = typeProblem(of: scalar) {
            return [error(problem.code, value, problem.reason)]
        }
        var errors: [ManagedObjectValidationError] = []
        for rule in validationRules {
            if let problem = ruleProblem(rule, scalar) { errors.append(error(problem.code, value, problem.reason)) }
        }
        return errors
    }

    private typealias Problem = (code: ManagedObjectValidationError.Code, reason: String)

    /// Whether the value has the attribute's type (and fits an integer width).
    private func typeProblem(of scalar: AttributeScalar) -> Problem? {
        // Made only for a value that fails: the message costs more than the checks.
        func wrongType() -> Problem {
            (.managedObjectValidation, "expected a value of type \(attributeType.valueType) for a \(attributeType.rawValue) attribute")
        }
        switch attributeType {
        case .integer16: return integerProblem(scalar, Int64(Int16.min), Int64(Int16.max))
        case .integer32: return integerProblem(scalar, Int64(Int32.min), Int64(Int32.max))
        case .integer64: return integerProblem(scalar, Int64.min, Int64.max)
        case .decimal, .double:
            guard scalar.isNumber else { return wrongType() }
            if attributeType == .decimal, scalar.decimalValue == nil { return (.managedObjectValidation, "not a finite number") }
            return nil
        case .float:
            guard scalar.isNumber, let d = scalar.doubleValue else { return wrongType() }
            if d.isFinite && d > Double(Float.greatestFiniteMagnitude) { return (.numberTooLarge, "beyond the range of Float") }
            if d.isFinite && d < -Double(Float.greatestFiniteMagnitude) { return (.numberTooSmall, "beyond the range of Float") }
            return nil
        case .string:
            if case .string = scalar { return nil }
            return wrongType()
        case .boolean:
            if case .bool = scalar { return nil }
            return wrongType()
        case .date:
            guard case .date(let date) = scalar else { return wrongType() }
            return date.timeIntervalSinceReferenceDate.isFinite ? nil : (.invalidDate, "not a finite point in time")
        case .binaryData:
            if case .data = scalar { return nil }
            return wrongType()
        case .uuid:
            if case .uuid = scalar { return nil }
            return wrongType()
        case .uri:
            if case .url = scalar { return nil }
            if case .string(let text) = scalar, URL(string: text) == nil { return (.invalidURI, "not a URI") }
            return wrongType()
        case .transformable, .objectID, .composite, .undefined:
            return nil
        }
    }

    private func integerProblem(_ scalar: AttributeScalar, _ minimum: Int64, _ maximum: Int64) -> Problem? {
        func range() -> String { "the range of \(attributeType.valueType) is \(minimum)...\(maximum)" }
        switch scalar {
        case .integer(let v):
            if v > maximum { return (.numberTooLarge, range()) }
            if v < minimum { return (.numberTooSmall, range()) }
            return nil
        case .largeUnsigned: return (.numberTooLarge, range())
        default:
            return (.managedObjectValidation, "expected an integer for a \(attributeType.rawValue) attribute")
        }
    }

    /// The problem `scalar` has with `rule`, or `nil`.
    private func ruleProblem(_ rule: AttributeValidationRule, _ scalar: AttributeScalar) -> Problem? {
        switch rule {
        case .minimumValue(let bound), .maximumValue(let bound):
            let isMinimum: Bool
            if case .minimumValue = rule { isMinimum = true } else { isMinimum = false }
            return boundProblem(scalar, bound, isMinimum: isMinimum)
        case .minimumLength(let limit), .maximumLength(let limit):
            let length: Int
            switch scalar {
            case .string(let s): length = s.count
            case .data(let d): length = d.count
            default: return nil
            }
            if case .minimumLength = rule {
                return length < limit ? (.stringTooShort, "at least \(limit), found \(length)") : nil
            }
            return length > limit ? (.stringTooLong, "at most \(limit), found \(length)") : nil
        case .regularExpression(let pattern):
            guard case .string(let text) = scalar else { return nil }
            do {
                return try ValidationPatterns.matches(text, pattern) ? nil : (.stringPatternMatching, "matching \(pattern)")
            } catch {
                return (.managedObjectValidation, "the regular expression \(pattern) cannot be used: \(error)")
            }
        }
    }

    private func boundProblem(_ scalar: AttributeScalar, _ bound: KeyValueConstant, isMinimum: Bool) -> Problem? {
        guard let limit = AttributeScalar(constant: bound) else { return nil }
        if attributeType == .date {
            guard case .date(let date) = scalar, let limitDate = limit.dateValue else { return nil }
            if isMinimum, date < limitDate { return (.dateTooSoon, "not before \(limitDate)") }
            if !isMinimum, date > limitDate { return (.dateTooLate, "not after \(limitDate)") }
            return nil
        }
        guard attributeType.isNumeric, let order = AttributeScalar.compareNumbers(scalar, limit) else { return nil }
        let text = String(describing: bound.anyValue ?? "nil")
        if isMinimum, order < 0 { return (.numberTooSmall, "at least \(text)") }
        if !isMinimum, order > 0 { return (.numberTooLarge, "at most \(text)") }
        return nil
    }
}
