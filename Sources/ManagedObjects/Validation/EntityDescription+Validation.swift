// Validating all of an object's values against its entity; uniqueness constraints.
import Foundation
import Predicates

extension EntityDescription {
    /// Checks a whole object's values, given by key, against every attribute and relationship
    /// of the entity, inherited ones included (Apple: the property checks of
    /// `validateForInsert()` / `validateForUpdate()`).
    ///
    /// A key missing from `values` counts as `nil`, so mandatory properties must be present.
    /// Fetched properties are not checked. A key that the entity does not have is an error
    /// (``ManagedObjectValidationError/Code/managedObjectValidation``). Take the entity from a
    /// ``ManagedObjectModel`` so that inherited properties are known.
    ///
    /// ```swift
    /// let movie = model.entity(named: "Movie")!
    /// try movie.validate(values: ["title": "Metropolis", "year": 1927])
    /// ```
    ///
    /// - Parameter values: The object's values by key; relationships as `nil`, one object, or
    ///   a collection.
    /// - Throws: ``ManagedObjectValidationError``: the single error, or one
    ///   ``ManagedObjectValidationError/Code/multipleErrors`` error holding every failure in
    ///   property order.
    /// - Complexity: O(*n*) in the number of properties, plus each value's own checks.
    public func validate(values: [String: Any?]) throws(ManagedObjectValidationError) {
        if let error = ManagedObjectValidationError.combining(validationErrors(forValues: values)) { throw error }
    }

    /// Every failure of ``validate(values:)``, one error each; empty when the values are valid.
    ///
    /// - Parameter values: The object's values by key.
    /// - Returns: The errors in property order, then errors for unknown keys (sorted).
    public func validationErrors(forValues values: [String: Any?]) -> [ManagedObjectValidationError] {
        var errors: [ManagedObjectValidationError] = []
        var known = Set<String>()
        for property in allProperties {
            known.insert(property.name)
            let value = values[property.name] ?? nil
            switch property {
            case .attribute(let attribute):
                errors += attribute.validationErrors(for: value, entity: name)
            case .relationship(let relationship):
                if let error = relationship.validationError(count: RelationshipDescription.count(of: value), entity: name) {
                    errors.append(error)
                }
            case .fetchedProperty:
                break
            }
        }
        for key in values.keys.sorted() where !known.contains(key) {
            errors.append(ManagedObjectValidationError(.managedObjectValidation, entity: name, key: key,
                                                       reason: "the entity has no property of this name"))
        }
        return errors
    }

    /// Checks the entity's uniqueness constraints across several objects' values: objects that
    /// share the values of every property of one constraint are in conflict (Apple:
    /// `NSManagedObjectConstraintValidationError`, 1551, found at save).
    ///
    /// Objects missing a value for a constrained property take part with `nil`.
    ///
    /// - Parameter objects: The values of each object, by key.
    /// - Throws: One ``ManagedObjectValidationError/Code/constraintValidation`` error per
    ///   conflicting group (combined when several), naming the constraint's keys and holding
    ///   the shared values.
    /// - Complexity: O(*n*) per constraint in the number of objects.
    public func validateUniqueness(of objects: [[String: Any?]]) throws(ManagedObjectValidationError) {
        var errors: [ManagedObjectValidationError] = []
        for constraint in uniquenessConstraints where !constraint.isEmpty {
            var seen: [KeyValueConstant: Int] = [:]
            var reported = Set<KeyValueConstant>()
            for (index, object) in objects.enumerated() {
                let key = KeyValueConstant.array(constraint.map { KeyValueConstant(unwrappedAttributeValue(object[$0] ?? nil)) })
                if let first = seen[key] {
                    if reported.insert(key).inserted {
                        errors.append(ManagedObjectValidationError(
                            .constraintValidation, entity: name, key: constraint.joined(separator: ","), value: key,
                            reason: "objects \(first) and \(index) share the values of the constraint (\(constraint.joined(separator: ", ")))"))
                    }
                } else {
                    seen[key] = index
                }
            }
        }
        if let error = ManagedObjectValidationError.combining(errors) { throw error }
    }
}
