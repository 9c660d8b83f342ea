import Foundation
import ObjectGraph
import ManagedObjects // package API: the coordinator's row cache (ctx_merge_1k)

// Managed objects in a context on the in-memory store: insert and save, fetch with a predicate
// and two sort keys, undo and redo. Each beside plain Swift doing the same work.

/// A 10-attribute entity (three strings, three integers, two doubles, a date, a flag).
private func recordModel() -> ManagedObjectModel {
    // A valid model: building it cannot fail.
    try! ManagedObjectModel(entities: [
        EntityDescription(name: "Record", properties: [
            .attribute("t1", .string), .attribute("t2", .string), .attribute("t3", .string),
            .attribute("i1", .integer64), .attribute("i2", .integer64), .attribute("i3", .integer32),
            .attribute("d1", .double), .attribute("d2", .double),
            .attribute("created", .date), .attribute("flag", .boolean),
        ]),
    ])
}

private final class PlainRecord {
    var t1: String, t2: String, t3: String
    var i1: Int64, i2: Int64, i3: Int32
    var d1: Double, d2: Double
    var created: Date, flag: Bool

    init(_ i: Int) {
        t1 = recordNames[i & 15]; t2 = "b\(i & 7)"; t3 = "c"
        i1 = Int64(i % 1000); i2 = Int64(i); i3 = Int32(i & 255)
        d1 = Double(i) / 3; d2 = 1.5
        created = Date(timeIntervalSinceReferenceDate: Double(i)); flag = i & 1 == 0
    }
}

private let recordNames = ["alice", "adam", "bob", "beth", "carol", "chris", "dave", "diana",
                           "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "anna"]

private func fill(_ object: ManagedObject, _ i: Int) throws {
    try object.setValue(recordNames[i & 15], forKey: "t1")
    try object.setValue("b\(i & 7)", forKey: "t2")
    try object.setValue("c", forKey: "t3")
    try object.setValue(Int64(i % 1000), forKey: "i1")
    try object.setValue(Int64(i), forKey: "i2")
    try object.setValue(Int32(i & 255), forKey: "i3")
    try object.setValue(Double(i) / 3, forKey: "d1")
    try object.setValue(1.5, forKey: "d2")
    try object.setValue(Date(timeIntervalSinceReferenceDate: Double(i)), forKey: "created")
    try object.setValue(i & 1 == 0, forKey: "flag")
}

private func stack(_ model: ManagedObjectModel) -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(model: model)
    try! coordinator.addStore(InMemoryStore())
    return ManagedObjectContext(coordinator: coordinator)
}

func registerContextBenchmarks(in suite: BenchmarkSuite) {
    let model = recordModel()
    let count = 20_000
    suite.add("ctx_insert_save_20k", baseline: "plain_objects_20k", operationsPerIteration: count, target: .ratio(10),
              note: "ns per object: insert 20,000 objects of a 10-attribute entity (values by key) and save to the in-memory store",
              body: { n in
                  for _ in 0..<n {
                      let context = stack(model)
                      for i in 0..<count { try! fill(context.insertNewObject(forEntityNamed: "Record"), i) }
                      try! context.save()
                      blackHole(context)
                  }
              },
              baseline: { n in
                  for _ in 0..<n {
                      var records: [PlainRecord] = []
                      for i in 0..<count { records.append(PlainRecord(i)) }
                      blackHole(records)
                  }
              })

    let fetchFixture = FetchFixture(model: model)
    // The baseline of both fetch lines: the same filter and sort, by hand, over plain records.
    let closureFilterSort: (Int) -> Void = { n in
        let plain = fetchFixture.plain
        for _ in 0..<n {
            let matches = plain.filter(FetchFixture.matches)
            blackHole(matches.sorted { $0.i1 != $1.i1 ? $0.i1 > $1.i1 : $0.i2 < $1.i2 })
        }
    }
    suite.add("ctx_fetch_pred_100k", baseline: "closure_filter_sort_100k", target: .ratio(5),
              note: "ns per fetch: predicate and two sort keys over 100,000 saved objects (registered in the context)",
              body: { n in
                  let (context, request) = (fetchFixture.context, fetchFixture.request)
                  for _ in 0..<n { blackHole(try! context.fetch(request)) }
              },
              baseline: closureFilterSort)

    suite.add("ctx_fetch_pred_100k_store", baseline: "closure_filter_sort_100k", target: .none,
              note: "ns per fetch: the in-memory store's share of ctx_fetch_pred_100k (its rows selected, sorted and copied; no objects)",
              body: { n in
                  let request = fetchFixture.storeRequest
                  let store = fetchFixture.context.coordinator!.stores[0]
                  for _ in 0..<n { blackHole(try! store.fetch(request)) }
              },
              baseline: closureFilterSort)

    let changes = 1_000
    let undoFixture = UndoFixture(model: model, count: changes)
    suite.add("ctx_undo_1k", baseline: "plain_set_and_restore_1k", operationsPerIteration: changes, target: .none,
              note: "ns per change: 1,000 attribute changes in one group, undone and redone",
              body: { n in
                  let (undoContext, objects) = (undoFixture.context, undoFixture.objects)
                  for round in 0..<n {
                      for (i, object) in objects.enumerated() { try! object.setValue(Int64(round + i), forKey: "i2") }
                      try! undoContext.undo()
                      try! undoContext.redo()
                  }
              },
              baseline: { n in
                  let plainObjects = undoFixture.plain
                  for round in 0..<n {
                      var old: [Int64] = []
                      for (i, object) in plainObjects.enumerated() { old.append(object.i2); object.i2 = Int64(round + i) }
                      var new: [Int64] = []
                      for (i, object) in plainObjects.enumerated() { new.append(object.i2); object.i2 = old[i] }
                      for (i, object) in plainObjects.enumerated() { object.i2 = new[i] }
                  }
              })

    let merged = 1_000
    let mergeFixture = MergeFixture(model: model, count: merged)
    suite.add("ctx_merge_1k", baseline: "plain_set_1k", operationsPerIteration: merged, target: .none,
              note: "ns per object: a did-save of 1,000 updated objects (one attribute each) merged into a second context "
                  + "holding them loaded (refreshed keeping local changes; the saved rows put in the coordinator's row cache as "
                  + "the save does); baseline: the 1,000 new values set on plain objects",
              body: { n in
                  let (context, cache, result) = (mergeFixture.context, mergeFixture.cache, mergeFixture.result)
                  let states = mergeFixture.states
                  for round in 0..<n {
                      cache.store(states[round & 1])
                      context.mergeChanges(from: result)
                  }
                  blackHole(context)
              },
              baseline: { n in
                  let plain = mergeFixture.plain
                  for round in 0..<n {
                      let sign: Int64 = round & 1 == 0 ? 1 : -1
                      for (i, object) in plain.enumerated() { object.i2 = sign * Int64(i) }
                  }
                  blackHole(plain)
              })

    let childFixture = ChildSaveFixture(model: model, count: changes)
    suite.add("ctx_child_save_1k", baseline: "parent_set_1k", operationsPerIteration: changes, target: .none,
              note: "ns per object: 1,000 attribute changes made in a child context and saved into its parent, "
                  + "against the same changes made in the parent directly",
              body: { n in
                  let (child, objects) = (childFixture.child, childFixture.childObjects)
                  for round in 0..<n {
                      for (i, object) in objects.enumerated() { try! object.setValue(Int64(round + i), forKey: "i2") }
                      try! child.save()
                  }
              },
              baseline: { n in
                  let (parent, objects) = (childFixture.parent, childFixture.parentObjects)
                  for round in 0..<n {
                      for (i, object) in objects.enumerated() { try! object.setValue(Int64(round + i), forKey: "i2") }
                      parent.processPendingChanges()
                  }
              })

    let coordinator = PersistentStoreCoordinator(model: model)
    try! coordinator.addStore(InMemoryStore())
    suite.add("ctx_perform_roundtrip", baseline: "queue_continuation", target: .none,
              note: "ns per await: an empty `await context.perform { _ in }` on a private-queue context, against "
                  + "awaiting a continuation resumed by a block on a serial DispatchQueue",
              body: { n in
                  waitFor {
                      let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                      for _ in 0..<n { await context.perform(schedule: .enqueued) { _ in } }
                  }
              },
              baseline: { n in
                  waitFor {
                      let queue = DispatchQueue(label: "baseline")
                      for _ in 0..<n {
                          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                              queue.async { continuation.resume() }
                          }
                      }
                  }
              })
}

/// Runs async work from a synchronous benchmark body and waits for it.
private func waitFor(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}

/// A parent with `count` saved records and a child holding the same objects, made on first use.
private final class ChildSaveFixture {
    let model: ManagedObjectModel
    let count: Int
    init(model: ManagedObjectModel, count: Int) { self.model = model; self.count = count }

    lazy var parent: ManagedObjectContext = {
        let context = stack(model)
        for i in 0..<count { try! fill(context.insertNewObject(forEntityNamed: "Record"), i) }
        try! context.save()
        return context
    }()

    lazy var parentObjects: [ManagedObject] = try! parent.fetch(EntityFetchRequest(entityName: "Record"))

    lazy var child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)

    lazy var childObjects: [ManagedObject] = try! child.fetch(EntityFetchRequest(entityName: "Record"))
}

/// 100,000 saved records and the request, made on first use (not when another workload runs).
private final class FetchFixture {
    let model: ManagedObjectModel
    /// The plain records, made first (before the 100,000 managed objects): made after them,
    /// they landed wherever the objects' freed memory left room, and the baseline's speed
    /// depended on how much of it the managed side had freed (2 to 7 ms for the same closure).
    let plain: [PlainRecord]
    init(model: ManagedObjectModel) {
        self.model = model
        plain = (0..<100_000).map(PlainRecord.init)
    }

    lazy var context: ManagedObjectContext = {
        let context = stack(model)
        for i in 0..<100_000 { try! fill(context.insertNewObject(forEntityNamed: "Record"), i) }
        try! context.save()
        precondition(try! context.count(for: request) == plain.filter(Self.matches).count,
                     "ctx_fetch_pred_100k: fetch and closure disagree")
        return context
    }()

    lazy var request: EntityFetchRequest = {
        var request = EntityFetchRequest(entityName: "Record", predicate: try! KeyValuePredicate(format: "i1 > 500 AND t1 BEGINSWITH 'a'"))
        request.sortDescriptors = [KeyValueSortDescriptor(key: "i1", ascending: false), KeyValueSortDescriptor(key: "i2")]
        return request
    }()

    /// The store request `request` becomes (one entity, predicate and order).
    lazy var storeRequest = StoreFetchRequest(entityNames: ["Record"], predicate: request.predicate,
                                              sortDescriptors: request.sortDescriptors)

    static func matches(_ record: PlainRecord) -> Bool { record.i1 > 500 && record.t1.hasPrefix("a") }
}

/// 1,000 saved records in a context with an undo manager, made on first use.
private final class UndoFixture {
    let model: ManagedObjectModel
    let count: Int
    init(model: ManagedObjectModel, count: Int) { self.model = model; self.count = count }

    lazy var context: ManagedObjectContext = {
        let context = stack(model)
        context.undoManager = UndoHistory()
        return context
    }()

    lazy var objects: [ManagedObject] = {
        let objects = (0..<count).map { i -> ManagedObject in
            let object = try! context.insertNewObject(forEntityNamed: "Record")
            try! fill(object, i)
            return object
        }
        try! context.save()
        return objects
    }()

    lazy var plain: [PlainRecord] = (0..<count).map(PlainRecord.init)
}

/// 1,000 saved records loaded in a second context, and two saved states of their rows (`i2` = i
/// and -i) with the did-save result that names them.
private final class MergeFixture {
    let model: ManagedObjectModel
    let count: Int
    init(model: ManagedObjectModel, count: Int) { (self.model, self.count) = (model, count) }

    lazy var saving: ManagedObjectContext = {
        let context = stack(model)
        for i in 0..<count { try! fill(context.insertNewObject(forEntityNamed: "Record"), i) }
        try! context.save()
        return context
    }()

    lazy var context: ManagedObjectContext = {
        let context = ManagedObjectContext(coordinator: saving.coordinator!)
        precondition(try! context.fetch(EntityFetchRequest(entityName: "Record")).count == count)
        return context
    }()

    var cache: RowCache { saving.coordinator!.rowCache }

    lazy var states: [[StoreRow]] = [Int64(1), -1].map { sign in
        saving.registeredObjects.map { object in
            var row = saving.row(of: object)
            var i: Int64 = 0
            if case .integer(let value)? = row.attributes["i2"] { i = value }
            row.attributes["i2"] = .integer(sign * i)
            row.version += 1
            return row
        }
    }

    lazy var result = ManagedObjectContext.SaveResult(updatedObjectIDs: Set(saving.registeredObjects.map(\.objectID)))

    lazy var plain: [PlainRecord] = (0..<count).map(PlainRecord.init)
}
