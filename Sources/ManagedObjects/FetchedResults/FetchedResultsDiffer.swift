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
    /// The section number of every section name before the batch.
    var oldIndex: [String: Int]
    /// The sections that may differ, by name, before the batch.
    var oldSections: [String: [ManagedObject]]
    /// The section number of every section name after the batch.
    var newIndex: [String: Int]
    /// The sections that may differ, by name, after the batch.
    var newSections: [String: [ManagedObject]]
    /// Objects whose values changed (updated, refreshed, or read a changed related object).
    var changed: Set<ObjectIdentifier>
    var titles: (String) -> String?

    /// The changes.
    ///
    /// - Complexity: O(*m*) for the *m* objects of the given sections between their first and
    ///   last difference (equal leading and trailing rows are skipped).
    func difference() -> FetchedResultsDifference {
        var result = FetchedResultsDifference()
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

        // Where each object of the differing parts was and is.
        var departures: [ObjectIdentifier: (ManagedObject, FetchedResultsIndexPath)] = [:]
        var arrivals: [ObjectIdentifier: (ManagedObject, FetchedResultsIndexPath)] = [:]
        var stays = Set<ObjectIdentifier>()
        func update(_ object: ManagedObject, _ from: FetchedResultsIndexPath, _ to: FetchedResultsIndexPath) {
            guard changed.contains(ObjectIdentifier(object)) else { return }
            result.objectChanges.append(FetchedResultsChange(kind: .update, object: object, indexPath: from, newIndexPath: to))
        }
        for (name, before) in oldSections {
            guard let oldSection = oldIndex[name] else { continue }
            guard let after = newSections[name], let newSection = newIndex[name] else {
                for (row, object) in before.enumerated() {
                    departures[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: oldSection))
                }
                continue
            }
            // Equal leading and trailing rows stay where they are.
            var prefix = 0
            while prefix < before.count, prefix < after.count, before[prefix] === after[prefix] {
                update(before[prefix], FetchedResultsIndexPath(row: prefix, section: oldSection),
                       FetchedResultsIndexPath(row: prefix, section: newSection))
                prefix += 1
            }
            var suffix = 0
            while suffix < before.count - prefix, suffix < after.count - prefix,
                  before[before.count - 1 - suffix] === after[after.count - 1 - suffix] {
                update(after[after.count - 1 - suffix], FetchedResultsIndexPath(row: before.count - 1 - suffix, section: oldSection),
                       FetchedResultsIndexPath(row: after.count - 1 - suffix, section: newSection))
                suffix += 1
            }
            let oldMiddle = before[prefix..<(before.count - suffix)]
            let newMiddle = after[prefix..<(after.count - suffix)]
            for (row, object) in zip(oldMiddle.indices, oldMiddle) {
                departures[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: oldSection))
            }
            for (row, object) in zip(newMiddle.indices, newMiddle) {
                arrivals[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: newSection))
            }
            stays.formUnion(stationary(before: oldMiddle, after: newMiddle))
        }
        for (name, after) in newSections where oldSections[name] == nil || oldIndex[name] == nil {
            guard let newSection = newIndex[name] else { continue }
            for (row, object) in after.enumerated() {
                arrivals[ObjectIdentifier(object)] = (object, FetchedResultsIndexPath(row: row, section: newSection))
            }
        }

        for (id, (object, from)) in departures {
            if let (_, to) = arrivals[id] {
                if stays.contains(id) {
                    update(object, from, to)
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
    private func stationary(before: ArraySlice<ManagedObject>, after: ArraySlice<ManagedObject>) -> Set<ObjectIdentifier> {
        var newRow: [ObjectIdentifier: Int] = [:]
        newRow.reserveCapacity(after.count)
        for (row, object) in after.enumerated() { newRow[ObjectIdentifier(object)] = row }  // relative rows
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
