// Validating a relationship's value: mandatory, minimum and maximum count, deny delete rule.
import Foundation
import Predicates

extension RelationshipDescription {
    /// Checks how many objects the relationship holds against its optionality and its minimum
    /// and maximum counts (Apple: the relationship part of `validateValue(_:forKey:)`).
    ///
    /// An empty optional relationship is valid whatever its minimum count, as in Core Data. An
    /// empty mandatory one fails with ``ManagedObjectValidationError/Code/relationshipLacksMinimumCount``
    /// when it has a minimum count, else with ``ManagedObjectValidationError/Code/missingMandatoryProperty``.
    /// Fewer objects than ``minCount`` → `relationshipLacksMinimumCount` (1580); more than
    /// ``maxCount`` (when not 0) → `relationshipExceedsMaximumCount` (1590).
    ///
    /// - Parameters:
    ///   - count: The number of related objects (0 or 1 for a to-one relationship).
    ///   - entity: The entity's name, reported in the error.
    /// - Throws: ``ManagedObjectValidationError`` naming the entity and the key.
    public func validate(count: Int, entity: String? = nil) throws(ManagedObjectValidationError) {
        if let error = validationError(count: count, entity: entity) { throw error }
    }

    /// Checks a relationship value: `nil` or a single object for a to-one relationship, a
    /// collection (array, set, `NSSet`, `NSOrderedSet`, any `Collection`) for a to-many one.
    /// See ``validate(count:entity:)``.
    ///
    /// - Parameters:
    ///   - value: The related object or objects; `nil` and `NSNull` count as none.
    ///   - entity: The entity's name, reported in the error.
    /// - Throws: ``ManagedObjectValidationError``.
    public func validate(_ value: Any?, entity: String? = nil) throws(ManagedObjectValidationError) {
        if let error = validationError(count: Self.count(of: value), entity: entity) { throw error }
    }

    /// Checks that deleting an object is allowed: a deny delete rule refuses it while the
    /// relationship holds objects (Apple: `NSValidationRelationshipDeniedDeleteError`, raised by
    /// `validateForDelete()`).
    ///
    /// - Parameters:
    ///   - relatedCount: The number of objects the relationship holds.
    ///   - entity: The entity's name, reported in the error.
    /// - Throws: ``ManagedObjectValidationError/Code/relationshipDeniedDelete``.
    public func validateForDelete(relatedCount: Int, entity: String? = nil) throws(ManagedObjectValidationError) {
        if deleteRule == .deny && relatedCount > 0 {
            throw ManagedObjectValidationError(.relationshipDeniedDelete, entity: entity, key: name,
                                               value: .integer(Int64(relatedCount)),
                                               reason: "\(relatedCount) related object(s) under a deny rule")
        }
    }

    /// The error for `count` related objects, or `nil`.
    func validationError(count: Int, entity: String?) -> ManagedObjectValidationError? {
        func error(_ code: ManagedObjectValidationError.Code, _ reason: String?) -> ManagedObjectValidationError {
            ManagedObjectValidationError(code, entity: entity, key: name,
                                         value: count == 0 ? Optional<KeyValueConstant>.none : .integer(Int64(count)), reason: reason)
        }
        if count == 0 {
            if isOptional { return nil }
            return minCount > 0 ? error(.relationshipLacksMinimumCount, "at least \(minCount), found 0")
                                : error(.missingMandatoryProperty, nil)
        }
        if minCount > 0 && count < minCount {
            return error(.relationshipLacksMinimumCount, "at least \(minCount), found \(count)")
        }
        if maxCount > 0 && count > maxCount {
            return error(.relationshipExceedsMaximumCount, "at most \(maxCount), found \(count)")
        }
        return nil
    }

    /// The number of objects in a relationship value.
    static func count(of value: Any?) -> Int {
        guard let value = unwrappedAttributeValue(value) else { return 0 }
        switch value {
        case let set as NSSet: return set.count
        case let ordered as NSOrderedSet: return ordered.count
        case let array as NSArray: return array.count
        case let collection as any Collection: return collection.count
        default: return 1
        }
    }
}
