// The fetched results controller: a fetch grouped into sections, kept in step with its context.
import Foundation
import KeyValueCoding
import Predicates

/// The results of a fetch request, grouped into sections, kept up to date with the changes of a
/// context and reported to a delegate as section and row changes
/// (Apple: `NSFetchedResultsController`).
///
/// This is how a list view stays in step with the model without the model knowing the view:
/// the controller fetches, groups the objects into sections by a key path, and after each batch
/// of changes in its context (``ManagedObjectContext/processPendingChanges()``, a save, or a
/// merge from another context) works out what moved and tells its delegate, with index paths
/// a table view can apply in one batch.
///
/// ```swift
/// let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
///     KeyValueSortDescriptor(key: "theater.name"), KeyValueSortDescriptor(key: "title")])
/// let controller = try FetchedResultsController(fetchRequest: request, context: context,
///                                               sectionNameKeyPath: "theater.name")
/// controller.delegate = moviesView
/// try controller.performFetch()
/// let first = try controller.object(at: FetchedResultsIndexPath(row: 0, section: 0))
/// ```
///
/// With no delegate and no change handler the controller keeps its results current but works
/// out no differences (Apple tracks nothing then; see Docs/Porting.md).
///
/// - Important: Thread safety: not `Sendable`; use the controller on the thread of its context,
///   where its delegate is called too.
public final class FetchedResultsController {
    /// The request whose results the controller holds (Apple: `fetchRequest`). Changing it
    /// takes effect at the next ``performFetch()``.
    public var fetchRequest: EntityFetchRequest
    /// The context the controller fetches in and listens to (Apple: `managedObjectContext`).
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names each object's section, or `nil` for one section
    /// (Apple: `sectionNameKeyPath`).
    public let sectionNameKeyPath: String?
    /// The name of the cache of the computed sections, or `nil` (Apple: `cacheName`).
    public let cacheName: String?
    /// The object told about changes; held weakly (Apple: `delegate`).
    public weak var delegate: (any FetchedResultsControllerDelegate)?
    /// Called after each batch that changed the results, with the changes in the delegate's
    /// order; a closure form of the delegate's per-change calls.
    public var didChangeContent: ((FetchedResultsDifference) -> Void)?
    /// Called after each batch that changed the results, with the new snapshot; a closure form
    /// of ``FetchedResultsControllerDelegate/controller(_:didChangeContentWith:)``.
    public var didChangeSnapshot: ((FetchedResultsSnapshot) -> Void)?
    /// Called after a batch of changes the controller could not follow fully, with the error; a
    /// closure form of ``FetchedResultsControllerDelegate/controller(_:didFailToTrackChangesWith:)``.
    /// See ``lastChangeTrackingError``.
    public var didFailToTrackChanges: ((any Error) -> Void)?
    /// The error of the last batch of changes the controller could not follow fully, or `nil`;
    /// ``performFetch()`` clears it (no Apple counterpart: Apple raises).
    ///
    /// A batch fails when fetching again throws (a store error, or a predicate that throws for
    /// one of the objects) or when evaluating the predicate on a changed object throws. The
    /// controller then keeps its results as they were before the batch: a refetch that fails
    /// keeps the previous results less the objects deleted in the batch; an object whose
    /// evaluation fails keeps its membership (in its section, or out of the results). The changes
    /// it did make are reported as usual, then the error to the delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:didFailToTrackChangesWith:)`` and to
    /// ``didFailToTrackChanges``. Only the first error of a batch is kept.
    public internal(set) var lastChangeTrackingError: (any Error)?

    /// The sections, in order; empty before the first fetch.
    var state: [SectionState] = []
    /// The section number of each section name.
    var sectionIndexByName: [String: Int] = [:]
    /// The section name of each object in the results.
    var sectionNameOf: [ObjectIdentifier: String] = [:]
    /// Whether ``performFetch()`` succeeded.
    var hasFetched = false
    /// The names of the entities the request matches (with subentities when asked).
    var entityNames: Set<String> = []
    /// Which key paths read other objects than the fetched one.
    var dependencies = FetchedResultsDependencies()
    /// The values each result reads through relationships, as text (to tell which results a
    /// change of a related object moved).
    var signatures: [ObjectIdentifier: String] = [:]
    /// The context callbacks, installed by the first fetch.
    var observations: [ContextObservation] = []
    /// The request's order, for placing changed objects.
    var order = FetchedResultsOrder([])
    /// The async sequences of snapshots.
    let streams = SnapshotStreams()
    /// Whether the last ``performFetch()`` took its sections from the cache (for tests).
    package private(set) var lastFetchUsedCache = false

    /// Creates a controller; call ``performFetch()`` to fetch
    /// (Apple: `init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)`).
    ///
    /// - Parameters:
    ///   - fetchRequest: The request; it must have sort descriptors. With a section key path,
    ///     the first sort descriptor must order the objects by section (its key is the section
    ///     key path, or orders the objects the same way).
    ///   - context: The context to fetch in and listen to.
    ///   - sectionNameKeyPath: A key path of the entity whose value names the section
    ///     (`"city"`, or through to-one relationships, `"theater.city"`); `nil` for one section.
    ///   - cacheName: A name for a cache of the computed sections that a later controller with
    ///     the same name and request reuses; `nil` for none.
    /// - Throws: ``FetchedResultsError/missingSortDescriptors(entity:)``,
    ///   ``FetchedResultsError/unknownEntity(_:)``,
    ///   ``FetchedResultsError/invalidSectionKeyPath(_:entity:reason:)``.
    public init(fetchRequest: EntityFetchRequest, context: ManagedObjectContext,
                sectionNameKeyPath: String? = nil, cacheName: String? = nil) throws {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        try validate(fetchRequest)
    }

    deinit {
        streams.finish()
    }

    // MARK: Fetching

    /// Fetches the request's objects and groups them into sections (Apple: `performFetch()`).
    /// After the first fetch the controller follows its context's changes. Call it again after
    /// changing ``fetchRequest``.
    ///
    /// With a ``cacheName`` whose cache holds the sections of the same request and section key
    /// path on the same stores, and no unsaved changes in the context, the objects come from the
    /// cache (as faults) without a fetch.
    ///
    /// - Throws: The errors of ``init(fetchRequest:context:sectionNameKeyPath:cacheName:)``,
    ///   ``FetchedResultsError/sectionKeyPathDisagreesWithSort(sectionKeyPath:firstSortKey:section:)``,
    ///   and the context's fetch errors. The results are unchanged on error.
    /// - Complexity: O(*n* log *n*) for *n* objects (a fetch and a sort); O(*n*) from the cache.
    public func performFetch() throws {
        try validate(fetchRequest)
        let context = managedObjectContext
        var sections: [SectionState]
        if let cached = try cachedSections() {
            sections = cached
            lastFetchUsedCache = true
        } else {
            let objects = try context.fetch(fetchRequest)
            sections = try group(objects, strict: true)
            lastFetchUsedCache = false
        }
        entityNames = Set(try context.entityNames(for: fetchRequest))
        dependencies = FetchedResultsDependencies(request: fetchRequest, sectionNameKeyPath: sectionNameKeyPath)
        order = FetchedResultsOrder(fetchRequest.sortDescriptors)
        signatures = [:]
        install(sections)
        lastChangeTrackingError = nil
        hasFetched = true
        startObserving()
        storeInCache()
    }

    /// The controller's state becomes `sections`.
    func install(_ sections: [SectionState]) {
        state = sections
        rebuildSectionIndex()
        sectionNameOf.removeAll(keepingCapacity: true)
        for section in sections {
            for object in section.objects { sectionNameOf[ObjectIdentifier(object)] = section.name }
        }
        guard !dependencies.paths.isEmpty else { return }
        signatures.removeAll(keepingCapacity: true)
        for section in sections {
            for object in section.objects { signatures[ObjectIdentifier(object)] = dependencies.signature(of: object) }
        }
    }

    func rebuildSectionIndex() {
        sectionIndexByName.removeAll(keepingCapacity: true)
        for (index, section) in state.enumerated() { sectionIndexByName[section.name] = index }
    }

    /// Listens to the context's objects-did-change (which merges post too) and did-save.
    private func startObserving() {
        guard observations.isEmpty else { return }
        observations.append(managedObjectContext.onObjectsDidChange { [weak self] changes in
            self?.contextDidChange(changes)
        })
        observations.append(managedObjectContext.onDidSave { [weak self] _, saved in
            self?.contextDidSave(saved)
        })
    }

    /// `objects` (in the request's order) grouped into sections by consecutive runs of a
    /// section name. `strict` throws when a name comes back after another; otherwise the
    /// object joins its earlier section.
    func group(_ objects: [ManagedObject], strict: Bool) throws -> [SectionState] {
        guard sectionNameKeyPath != nil else { return [SectionState(name: "", objects: objects)] }
        var sections: [SectionState] = []
        var indexByName: [String: Int] = [:]
        for object in objects {
            let name = sectionName(of: object)
            if let last = sections.indices.last, sections[last].name == name {
                sections[last].objects.append(object)
            } else if let index = indexByName[name] {
                if strict {
                    throw FetchedResultsError.sectionKeyPathDisagreesWithSort(
                        sectionKeyPath: sectionNameKeyPath ?? "", firstSortKey: fetchRequest.sortDescriptors.first?.key ?? "self",
                        section: name)
                }
                sections[index].objects.append(object)
            } else {
                indexByName[name] = sections.count
                sections.append(SectionState(name: name, objects: [object]))
            }
        }
        return sections
    }

    /// The section name of an object: the description of its section key path value, `""` for
    /// `nil` or no section key path; a negative zero is named as zero, the value it sorts with.
    func sectionName(of object: ManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        let read = sectionNameKeyPath.contains(".") ? try? object.value(forKeyPath: sectionNameKeyPath)
            : try? object.value(forKey: sectionNameKeyPath)
        guard let value = read ?? nil else { return "" }
        switch value {
        case let string as String: return string
        case is NSNull: return ""
        // The two zeros sort as equal, so they name one section ("0.0", never "-0.0").
        case let double as Double: return String(describing: double == 0 ? 0 : double)
        case let float as Float: return String(describing: float == 0 ? 0 : float)
        default: return String(describing: value)
        }
    }

    // MARK: Checking the request

    private func validate(_ request: EntityFetchRequest) throws {
        let model = managedObjectContext.model
        guard let entity = model.entity(named: request.entityName) else {
            throw FetchedResultsError.unknownEntity(request.entityName)
        }
        guard !request.sortDescriptors.isEmpty else {
            throw FetchedResultsError.missingSortDescriptors(entity: request.entityName)
        }
        guard let path = sectionNameKeyPath else { return }
        try Self.checkSectionKeyPath(path, from: entity, in: model)
    }

    /// Each component of the section key path must be a property of the entity it is read
    /// from; every component but the last a to-one relationship, and the last no to-many one.
    private static func checkSectionKeyPath(_ path: String, from entity: EntityDescription, in model: ManagedObjectModel) throws {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for (position, component) in components.enumerated() {
            let isLast = position == components.count - 1
            guard !component.isEmpty, let property = current.property(named: component) else {
                throw FetchedResultsError.invalidSectionKeyPath(
                    path, entity: entity.name, reason: "'\(component)' is not a property of '\(current.name)'")
            }
            if isLast {
                if case .relationship(let relationship) = property, relationship.isToMany {
                    throw FetchedResultsError.invalidSectionKeyPath(
                        path, entity: entity.name, reason: "'\(component)' of '\(current.name)' is to-many (a section needs one value)")
                }
                return
            }
            guard case .relationship(let relationship) = property else {
                throw FetchedResultsError.invalidSectionKeyPath(
                    path, entity: entity.name, reason: "'\(component)' of '\(current.name)' is not a relationship")
            }
            guard !relationship.isToMany else {
                throw FetchedResultsError.invalidSectionKeyPath(
                    path, entity: entity.name, reason: "'\(component)' of '\(current.name)' is to-many (a section needs one value)")
            }
            guard let destination = model.destinationEntity(of: relationship) else {
                throw FetchedResultsError.invalidSectionKeyPath(
                    path, entity: entity.name, reason: "the destination of '\(component)' is not in the model")
            }
            current = destination
        }
    }
}
