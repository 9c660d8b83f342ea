// Following the context: each batch of changes updates the sections in place and is reported.
import Foundation
import KeyValueCoding
import Predicates

extension FetchedResultsController {
    /// Whether anyone listens for changes: a delegate, a handler or an async sequence.
    var isTracking: Bool {
        delegate != nil || didChangeContent != nil || didChangeSnapshot != nil || !streams.isEmpty
    }

    /// Whether someone wants snapshots rather than (or beside) per-change calls.
    private var wantsSnapshots: Bool {
        (delegate?.receivesSnapshots ?? false) || didChangeSnapshot != nil || !streams.isEmpty
    }

    /// One batch from the context's objects-did-change (processPendingChanges, a merge, a reset).
    func contextDidChange(_ changes: ManagedObjectContext.Changes) {
        guard hasFetched else { return }
        if changes.invalidatedAll {
            apply(refetchedWith: [])
            return
        }
        let relevant = changes.inserted.union(changes.updated).union(changes.refreshed).union(changes.deleted)
        guard !relevant.isEmpty else { return }
        let ours = relevant.contains { entityNames.contains($0.entity.name) }
        if dependencies.reachesOtherObjects {
            // Objects reached through relationships changed (or may have): fetch again and
            // compare, noting the results that read a changed object.
            apply(refetchedWith: changes.updated.union(changes.refreshed), deleted: changes.deleted)
        } else if ours {
            applyIncrementally(changes)
        }
    }

    /// After a save: inserted objects now have permanent IDs, which a snapshot shows; the
    /// sections did not change (the save's processPendingChanges reported the changes).
    func contextDidSave(_ saved: ManagedObjectContext.Changes) {
        guard hasFetched else { return }
        storeInCache()
        guard wantsSnapshots, saved.inserted.contains(where: { sectionNameOf[ObjectIdentifier($0)] != nil }) else { return }
        deliver(FetchedResultsDifference(), snapshot: makeSnapshot(reloaded: []))
    }

    // MARK: In place

    /// Updates the sections for changes of fetched-entity objects only: each changed object
    /// leaves its section and goes back where its values put it (binary search).
    ///
    /// - Complexity: O(*c* × (*m* + log *m*)) for *c* changed objects in sections of *m*
    ///   objects, plus O(*s*) when sections appear or disappear.
    private func applyIncrementally(_ changes: ManagedObjectContext.Changes) {
        let context = managedObjectContext
        var leaving: [ManagedObject] = []
        var arriving: [ManagedObject] = []
        var changedIDs = Set<ObjectIdentifier>()
        for object in changes.deleted where sectionNameOf[ObjectIdentifier(object)] != nil {
            leaving.append(object)
        }
        var failure: (any Error)?
        defer { if let failure { fail(failure) } }
        let candidates = changes.inserted.union(changes.updated).union(changes.refreshed)
        for object in candidates where entityNames.contains(object.entity.name) {
            let id = ObjectIdentifier(object)
            let isMember = sectionNameOf[id] != nil
            let isLive = object.managedObjectContext === context && !changes.deleted.contains(object) && !object.isDeleted
            var matches = false
            if isLive {
                do {
                    matches = try self.matches(object)
                } catch {
                    // It keeps its membership; the batch reports the error.
                    failure = failure ?? error
                    matches = isMember
                }
            }
            if isMember { leaving.append(object) }
            if matches { arriving.append(object) }
            if isMember && matches { changedIDs.insert(id) }
        }
        guard !leaving.isEmpty || !arriving.isEmpty else { return }
        // The sections before the batch, for the difference (only those touched are copied; the
        // index dictionary is shared until the first change of sections).
        let oldIndex = sectionIndexByName
        var touched = Set<String>()
        var oldTouched: [String: [ManagedObject]] = [:]
        func touch(_ name: String) {
            guard touched.insert(name).inserted, let index = sectionIndexByName[name] else { return }
            oldTouched[name] = state[index].objects
        }
        // Leave.
        var leavingBySection: [String: Set<ObjectIdentifier>] = [:]
        for object in leaving {
            guard let name = sectionNameOf.removeValue(forKey: ObjectIdentifier(object)) else { continue }
            touch(name)
            leavingBySection[name, default: []].insert(ObjectIdentifier(object))
        }
        var emptied = false
        for (name, ids) in leavingBySection {
            guard let index = sectionIndexByName[name] else { continue }
            state[index].objects.removeAll { ids.contains(ObjectIdentifier($0)) }
            emptied = emptied || state[index].objects.isEmpty
        }
        // Emptied sections go now, so that a new section is placed among sections that have a
        // first object (one refilled below comes back under its name: no section change).
        if emptied {
            state.removeAll { $0.objects.isEmpty }
            rebuildSectionIndex()
        }
        // Arrive, in the request's order (objects that compare equal keep a stable order).
        let ordered = order.sorted(arriving)
        for object in ordered {
            let name = sectionName(of: object)
            touch(name)
            sectionNameOf[ObjectIdentifier(object)] = name
            if let index = sectionIndexByName[name] {
                let row = insertionRow(for: object, in: state[index].objects)
                state[index].objects.insert(object, at: row)
            } else {
                let index = insertionSection(for: object)
                state.insert(SectionState(name: name, objects: [object]), at: index)
                rebuildSectionIndex()
            }
        }
        guard isTracking else { return }
        var newTouched: [String: [ManagedObject]] = [:]
        for name in touched {
            if let index = sectionIndexByName[name] { newTouched[name] = state[index].objects }
        }
        let difference = FetchedResultsDiffer(
            oldIndex: oldIndex, oldSections: oldTouched, newIndex: sectionIndexByName, newSections: newTouched,
            changed: changedIDs, titles: { [unowned self] in self.indexTitle(for: $0) }
        ).difference()
        report(difference, changed: changedIDs)
    }

    /// Where `object` goes in a section kept in the request's order: after the objects that
    /// sort before it or equal to it.
    ///
    /// - Complexity: O(log *m*) comparisons.
    private func insertionRow(for object: ManagedObject, in objects: [ManagedObject]) -> Int {
        let keys = order.values(of: object)
        var low = 0
        var high = objects.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(keys, order.values(of: objects[middle])) == .orderedAscending { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Where a new section for `object` goes: before the first section whose first object sorts
    /// after it (binary search: the sections are in the request's order).
    ///
    /// - Complexity: O(log *s*) comparisons for *s* sections.
    private func insertionSection(for object: ManagedObject) -> Int {
        let keys = order.values(of: object)
        var low = 0
        var high = state.count
        while low < high {
            let middle = (low + high) / 2
            if let first = state[middle].objects.first, order.compare(keys, order.values(of: first)) == .orderedAscending {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// Whether an object matches the request's predicate now.
    private func matches(_ object: ManagedObject) throws -> Bool {
        guard let predicate = fetchRequest.predicate else { return true }
        return try predicate.evaluate(with: object)
    }

    /// Keeps the first error of a batch and tells the delegate and the handler.
    private func fail(_ error: any Error) {
        lastChangeTrackingError = error
        delegate?.controller(self, didFailToTrackChangesWith: error)
        didFailToTrackChanges?(error)
    }

    // MARK: Fetching again

    /// Fetches again and compares with the sections before: for changes that reach the results
    /// through relationships, or a request with a limit. `changedObjects` are reported as
    /// updated where they stay; so are results whose values read through relationships changed.
    ///
    /// When the fetch throws, the results stay as they were less the objects `deleted` in the
    /// batch (and those no longer in the context), and the error is reported after the batch.
    ///
    /// - Complexity: O(*n* log *n*) (a fetch).
    private func apply(refetchedWith changedObjects: Set<ManagedObject>, deleted: Set<ManagedObject> = []) {
        let old = state
        let oldIndex = sectionIndexByName
        let oldSignatures = signatures
        let objects: [ManagedObject]
        var failure: (any Error)?
        defer { if let failure { fail(failure) } }
        do {
            objects = try managedObjectContext.fetch(fetchRequest)
        } catch {
            failure = error
            let context = managedObjectContext
            objects = old.flatMap(\.objects).filter {
                !deleted.contains($0) && $0.managedObjectContext === context && !$0.isDeleted
            }
        }
        // Not strict: never throws.
        guard let sections = try? group(objects, strict: false) else { return }
        install(sections)
        guard isTracking else { return }
        var changed = Set<ObjectIdentifier>()
        for object in objects {
            let id = ObjectIdentifier(object)
            if changedObjects.contains(object) || oldSignatures[id].map({ $0 != signatures[id] }) == true { changed.insert(id) }
        }
        var oldSections: [String: [ManagedObject]] = [:]
        for section in old { oldSections[section.name] = section.objects }
        var newSections: [String: [ManagedObject]] = [:]
        for section in sections { newSections[section.name] = section.objects }
        let difference = FetchedResultsDiffer(
            oldIndex: oldIndex, oldSections: oldSections, newIndex: sectionIndexByName, newSections: newSections,
            changed: changed, titles: { [unowned self] in self.indexTitle(for: $0) }
        ).difference()
        report(difference, changed: changed)
    }

    // MARK: Reporting

    private func report(_ difference: FetchedResultsDifference, changed: Set<ObjectIdentifier>) {
        guard !difference.isEmpty else { return }
        var snapshot: FetchedResultsSnapshot?
        if wantsSnapshots {
            // Reloaded: the changed objects still in the results.
            let reloaded = difference.objectChanges.filter { ($0.kind == .update || $0.kind == .move) && changed.contains(ObjectIdentifier($0.object)) }
            snapshot = makeSnapshot(reloaded: Set(reloaded.map(\.object.objectID)))
        }
        deliver(difference, snapshot: snapshot)
    }

    /// Calls the delegate, the handlers and the async sequences.
    private func deliver(_ difference: FetchedResultsDifference, snapshot: FetchedResultsSnapshot?) {
        if let delegate {
            if delegate.receivesSnapshots {
                if let snapshot { delegate.controller(self, didChangeContentWith: snapshot) }
            } else if !difference.isEmpty {
                delegate.controllerWillChangeContent(self)
                for change in difference.sectionChanges {
                    delegate.controller(self, didChange: change.section, atSectionIndex: change.sectionIndex, for: change.kind)
                }
                for change in difference.objectChanges {
                    delegate.controller(self, didChange: change.object, at: change.indexPath, for: change.kind,
                                        newIndexPath: change.newIndexPath)
                }
                delegate.controllerDidChangeContent(self)
            }
        }
        if let didChangeContent, !difference.isEmpty { didChangeContent(difference) }
        if let snapshot {
            didChangeSnapshot?(snapshot)
            streams.yield(snapshot)
        }
    }
}
