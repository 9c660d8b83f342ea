// The model: a set of entities, their configurations and fetch request templates.
import Foundation
import ObjectGraphInternals
import Synchronization

/// A schema of managed objects: entities with their properties, configurations (named subsets
/// of entities) and fetch request templates (Apple: `NSManagedObjectModel`).
///
/// Build one in code from ``EntityDescription`` values, or load one from an Xcode data model
/// (a `.xcdatamodel` or versioned `.xcdatamodeld` folder). Building checks the whole model:
/// every parent, destination and inverse exists, inheritance has no cycle, no property name
/// repeats along an entity's ancestors; a problem is a thrown ``ManagedObjectModelError``
/// naming the entity and property.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [
///     EntityDescription(name: "Theater", properties: [
///         .attribute(AttributeDescription(name: "name", type: .string, isOptional: false)),
///         .relationship(RelationshipDescription(name: "movies", destination: "Movie",
///                       inverse: "theater", cardinality: .toMany, deleteRule: .cascade)),
///     ]),
///     EntityDescription(name: "Movie", properties: [
///         .attribute(AttributeDescription(name: "title", type: .string)),
///         .relationship(RelationshipDescription(name: "theater", destination: "Theater",
///                       inverse: "movies")),
///     ]),
/// ])
/// ```
///
/// A model can change (``setEntities(_:)``, ``setFetchRequestTemplate(_:named:)``…) until a
/// store coordinator starts using it; from then on every change throws
/// ``ManagedObjectModelError/Code/modelInUse`` (Apple raises an exception).
///
/// - Important: Thread safety: `Sendable`. Reads and changes take an internal lock; readers
///   get immutable values.
public final class ManagedObjectModel: Sendable {
    /// The most levels of ancestors an entity may have (a root entity has 0, its subentities
    /// 1): a model with a deeper entity is refused with
    /// ``ManagedObjectModelError/Code/inheritanceTooDeep(_:)`` naming it. Real models are a
    /// few levels deep; Core Data documents no limit.
    public static let maximumInheritanceDepth = 100

    private let state: Mutex<State>
    /// The entry of ``State/creationLayouts`` asked for or made last, unretained (the state
    /// keeps every entry it ever held: see ``State/retiredCreations``): the objects made one
    /// after another (an insert loop's, a fetch's) are mostly of one entity and class, and find
    /// their layout with one atomic load and two comparisons, no lock.
    // The address as a word (0: none), so that the atomic is `Sendable`.
    private let lastCreation = Atomic<UInt>(0)

    struct State: Sendable {
        var graph: ModelGraph
        var configurations: [String: [String]]
        var templates: [String: EntityFetchRequest]
        var versionIdentifiers: Set<String>
        var loadWarnings: [ManagedObjectModelWarning]
        var isEditable = true
        /// Managed-object subclasses by entity name (see `setManagedObjectClass`).
        var classes: [String: ManagedObject.Type] = [:]
        /// The layouts that objects were made with, by entity name and class, each found
        /// (and its class binding checked) once; emptied by every change (see `change`).
        var creationLayouts: [CreationKey: CreationLayout] = [:]
        /// The entries ``creationLayouts`` held before a change emptied it, kept for the model's
        /// life: a thread that read ``ManagedObjectModel/lastCreation`` just before may still
        /// read one. (Changes happen only before the model is in use: few.)
        var retiredCreations: [CreationLayout] = []
        /// Counts changes, so that a layout found under older bindings is not remembered.
        var generation: UInt64 = 0
    }

    /// The key of a layout made objects were created with: entity name and class.
    struct CreationKey: Hashable, Sendable {
        var entityName: String
        var objectClass: ObjectIdentifier
    }

    /// A layout objects were made with, under its key (immutable: read without the lock once
    /// published through ``ManagedObjectModel/lastCreation``).
    final class CreationLayout: Sendable {
        let key: CreationKey
        let layout: EntityLayout

        init(key: CreationKey, layout: EntityLayout) {
            self.key = key
            self.layout = layout
        }
    }

    /// Creates a model from entities, checking that they fit together.
    ///
    /// - Parameters:
    ///   - entities: The entities, each with its own (declared) properties.
    ///   - configurations: Named subsets of the entities, by configuration name.
    ///   - fetchRequestTemplates: Stored fetch requests by name.
    ///   - versionIdentifiers: The model's version identifiers (Xcode's
    ///     `userDefinedModelVersionIdentifier`).
    /// - Throws: ``ManagedObjectModelError`` naming the entity and property at fault.
    /// - Complexity: O(*n*) in the number of properties, plus the hierarchy depth per entity.
    public init(entities: [EntityDescription], configurations: [String: [String]] = [:],
                fetchRequestTemplates: [String: EntityFetchRequest] = [:],
                versionIdentifiers: Set<String> = []) throws(ManagedObjectModelError) {
        let graph = try ModelGraph(entities: entities)
        try graph.check(configurations: configurations, templates: fetchRequestTemplates)
        state = Mutex(State(graph: graph, configurations: configurations, templates: fetchRequestTemplates,
                            versionIdentifiers: versionIdentifiers, loadWarnings: []))
    }

    /// An empty model.
    public convenience init() {
        // An empty entity list always resolves.
        try! self.init(entities: [])
    }

    /// The resolved graph (package: for the context, coordinator and stores).
    package var graph: ModelGraph { state.withTrackedLock(self) { $0.graph } }

    // MARK: Reading

    /// The entities, in the order given, each with its inherited properties and subentity
    /// names filled in (Apple: `entities`).
    public var entities: [EntityDescription] { graph.entities }

    /// The entities by name (Apple: `entitiesByName`).
    public var entitiesByName: [String: EntityDescription] { graph.entitiesByName }

    /// The entity named `name`, or `nil`.
    ///
    /// - Complexity: O(1).
    public func entity(named name: String) -> EntityDescription? { graph.entity(named: name) }

    /// The parent entity of `entity`, or `nil` for a root (Apple: `superentity`).
    public func parentEntity(of entity: EntityDescription) -> EntityDescription? {
        entity.parentName.flatMap { graph.entity(named: $0) }
    }

    /// The root of `entity`'s inheritance tree: the ancestor without a parent (the entity itself
    /// when it has none). Stores keep one table or key sequence per root.
    ///
    /// - Complexity: O(*d*) in the depth of the tree.
    package func rootEntity(of entity: EntityDescription) -> EntityDescription {
        var root = entity
        while let parent = root.parentName, let next = graph.entity(named: parent) { root = next }
        return root
    }

    /// The direct subentities of `entity` (Apple: `subentities`).
    public func subentities(of entity: EntityDescription) -> [EntityDescription] {
        graph.entity(named: entity.name)?.subentityNames.compactMap { graph.entity(named: $0) } ?? []
    }

    /// Whether `entity` is `ancestor` or one of its descendants (Apple: `isKindOfEntity(_:)`).
    public func entity(_ entity: EntityDescription, isKindOf ancestor: EntityDescription) -> Bool {
        graph.isKind(entity.name, of: ancestor.name)
    }

    /// The destination entity of a relationship (Apple: `destinationEntity`).
    public func destinationEntity(of relationship: RelationshipDescription) -> EntityDescription? {
        graph.entity(named: relationship.destinationEntityName)
    }

    /// The inverse of a relationship, or `nil` when it has none (Apple: `inverseRelationship`).
    public func inverseRelationship(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverse = relationship.inverseName else { return nil }
        return graph.entity(named: relationship.destinationEntityName)?.relationshipsByName[inverse]
    }

    /// The configuration names, sorted (Apple: `configurations`).
    public var configurations: [String] { state.withTrackedLock(self) { $0.configurations.keys.sorted() } }

    /// The entities of a configuration; for `nil` (the default configuration) every entity
    /// (Apple: `entities(forConfigurationName:)`). `nil` for an unknown configuration name.
    public func entities(forConfiguration name: String?) -> [EntityDescription]? {
        let (graph, configurations) = state.withTrackedLock(self) { ($0.graph, $0.configurations) }
        guard let name else { return graph.entities }
        return configurations[name]?.compactMap { graph.entity(named: $0) }
    }

    /// The fetch request templates by name (Apple: `fetchRequestTemplatesByName`).
    public var fetchRequestTemplatesByName: [String: EntityFetchRequest] { state.withTrackedLock(self) { $0.templates } }

    /// The version identifiers (Apple: `versionIdentifiers`).
    public var versionIdentifiers: Set<String> { state.withTrackedLock(self) { $0.versionIdentifiers } }

    /// What the model allows but probably does not mean (inverse-less relationships), and,
    /// for a model loaded from a file, what the loader skipped (unknown elements and
    /// attributes).
    public var warnings: [ManagedObjectModelWarning] {
        state.withTrackedLock(self) { $0.loadWarnings + $0.graph.warnings }
    }

    /// Whether the model can still change: `false` once a store coordinator uses it.
    public var isEditable: Bool { state.withTrackedLock(self) { $0.isEditable } }

    /// Marks the model as in use: every later change throws. Called by a store coordinator.
    package func markInUse() { state.withTrackedLock(self) { $0.isEditable = false } }

    /// The graph and the class bindings, read together.
    package var graphAndClasses: (ModelGraph, [String: ManagedObject.Type]) {
        state.withTrackedLock(self) { ($0.graph, $0.classes) }
    }

    /// The graph, the class bindings and the generation of the state they belong to, read
    /// together (see ``rememberCreationLayout(_:entityName:objectClass:generation:)``).
    package var graphClassesAndGeneration: (ModelGraph, [String: ManagedObject.Type], UInt64) {
        state.withTrackedLock(self) { ($0.graph, $0.classes, $0.generation) }
    }

    /// The layout a new object of `entityName` and class `objectClass` gets, when one was made
    /// before under the current entities and class bindings: the last one made or asked for
    /// without a lock (``lastCreation``), else one lock and one hash, instead of the entity
    /// look-up and binding check each creation would otherwise pay.
    package func creationLayout(entityName: String, objectClass: ManagedObject.Type) -> EntityLayout? {
        let classID = ObjectIdentifier(objectClass)
        if let last = UnsafeRawPointer(bitPattern: lastCreation.load(ordering: .acquiring)) {
            // Unretained: the state keeps every entry it published (see `retiredCreations`).
            let entry = Unmanaged<CreationLayout>.fromOpaque(last)
            let layout = entry._withUnsafeGuaranteedRef { entry -> EntityLayout? in
                entry.key.objectClass == classID && entry.key.entityName == entityName ? entry.layout : nil
            }
            if let layout { return layout }
        }
        return state.withTrackedLock(self) { state in
            let key = CreationKey(entityName: entityName, objectClass: classID)
            guard let found = state.creationLayouts[key] else { return nil }
            lastCreation.store(UInt(bitPattern: Unmanaged.passUnretained(found).toOpaque()), ordering: .releasing)
            return found.layout
        }
    }

    /// Remembers the layout an object was made with, found (and its class checked) under the
    /// state of `generation`; dropped when the model changed since.
    package func rememberCreationLayout(_ layout: EntityLayout, entityName: String,
                                        objectClass: ManagedObject.Type, generation: UInt64) {
        let key = CreationKey(entityName: entityName, objectClass: ObjectIdentifier(objectClass))
        state.withTrackedLock(self) { state in
            guard state.generation == generation else { return }
            if let replaced = state.creationLayouts[key] { state.retiredCreations.append(replaced) }
            let entry = CreationLayout(key: key, layout: layout)
            state.creationLayouts[key] = entry
            lastCreation.store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()), ordering: .releasing)
        }
    }

    /// Changes the class bindings (refused once the model is in use).
    package func changeClasses(
        _ body: (ModelGraph, inout [String: ManagedObject.Type]) throws(ManagedObjectModelError) -> Void
    ) throws(ManagedObjectModelError) {
        try change { (state: inout State) throws(ManagedObjectModelError) in try body(state.graph, &state.classes) }
    }

    /// Adds warnings found while loading a file.
    package func appendLoadWarnings(_ warnings: [ManagedObjectModelWarning]) {
        state.withTrackedLock(self) { $0.loadWarnings += warnings }
    }

    // MARK: Changing

    /// Replaces the entities (Apple: setting `entities`).
    ///
    /// - Parameter entities: The new entities.
    /// - Throws: ``ManagedObjectModelError/Code/modelInUse`` once a coordinator uses the
    ///   model; otherwise the errors of ``init(entities:configurations:fetchRequestTemplates:versionIdentifiers:)``,
    ///   and those of ``setManagedObjectClass(_:forEntityNamed:)`` when a bound class no longer
    ///   fits its entity. On error the model is unchanged.
    public func setEntities(_ entities: [EntityDescription]) throws(ManagedObjectModelError) {
        try change { state throws(ManagedObjectModelError) in
            let graph = try ModelGraph(entities: entities)
            try graph.check(configurations: state.configurations, templates: state.templates)
            try ClassBindingCheck(graph: graph, classes: state.classes).checkAll()
            state.graph = graph
        }
    }

    /// Adds entities to the model.
    ///
    /// - Parameter entities: The entities to add.
    /// - Throws: As ``setEntities(_:)``; ``ManagedObjectModelError/Code/duplicateEntity`` for a
    ///   name already in the model.
    public func addEntities(_ entities: [EntityDescription]) throws(ManagedObjectModelError) {
        try setEntities(self.entities.map(\.declared) + entities)
    }

    /// Sets the entities of a configuration (Apple: `setEntities(_:forConfigurationName:)`).
    ///
    /// - Parameters:
    ///   - entityNames: The member entities' names.
    ///   - name: The configuration name.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)`` for a name not in the
    ///   model; ``ManagedObjectModelError/Code/modelInUse`` once in use.
    public func setEntities(_ entityNames: [String], forConfiguration name: String) throws(ManagedObjectModelError) {
        try change { state throws(ManagedObjectModelError) in
            var configurations = state.configurations
            configurations[name] = entityNames
            try state.graph.check(configurations: configurations, templates: [:])
            state.configurations = configurations
        }
    }

    /// Stores (or with `nil`, removes) a fetch request template
    /// (Apple: `setFetchRequestTemplate(_:forName:)`).
    ///
    /// - Parameters:
    ///   - request: The request, whose predicate may hold `$variables`.
    ///   - name: The template's name.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)`` when the request's entity is
    ///   not in the model; ``ManagedObjectModelError/Code/modelInUse`` once in use.
    public func setFetchRequestTemplate(_ request: EntityFetchRequest?, named name: String) throws(ManagedObjectModelError) {
        try change { state throws(ManagedObjectModelError) in
            if let request {
                try state.graph.check(configurations: [:], templates: [name: request])
            }
            state.templates[name] = request
        }
    }

    /// Replaces the version identifiers.
    ///
    /// - Throws: ``ManagedObjectModelError/Code/modelInUse`` once in use.
    public func setVersionIdentifiers(_ identifiers: Set<String>) throws(ManagedObjectModelError) {
        try change { state in state.versionIdentifiers = identifiers }
    }

    private func change(_ body: (inout State) throws(ManagedObjectModelError) -> Void) throws(ManagedObjectModelError) {
        // The tracked lock (seen by the thread sanitizer, as every access of the state is)
        // rethrows untyped errors: the typed error travels in a result.
        let outcome: Result<Void, ManagedObjectModelError> = state.withTrackedLock(self) { state in
            guard state.isEditable else { return .failure(ManagedObjectModelError(.modelInUse)) }
            var copy = state
            do throws(ManagedObjectModelError) {
                try body(&copy)
            } catch {
                return .failure(error)
            }
            // Entities or class bindings may have changed: layouts are found again.
            copy.retiredCreations += copy.creationLayouts.values
            copy.creationLayouts = [:]
            copy.generation &+= 1
            state = copy
            lastCreation.store(0, ordering: .releasing)
            return .success(())
        }
        try outcome.get()
    }
}

extension EntityDescription {
    /// The entity as declared: without the facts a model fills in.
    package var declared: EntityDescription {
        var copy = self
        copy.inheritedProperties = []
        copy.subentityNameList = []
        copy.resolvedVersionHash = nil
        return copy
    }
}
