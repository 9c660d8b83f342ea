// The fetched results controller's behaviour, written once and run over each store.
import Foundation
import ManagedObjects
import Predicates
import Testing

/// A behaviour of ``FetchedResultsController`` checked on a store a test target makes: the
/// managed-object tests run every case on the in-memory store, the SQLite tests on a file.
///
/// ```swift
/// @Test(arguments: FetchedResultsScenario.allCases)
/// func behaviour(_ scenario: FetchedResultsScenario) throws { try scenario.run { InMemoryStore() } }
/// ```
package enum FetchedResultsScenario: String, CaseIterable, Sendable {
    case workedExample
    case sectionsAndTitles
    case sortKeyChangeMovesOrUpdates
    case sectionKeyChangeMovesBetweenSections
    case predicateChangeInsertsAndDeletes
    case relationshipKeyPathsAreFollowed
    case predicateThroughRelationship
    case deletedObjectsLastSectionDisappears
    case noDelegateKeepsResultsCurrent
    case snapshotForm
    case closureHooks
    case mergesFromAnotherContext
    case siblingInsertIntoAViewContext
    case namedCache
    case changedRequestNeedsFetch
    case fetchLimitKeepsItsWindow
    case badInput
    case qualifierThroughNilToOne
    case refetchErrorKeepsResults
    case evaluationErrorKeepsMembership
    case randomBatchesBySection
    case randomBatchesThroughRelationship

    /// Runs the case on a store from `makeStore`.
    package func run(_ makeStore: () throws -> any PersistentStore) throws {
        let stack = try FetchedResultsStack(makeStore)
        switch self {
        case .workedExample: try FetchedResultsChecks.workedExample(stack)
        case .sectionsAndTitles: try FetchedResultsChecks.sectionsAndTitles(stack)
        case .sortKeyChangeMovesOrUpdates: try FetchedResultsChecks.sortKeyChange(stack)
        case .sectionKeyChangeMovesBetweenSections: try FetchedResultsChecks.sectionKeyChange(stack)
        case .predicateChangeInsertsAndDeletes: try FetchedResultsChecks.predicateChange(stack)
        case .relationshipKeyPathsAreFollowed: try FetchedResultsChecks.relationshipKeyPaths(stack)
        case .predicateThroughRelationship: try FetchedResultsChecks.predicateThroughRelationship(stack)
        case .deletedObjectsLastSectionDisappears: try FetchedResultsChecks.deletedLastInSection(stack)
        case .noDelegateKeepsResultsCurrent: try FetchedResultsChecks.noDelegate(stack)
        case .snapshotForm: try FetchedResultsChecks.snapshotForm(stack)
        case .closureHooks: try FetchedResultsChecks.closureHooks(stack)
        case .mergesFromAnotherContext: try FetchedResultsChecks.merges(stack)
        case .siblingInsertIntoAViewContext: try FetchedResultsChecks.siblingInsertIntoAViewContext(stack)
        case .namedCache: try FetchedResultsChecks.namedCache(stack)
        case .changedRequestNeedsFetch: try FetchedResultsChecks.changedRequest(stack)
        case .fetchLimitKeepsItsWindow: try FetchedResultsChecks.fetchLimit(stack)
        case .badInput: try FetchedResultsChecks.badInput(stack)
        case .qualifierThroughNilToOne: try FetchedResultsChecks.qualifierThroughNilToOne(stack)
        case .refetchErrorKeepsResults: try FetchedResultsChecks.refetchErrorKeepsResults(stack)
        case .evaluationErrorKeepsMembership: try FetchedResultsChecks.evaluationErrorKeepsMembership(stack)
        case .randomBatchesBySection:
            var check = FetchedResultsRandomCheck(stack, mode: .genre, steps: 1200, seed: 16)
            try check.run()
        case .randomBatchesThroughRelationship:
            var check = FetchedResultsRandomCheck(stack, mode: .theater, steps: 400, seed: 61)
            try check.run()
        }
    }
}

/// Shared helpers of the checks.
package enum FetchedResultsHelpers {
    /// Movies sectioned by theater name, ordered by theater name then title.
    package static func moviesByTheater(predicate: KeyValuePredicate? = nil) -> EntityFetchRequest {
        EntityFetchRequest(entityName: "Movie", predicate: predicate, sortDescriptors: [
            KeyValueSortDescriptor(key: "theater.name"), KeyValueSortDescriptor(key: "title"),
        ])
    }

    /// The controller's sections as `name: title, title` lines.
    package static func outline(_ controller: FetchedResultsController) -> [String] {
        (controller.sections ?? []).map { section in
            "\(section.name): " + section.objects.map { ((try? $0.value(forKey: "title")) as? String) ?? "?" }.joined(separator: ", ")
        }
    }

    /// Checks that the controller's sections are a fresh fetch's, grouped, and that `table`
    /// (when given) shows the same.
    package static func expectCurrent(_ controller: FetchedResultsController, table: TableSimulator? = nil,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let objects = try controller.managedObjectContext.fetch(controller.fetchRequest)
        var names: [String] = []
        var groups: [[ManagedObject]] = []
        for object in objects {
            let name = sectionName(of: object, keyPath: controller.sectionNameKeyPath)
            if names.last == name { groups[groups.count - 1].append(object) } else {
                names.append(name)
                groups.append([object])
            }
        }
        let fresh = TableSimulator(names: names, objects: groups)
        let current = TableSimulator(try #require(controller.sections, sourceLocation: sourceLocation))
        #expect(current == fresh, "controller \(current) vs fresh fetch \(fresh)", sourceLocation: sourceLocation)
        if let table { #expect(table == fresh, "table \(table) vs fresh fetch \(fresh)", sourceLocation: sourceLocation) }
        #expect(controller.fetchedObjects.map { $0.map(ObjectIdentifier.init) } == objects.map(ObjectIdentifier.init),
                sourceLocation: sourceLocation)
    }

    static func sectionName(of object: ManagedObject, keyPath: String?) -> String {
        guard let keyPath else { return "" }
        switch (try? object.value(forKeyPath: keyPath)) ?? nil {
        case let string as String: return string
        case nil: return ""
        case let value?: return String(describing: value)
        }
    }
}
