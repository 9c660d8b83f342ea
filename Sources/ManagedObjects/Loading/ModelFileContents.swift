// What a model file holds once read, and where in the file each part was.
import Foundation

/// The descriptions read from one `contents` file, with the line of every entity, property,
/// constraint, index, template and configuration, so that an error found later (by the model's
/// checks) can name the line of its culprit.
struct ModelFileContents {
    /// The file named in errors and warnings.
    var file: String?
    /// Whether the `<model>` root was seen.
    var sawModel = false
    var entities: [EntityDescription] = []
    var configurations: [String: [String]] = [:]
    var templates: [String: EntityFetchRequest] = [:]
    /// `userDefinedModelVersionIdentifier`, kept as Apple keeps it: absent gives no
    /// identifier, an empty string gives the identifier `""`.
    var versionIdentifiers: Set<String> = []
    var warnings: [ManagedObjectModelWarning] = []
    /// Composite attribute declarations by name (Xcode 15).
    var composites: [String: [AttributeDescription]] = [:]
    /// Attributes that name a composite: entity index, property index, composite name, line.
    var compositeUses: [(entity: Int, property: Int, composite: String, line: Int)] = []

    // Lines, parallel to the arrays above (entities[i] ↔ entityLines[i] and so on).
    var entityLines: [Int] = []
    var propertyLines: [[Int]] = []
    var constraintLines: [[[Int]]] = []
    var indexLines: [[Int]] = []
    var templateLines: [String: Int] = [:]
    var configurationLines: [String: Int] = [:]
    var memberLines: [String: [Int]] = [:]

    init(file: String?) {
        self.file = file
    }

    /// `error` with this file and the line of the entity, property, constraint, index,
    /// template or configuration it names (when it has no line yet).
    func locate(_ error: ManagedObjectModelError) -> ManagedObjectModelError {
        var located = error
        located.file = located.file ?? file
        if located.line == nil { located.line = line(of: error) }
        return located
    }

    private func line(of error: ManagedObjectModelError) -> Int? {
        guard let entityName = error.entity else {
            guard let property = error.property else { return nil }
            if let name = property.dropping(prefix: "fetch request template ") { return templateLines[name] }
            if let name = property.dropping(prefix: "configuration ") {
                if case .unknownEntity(let member) = error.code, let members = configurations[name],
                   let i = members.firstIndex(of: member), let lines = memberLines[name], i < lines.count {
                    return lines[i]
                }
                return configurationLines[name]
            }
            return nil
        }
        // A duplicate is reported at its second occurrence.
        let found = error.code == .duplicateEntity
            ? entities.lastIndex { $0.name == entityName } : entities.firstIndex { $0.name == entityName }
        guard let e = found else { return nil }
        if let property = error.property {
            if let indexName = property.dropping(prefix: "index "),
               let i = entities[e].indexes.lastIndex(where: { $0.name == indexName }) {
                return indexLines[e][i]
            }
            return declarationLine(of: property, from: e, duplicate: error.code == .duplicateProperty) ?? entityLines[e]
        }
        if case .unknownProperty(let name) = error.code {
            for (c, constraint) in entities[e].uniquenessConstraints.enumerated() {
                if let v = constraint.firstIndex(of: name) { return constraintLines[e][c][v] }
            }
        }
        return entityLines[e]
    }

    /// The line declaring `property` on entity `e` or its nearest ancestor that declares it
    /// (the last declaration on that entity for a duplicate).
    private func declarationLine(of property: String, from e: Int, duplicate: Bool) -> Int? {
        var current: Int? = e
        var steps = 0
        while let c = current, steps <= entities.count {
            let properties = entities[c].properties
            let found = duplicate ? properties.lastIndex { $0.name == property } : properties.firstIndex { $0.name == property }
            if let p = found { return propertyLines[c][p] }
            current = entities[c].parentName.flatMap { parent in entities.firstIndex { $0.name == parent } }
            steps += 1
        }
        return nil
    }
}

extension String {
    /// The rest of the string after `prefix`, or `nil` when it does not start with it.
    fileprivate func dropping(prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
