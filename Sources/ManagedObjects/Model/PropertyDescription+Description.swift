// Short printed forms of descriptions: `title: String?`, `movies: → Movie (to-many, cascade)`.
import Foundation

extension AttributeDescription: CustomStringConvertible {
    /// `name: Type`, with `?` when optional and the flags that matter (transient, derived,
    /// default value).
    public var description: String {
        var text = "\(name): \(attributeType.rawValue)\(isOptional ? "?" : "")"
        var notes: [String] = []
        if isTransient { notes.append("transient") }
        if let derivationExpression { notes.append("derived \(derivationExpression)") }
        if let value = defaultValue?.anyValue { notes.append("default \(value)") }
        if !notes.isEmpty { text += " (\(notes.joined(separator: ", ")))" }
        return text
    }
}

extension RelationshipDescription: CustomStringConvertible {
    /// `name: → Destination (to-many, cascade, inverse other)`.
    public var description: String {
        let cardinality: String
        switch self.cardinality {
        case .toOne: cardinality = "to-one"
        case .toMany: cardinality = "to-many"
        case .orderedToMany: cardinality = "ordered to-many"
        }
        var notes = [cardinality, deleteRule.rawValue.lowercased()]
        notes.append(inverseName.map { "inverse \($0)" } ?? "no inverse")
        if !isOptional { notes.append("required") }
        if isTransient { notes.append("transient") }
        return "\(name): → \(destinationEntityName) (\(notes.joined(separator: ", ")))"
    }
}

extension FetchedPropertyDescription: CustomStringConvertible {
    /// `name: fetched Entity`.
    public var description: String { "\(name): fetched \(fetchRequest.entityName)" }
}

extension PropertyDescription: CustomStringConvertible {
    /// The description of the attribute, relationship or fetched property.
    public var description: String {
        switch self {
        case .attribute(let attribute): return attribute.description
        case .relationship(let relationship): return relationship.description
        case .fetchedProperty(let fetched): return fetched.description
        }
    }
}

extension EntityDescription: CustomStringConvertible {
    /// `Name : Parent (abstract) { property; property… }` with every property, inherited ones
    /// included.
    public var description: String {
        var head = name
        if let parentName { head += " : \(parentName)" }
        if isAbstract { head += " (abstract)" }
        return "\(head) { \(allProperties.map(\.description).joined(separator: "; ")) }"
    }
}
