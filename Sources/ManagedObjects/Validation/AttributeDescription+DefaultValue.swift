// Default values: a model constant turned into the attribute's Swift type, checked at build.
import Foundation
import Predicates

extension AttributeDescription {
    /// The value a newly inserted object starts with: ``defaultValue`` as the attribute's
    /// Swift type (`Int16`, `Int32`, `Int64`, `Decimal`, `Double`, `Float`, `String`, `Bool`,
    /// `Date`, `Data`, `UUID`, `URL`), or `nil` when there is no default (Apple: the
    /// `defaultValue` a new object's attribute gets in `awakeFromInsert`).
    ///
    /// Dates may be given as a number of seconds since 2001-01-01 (as Xcode writes them), UUIDs
    /// and URLs as text. Transformable, object-ID, composite and undefined attributes get the
    /// constant's plain value. A model built by ``ManagedObjectModel`` has rejected defaults
    /// that do not fit; for a default that does not fit (outside a model) this is `nil`.
    ///
    /// ```swift
    /// let year = AttributeDescription(name: "year", type: .integer16, defaultValue: 1999)
    /// year.defaultValueForNewObject as? Int16   // 1999
    /// ```
    public var defaultValueForNewObject: Any? {
        guard let defaultValue else { return nil }
        return typedValue(from: defaultValue) ?? nil
    }

    /// `constant` as the attribute's Swift type: `.some(nil)` for `.null`, `nil` when it does
    /// not fit the type.
    func typedValue(from constant: KeyValueConstant) -> Any?? {
        guard let scalar = AttributeScalar(constant: constant) else { return .some(nil) }
        switch attributeType {
        case .integer16: return scalar.exactInteger.flatMap { Int16(exactly: $0) }.map { $0 as Any }
        case .integer32: return scalar.exactInteger.flatMap { Int32(exactly: $0) }.map { $0 as Any }
        case .integer64: return scalar.exactInteger.map { $0 as Any }
        case .decimal: return scalar.decimalValue.map { $0 as Any }
        case .double:
            guard scalar.isNumber, let d = scalar.doubleValue else { return nil }
            return d
        case .float:
            guard scalar.isNumber, let d = scalar.doubleValue,
                  !d.isFinite || abs(d) <= Double(Float.greatestFiniteMagnitude) else { return nil }
            return Float(d)
        case .string:
            if case .string(let s) = scalar { return s }
            return nil
        case .boolean:
            switch scalar {
            case .bool(let b): return b
            case .integer(let i) where i == 0 || i == 1: return i == 1
            default: return nil
            }
        case .date:
            guard scalar.isNumber || isDate(scalar), let date = scalar.dateValue else { return nil }
            return date
        case .binaryData:
            if case .data(let d) = scalar { return d }
            return nil
        case .uuid:
            switch scalar {
            case .uuid(let u): return u
            case .string(let s): return UUID(uuidString: s).map { $0 as Any }
            default: return nil
            }
        case .uri:
            switch scalar {
            case .url(let u): return u
            case .string(let s): return URL(string: s).map { $0 as Any }
            default: return nil
            }
        case .transformable, .objectID, .composite, .undefined:
            return .some(constant.anyValue)
        }
    }

    private func isDate(_ scalar: AttributeScalar) -> Bool {
        if case .date = scalar { return true }
        return false
    }

    /// Checks what the model says about the attribute's values: the default value fits the
    /// type; value bounds are numbers (or dates) on numeric (or date) attributes; length
    /// limits are non-negative, on string or binary attributes; a regular expression compiles,
    /// on a string attribute; a minimum is not above its maximum; a derivation expression
    ///
    /// parses and reads only keys of the entity.
    ///
    /// - Parameters:
    ///   - entity: The entity's name, for the error.
    ///   - propertyNames: Every property name of the entity (inherited ones included), or `nil`
    ///     to skip the check of a derivation's keys.
    /// - Throws: ``ManagedObjectModelError/Code/invalidValue(_:)``,
    ///   ``ManagedObjectModelError/Code/invalidPredicate(_:)`` or
    ///   ``ManagedObjectModelError/Code/unknownProperty(_:)`` naming the entity and attribute.
    func checkModelValues(entity: String, propertyNames: Set<String>? = nil) throws(ManagedObjectModelError) {
        func invalid(_ text: String) -> ManagedObjectModelError {
            ManagedObjectModelError(.invalidValue(text), entity: entity, property: name)
        }
        if let defaultValue, typedValue(from: defaultValue) == nil {
            throw invalid("default value \(String(describing: defaultValue.anyValue ?? "nil")) for a \(attributeType.rawValue) attribute")
        }
        var minimum: AttributeScalar?
        var maximum: AttributeScalar?
        var lengths: (min: Int?, max: Int?) = (nil, nil)
        for rule in validationRules {
            switch rule {
            case .minimumValue(let bound), .maximumValue(let bound):
                let text = String(describing: bound.anyValue ?? "nil")
                guard let scalar = AttributeScalar(constant: bound),
                      attributeType == .date ? scalar.dateValue != nil : (attributeType.isNumeric && scalar.isNumber) else {
                    throw invalid("bound \(text) for a \(attributeType.rawValue) attribute")
                }
                if attributeType.isInteger, typedValue(from: bound) == nil {
                    throw invalid("bound \(text) beyond the range of \(attributeType.valueType)")
                }
                if case .minimumValue = rule { minimum = scalar } else { maximum = scalar }
            case .minimumLength(let limit), .maximumLength(let limit):
                guard attributeType == .string || attributeType == .binaryData, limit >= 0 else {
                    throw invalid("length limit \(limit) for a \(attributeType.rawValue) attribute")
                }
                if case .minimumLength = rule { lengths.min = limit } else { lengths.max = limit }
            case .regularExpression(let pattern):
                guard attributeType == .string else {
                    throw invalid("regular expression \(pattern) for a \(attributeType.rawValue) attribute")
                }
                do {
                    _ = try ValidationPatterns.matches("", pattern)
                } catch {
                    throw invalid("regular expression \(pattern) (\(error))")
                }
            }
        }
        if let minimum, let maximum {
            let inverted: Bool
            if attributeType == .date, let a = minimum.dateValue, let b = maximum.dateValue {
                inverted = a > b
            } else {
                inverted = (AttributeScalar.compareNumbers(minimum, maximum) ?? 0) > 0
            }
            if inverted { throw invalid("minimum above maximum") }
        }
        if let low = lengths.min, let high = lengths.max, low > high {
            throw invalid("minimum length \(low) above maximum length \(high)")
        }
        if let derivationExpression {
            let parsed: DerivationExpression
            do {
                parsed = try DerivationExpression(derivationExpression)
            } catch {
                throw ManagedObjectModelError(.invalidPredicate(error.message), entity: entity, property: name)
            }
            // Apple: the key paths must be reachable from the entity.
            if let propertyNames {
                for key in parsed.rootKeys where !propertyNames.contains(key) {
                    throw ManagedObjectModelError(.unknownProperty(key), entity: entity, property: name)
                }
            }
        }
    }
}
