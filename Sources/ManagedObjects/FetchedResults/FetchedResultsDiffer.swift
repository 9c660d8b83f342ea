// The difference between the sections before and after a batch, as a table view applies it.
import Foundation

/// Works out the section and object changes between two arrangements of the results.
///
/// Only the sections that may differ are given (by name, before and after); the others are
/// the same objects in the same order, so they need no change. The rules are those of a table
/// view applying a batch: deletes at their index paths before, inserts at theirs after, moves
/// from before to after; rows neither deleted, inserted nor moved keep their relative order.
///
/// An object in both arrangements moves when its section changed, or when it cannot stay in
/// place: it must have the same neighbours among the unchanged rows before and after, and
/// among the changed rows kept in place the order must not change. A changed object that
/// stays is an update (reloaded at its old index path).
struct FetchedResultsDiffer {
    var oldNames: [String]
    var oldSections: [String: [ManagedObject]]
    var newNames: [String]
    var newSections: [String: [ManagedObject]]
    /// Objects whose values changed (updated, refreshed, or read a changed related object).
    var changed: Set<ObjectIdentifier>
    var titles: (String) -> String?

    func difference() -> FetchedResultsDifference {
        var result = FetchedResultsDifference()
        var oldIndex: [String: Int] = [:]
        for (index, name) in oldNames.enumerated() where oldSections[name] != nil { oldIndex[name] = index }
        var newIndex: [String: Int] = [:]
        for (index, name) in newNames.enumerated() where newSections[name] != nil { newIndex[name] = index }

        for (name, objects) in oldSections where newIndex[name] == nil {
            guard let index = oldIndex[name] else { continue }
            result.sectionChanges.append(FetchedResultsSectionChange(
                kind: .delete, section: FetchedResultsSection(name: name, indexTitle: titles(name), objects: objects), sectionIndex: index))
        }
        for (name, objects) in newSections where oldIndex[name] == nil {
            guard let index = newIndex[name] else { continue }
            result.sectionChanges.append(FetchedResultsSectionChange(
                kind: .insert, section: FetchedResultsSection(name: name, indexTitle: titles(name), objects: objects), sectionIndex: index))
        }

        // Where each object of the given sections was and is.
        var departures: [ObjectIdentifier: (ManagedObject, FetchedResultsIndexPath)] = [:]
        var arrivals: [ObjectIdentifier: (ManagedObject, FetchedResultsIndexPath)] = [:]
        for (name, objects) in oldSections {
            guard let section = oldIndex[name] else { continue }
            for (row, object) in objects.enumerated() {
                departures[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: section))
            }
        }
        for (name, objects) in newSections {
            guard let section = newIndex[name] else { continue }
            for (row, object) in objects.enumerated() {
                arrivals[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: section))
            }
        }

        // Objects that stay in a section of the same name: which of them keep their place.
        var stays = Set<ObjectIdentifier>()
        for (name, before) in oldSections {
            guard oldIndex[name] != nil, let after = newSections[name], newIndex[name] != nil else { continue }
            stays.formUnion(stationary(before: before, after: after))
        }

        for (id, (object, from)) in departures {
            if let (_, to) = arrivals[id] {
                if stays.contains(id) {
                    if changed.contains(id) {
                        result.objectChanges.append(FetchedResultsChange(kind: .update, object: object, indexPath: from, newIndexPath: to))
                    }
                } else {
                    result.objectChanges.append(FetchedResultsChange(kind: .move, object: object, indexPath: from, newIndexPath: to))
                }
            } else {
                result.objectChanges.append(FetchedResultsChange(kind: .delete, object: object, indexPath: from, newIndexPath: nil))
            }
        }
        for (id, (object, to)) in arrivals where departures[id] == nil {
            result.objectChanges.append(FetchedResultsChange(kind: .insert, object: object, indexPath: nil, newIndexPath: to))
        }
        result.normalizeOrder()
        return result
    }

    /// The objects of a section (same name before and after) that can keep their place: the
    /// unchanged ones (their order cannot change), and the changed ones that sit between the
    /// same unchanged neighbours before and after, kept in increasing order.
    ///
    /// - Complexity: O(*m*) for sections of *m* objects.
    private func stationary(before: [ManagedObject], after: [ManagedObject]) -> Set<ObjectIdentifier> {
        var newRow: [ObjectIdentifier: Int] = [:]
        newRow.reserveCapacity(after.count)
        for (row, object) in after.enumerated() { newRow[ObjectIdentifier(object)] = row }
        // Objects in both, in the old order.
        let common = before.map(ObjectIdentifier.init).filter { newRow[$0] != nil }
        // The unchanged ones must keep their order; if they do not (a change was not noticed),
        // every common object counts as changed.
        var changedHere = changed
        var last = -1
        for id in common where !changed.contains(id) {
            let row = newRow[id]!
            if row < last {
                changedHere.formUnion(common)
                break
            }
            last = row
        }
        // The gap of each object: how many unchanged common objects come before it, before and after.
        let commonSet = Set(common)
        var newGap: [ObjectIdentifier: Int] = [:]
        var count = 0
        for object in after {
            let id = ObjectIdentifier(object)
            guard commonSet.contains(id) else { continue }
            if changedHere.contains(id) { newGap[id] = count } else { count += 1 }
        }
        var result = Set<ObjectIdentifier>()
        var oldGapCount = 0
        var currentGap = -1
        var lastRowInGap = -1
        for id in common {
            if !changedHere.contains(id) {
                result.insert(id)
                oldGapCount += 1
                continue
            }
            guard newGap[id] == oldGapCount else { continue }
            if currentGap != oldGapCount {
                currentGap = oldGapCount
                lastRowInGap = -1
            }
            let row = newRow[id]!
            if row > lastRowInGap {
                result.insert(id)
                lastRowInGap = row
            }
        }
        return result
    }
}
