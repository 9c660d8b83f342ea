// Short forms for writing models in code: `.attribute("name", .string)`, `.toMany(…)`.
import Foundation
import Predicates

extension PropertyDescription {
    /// An attribute, in one line.
    ///
    /// ```swift
    /// EntityDescription(name: "Movie", properties: [
    ///     .attribute("title", .string, isOptional: false),
    ///     .attribute("year", .integer16, defaultValue: 1999),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - type: The attribute type.
    ///   - isOptional: Whether it may be `nil` when saved (default `true`).
    ///   - isTransient: Whether it is never saved (default `false`).
    ///   - defaultValue: The value of new objects (default none).
    ///   - rules: Validation rules (default none).
    public static func attribute(_ name: String, _ type: AttributeDescription.AttributeType,
                                 isOptional: Bool = true, isTransient: Bool = false,
                                 defaultValue: KeyValueConstant? = nil,
                                 rules: [AttributeValidationRule] = []) -> PropertyDescription {
        var attribute = AttributeDescription(name: name, type: type, isOptional: isOptional,
                                             isTransient: isTransient, defaultValue: defaultValue)
        attribute.validationRules = rules
        return .attribute(attribute)
    }

    /// A to-one relationship, in one line.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - destination: The destination entity's name.
    ///   - inverse: The inverse relationship's name, or `nil`.
    ///   - deleteRule: The delete rule (default nullify).
    ///   - isOptional: Whether it may be empty when saved (default `true`).
    public static func toOne(_ name: String, _ destination: String, inverse: String?,
                             deleteRule: RelationshipDescription.DeleteRule = .nullify,
                             isOptional: Bool = true) -> PropertyDescription {
        .relationship(RelationshipDescription(name: name, destination: destination, inverse: inverse,
                                              cardinality: .toOne, deleteRule: deleteRule, isOptional: isOptional))
    }

    /// A to-many relationship (ordered or not), in one line.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - destination: The destination entity's name.
    ///   - inverse: The inverse relationship's name, or `nil`.
    ///   - ordered: Whether the related objects keep an order (default `false`).
    ///   - deleteRule: The delete rule (default nullify).
    ///   - minCount: The fewest related objects when saved (default 0: none).
    ///   - maxCount: The most related objects when saved (default 0: no limit).
    public static func toMany(_ name: String, _ destination: String, inverse: String?, ordered: Bool = false,
                              deleteRule: RelationshipDescription.DeleteRule = .nullify,
                              minCount: Int = 0, maxCount: Int = 0) -> PropertyDescription {
        var relationship = RelationshipDescription(name: name, destination: destination, inverse: inverse,
                                                   cardinality: ordered ? .orderedToMany : .toMany,
                                                   deleteRule: deleteRule)
        relationship.minCount = minCount
        relationship.maxCount = maxCount
        return .relationship(relationship)
    }
}
