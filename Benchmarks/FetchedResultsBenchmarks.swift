import Foundation
import ObjectGraph

// The fetched results controller: one sort-key change processed over 1,000, 10,000 and 100,000
// objects in 100 sections (the cost must follow the section, not the whole result); 1,000 mixed
// changes in one save over 100,000 objects; a sectioned fetch beside a plain fetch and group-by.

/// An entity with a section key, a sort key and a tie-breaker.
private func itemModel() -> ManagedObjectModel {
    // A valid model: building it cannot fail.
    try! ManagedObjectModel(entities: [
        EntityDescription(name: "Item", properties: [
            .attribute("section", .string), .attribute("rank", .integer64), .attribute("serial", .integer64),
        ]),
    ])
}

private let sectionNames = (0..<100).map { String(format: "s%03d", $0) }

private func sortedRequest() -> EntityFetchRequest {
    EntityFetchRequest(entityName: "Item", sortDescriptors: [
        KeyValueSortDescriptor(key: "section"), KeyValueSortDescriptor(key: "rank"), KeyValueSortDescriptor(key: "serial")])
}

/// Counts the delegate's calls (so that the controller works out every difference).
private final class CountingDelegate: FetchedResultsControllerDelegate {
    var changes = 0
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                    at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                    newIndexPath: FetchedResultsIndexPath?) { changes += 1 }
}

/// A saved context of `count` items over 100 sections, a controller with a delegate on it, and
/// the items; made on first use.
private final class ControllerFixture {
    let count: Int
    init(count: Int) { self.count = count }

    lazy var context: ManagedObjectContext = {
        let coordinator = PersistentStoreCoordinator(model: itemModel())
        try! coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        for i in 0..<count { items.append(try! makeItem(in: context, i)) }
        try! context.save()
        return context
    }()

    var items: [ManagedObject] = []
    var serial = 0
    let delegate = CountingDelegate()

    lazy var controller: FetchedResultsController = {
        let controller = try! FetchedResultsController(fetchRequest: sortedRequest(), context: context, sectionNameKeyPath: "section")
        controller.delegate = delegate
        try! controller.performFetch()
        precondition(controller.sections?.count == min(count, 100), "frc: expected 100 sections")
        return controller
    }()

    func makeItem(in context: ManagedObjectContext, _ i: Int) throws -> ManagedObject {
        serial += 1
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setValue(sectionNames[i % 100], forKey: "section")
        try item.setValue(Int64((i &* 7919) % 1000), forKey: "rank")
        try item.setValue(Int64(serial), forKey: "serial")
        return item
    }
}

/// The plain-Swift counterpart: structs in arrays per section, kept sorted.
private struct PlainItem {
    var section: Int
    var rank: Int64
    var serial: Int64
}

func registerFetchedResultsBenchmarks(in suite: BenchmarkSuite) {
    for count in [1_000, 10_000, 100_000] {
        let fixture = ControllerFixture(count: count)
        let label = count >= 1_000 ? "\(count / 1_000)k" : "\(count)"
        var plainSections: [[PlainItem]] = []
        suite.add("frc_change_\(label)", baseline: "plain_move_in_section_\(label)", target: .none,
                  note: "ns per change: one object's sort key changed and processPendingChanges reported to a delegate, \(count) objects in 100 sections",
                  body: { n in
                      let (controller, context, items) = (fixture.controller, fixture.context, fixture.items)
                      blackHole(controller)
                      for i in 0..<n {
                          let item = items[(i &* 31) % items.count]
                          try! item.setValue(Int64((i &* 7) % 1000), forKey: "rank")
                          context.processPendingChanges()
                      }
                      blackHole(fixture.delegate.changes)
                  },
                  baseline: { n in
                      if plainSections.isEmpty {
                          plainSections = Array(repeating: [], count: 100)
                          for i in 0..<count { plainSections[i % 100].append(PlainItem(section: i % 100, rank: Int64((i &* 7919) % 1000), serial: Int64(i))) }
                          for s in plainSections.indices { plainSections[s].sort { ($0.rank, $0.serial) < ($1.rank, $1.serial) } }
                      }
                      for i in 0..<n {
                          let s = ((i &* 31) % count) % 100
                          var item = plainSections[s].remove(at: plainSections[s].count / 2)
                          item.rank = Int64((i &* 7) % 1000)
                          let row = plainSections[s].firstIndex { ($0.rank, $0.serial) > (item.rank, item.serial) } ?? plainSections[s].count
                          plainSections[s].insert(item, at: row)
                      }
                      blackHole(plainSections.count)
                  })
    }

    let batch = ControllerFixture(count: 100_000)
    let withoutController = ControllerFixture(count: 100_000)
    let changes = 1_000
    suite.add("frc_batch_1k", baseline: "same_batch_no_controller", operationsPerIteration: changes, target: .none,
              note: "ns per change: 1,000 mixed changes (250 inserts, 250 deletes, 250 sort-key and 250 section-key changes) in one save over 100,000 objects",
              body: { n in
                  blackHole(batch.controller)
                  for round in 0..<n { mixedBatch(batch, round: round, size: changes) }
              },
              baseline: { n in
                  blackHole(withoutController.context)
                  for round in 0..<n { mixedBatch(withoutController, round: round, size: changes) }
              })

    let fetch = ControllerFixture(count: 10_000)
    suite.add("frc_fetch_10k", baseline: "fetch_and_group_10k", target: .none,
              note: "ns per fetch: performFetch with sections (a new controller) over 10,000 objects in 100 sections",
              body: { n in
                  let context = fetch.context
                  for _ in 0..<n {
                      let controller = try! FetchedResultsController(fetchRequest: sortedRequest(), context: context, sectionNameKeyPath: "section")
                      try! controller.performFetch()
                      blackHole(controller.sections?.count)
                  }
              },
              baseline: { n in
                  let context = fetch.context
                  for _ in 0..<n {
                      let objects = try! context.fetch(sortedRequest())
                      var groups: [String: [ManagedObject]] = [:]
                      var order: [String] = []
                      for object in objects {
                          let name = try! object.value(forKey: "section") as! String
                          if groups[name] == nil { order.append(name) }
                          groups[name, default: []].append(object)
                      }
                      blackHole(order.count)
                  }
              })
}

/// One save of `size` mixed changes: a quarter inserts, deletes, sort-key and section-key changes.
private func mixedBatch(_ fixture: ControllerFixture, round: Int, size: Int) {
    let context = fixture.context
    let quarter = size / 4
    for k in 0..<quarter {
        fixture.items.append(try! fixture.makeItem(in: context, round &* 131 &+ k))
        let victim = fixture.items.remove(at: (round &* 7 &+ k &* 13) % (fixture.items.count - 1))
        context.delete(victim)
    }
    for k in 0..<quarter {
        let item = fixture.items[(round &* 17 &+ k &* 389) % fixture.items.count]
        try! item.setValue(Int64((round &+ k) % 1000), forKey: "rank")
        let other = fixture.items[(round &* 23 &+ k &* 577) % fixture.items.count]
        try! other.setValue(sectionNames[(round &+ k) % 100], forKey: "section")
    }
    try! context.save()
}
