// Merged models: the union of several models' entities, configurations and templates.
import Foundation

extension ManagedObjectModel {
    /// A new model holding every entity, configuration, fetch request template and version
    /// identifier of `models` (Apple: `NSManagedObjectModel.mergedModel(from:)` and
    /// `init(byMerging:)`).
    ///
    /// The entities are resolved again as one model: relationships, inverses and parents are
    /// looked up by name in the merged model and checked together. A configuration named in
    /// several models holds the members of all of them. The merged model is editable, whatever
    /// the state of its sources; the sources are not changed.
    ///
    /// ```swift
    /// let merged = try ManagedObjectModel.mergedModel(from: [catalog, accounts])
    /// ```
    ///
    /// - Parameter models: The models to merge, in order (entities keep that order).
    /// - Returns: The merged model.
    /// - Throws: ``ManagedObjectModelError/Code/duplicateEntity`` naming an entity that two
    ///   models both have; ``ManagedObjectModelError/Code/duplicateTemplate(_:)`` for a fetch
    ///   request template name in two models; otherwise the checks of
    ///   ``init(entities:configurations:fetchRequestTemplates:versionIdentifiers:)``.
    /// - Complexity: O(*n*) in the total number of properties.
    public static func mergedModel(from models: [ManagedObjectModel]) throws(ManagedObjectModelError) -> ManagedObjectModel {
        var entities: [EntityDescription] = []
        var owner: [String: Int] = [:]
        var configurations: [String: [String]] = [:]
        var templates: [String: EntityFetchRequest] = [:]
        var versionIdentifiers = Set<String>()
        var loadWarnings: [ManagedObjectModelWarning] = []
        for (index, model) in models.enumerated() {
            for entity in model.entities {
                if let first = owner[entity.name] {
                    throw ManagedObjectModelError(.duplicateEntity, entity: entity.name,
                                                  property: "in models \(first + 1) and \(index + 1) of the merge")
                }
                owner[entity.name] = index
                entities.append(entity.declared)
            }
            for name in model.configurations {
                var members = configurations[name] ?? []
                for member in model.entities(forConfiguration: name)?.map(\.name) ?? [] where !members.contains(member) {
                    members.append(member)
                }
                configurations[name] = members
            }
            for (name, template) in model.fetchRequestTemplatesByName {
                guard templates[name] == nil else { throw ManagedObjectModelError(.duplicateTemplate(name)) }
                templates[name] = template
            }
            versionIdentifiers.formUnion(model.versionIdentifiers)
            let graphWarnings = model.graph.warnings
            loadWarnings += model.warnings.filter { !graphWarnings.contains($0) }
        }
        let merged = try ManagedObjectModel(entities: entities, configurations: configurations,
                                            fetchRequestTemplates: templates, versionIdentifiers: versionIdentifiers)
        merged.appendLoadWarnings(loadWarnings)
        return merged
    }
}
