import Foundation
import ObjectGraph

// Managed objects (issue 13): typed reads and stores of a bound subclass, and key-value coding
// by string key, each beside the same operation on a plain class.

final class BenchmarkFruit: ManagedObject {
    override class var entityName: String { "Fruit" }
    @Managed var radius: Double
    @Managed var variety: String?
}

/// The same, with typed reads that do not report to Observation.
final class UntrackedBenchmarkFruit: ManagedObject {
    override class var entityName: String { "Fruit" }
    override class var isObservationTrackingEnabled: Bool { false }
    @Managed var radius: Double
    @Managed var variety: String?
}

/// The plain counterpart: a stored property, and key-value coding by reflection.
final class PlainBenchmarkFruit: KeyValueCodable {
    var radius = 2.4
    var variety: String? = "Gala"
}

@inline(never) func managedGetRadius(_ fruit: BenchmarkFruit) -> Double { fruit.radius }
@inline(never) func untrackedGetRadius(_ fruit: UntrackedBenchmarkFruit) -> Double { fruit.radius }
@inline(never) func plainGetRadius(_ fruit: PlainBenchmarkFruit) -> Double { fruit.radius }
@inline(never) func managedSetRadius(_ fruit: BenchmarkFruit, _ radius: Double) { fruit.radius = radius }
@inline(never) func plainSetRadius(_ fruit: PlainBenchmarkFruit, _ radius: Double) { fruit.radius = radius }

/// The fruit model, with `BenchmarkFruit` bound to its entity.
private func benchmarkFruitModel() -> ManagedObjectModel {
    // A valid model and a class that fits it: neither can fail.
    let model = try! ManagedObjectModel(entities: [
        EntityDescription(name: "Fruit", properties: [
            .attribute("radius", .double, isOptional: false),
            .attribute("variety", .string),
        ]),
    ])
    try! model.setManagedObjectClass(BenchmarkFruit.self, forEntityNamed: "Fruit")
    return model
}

func registerManagedObjectsBenchmarks(in suite: BenchmarkSuite) {
    let model = benchmarkFruitModel()
    let context = ManagedObjectContext(model: model)
    let tracked = try! context.insertNewObject(BenchmarkFruit.self)
    tracked.radius = 2.4
    context.commitChanges()
    let loose = try! BenchmarkFruit(in: model)
    loose.radius = 2.4
    let generic = try! ManagedObject(entityName: "Fruit", in: benchmarkUnboundModel())
    try! generic.setValue(2.4, forKey: "radius")
    let plain = PlainBenchmarkFruit()
    let radiusKey = identity("radius")

    suite.add("mo_get_attr", baseline: "plain_get", target: .ratio(3),
              note: "typed @Managed Double read of an object in a context (a call each side)",
              body: { n in
                  let fruit = identity(tracked)
                  withExtendedLifetime(context) {
                      for _ in 0..<n { blackHole(managedGetRadius(fruit)) }
                  }
              },
              baseline: { n in
                  let fruit = identity(plain)
                  for _ in 0..<n { blackHole(plainGetRadius(fruit)) }
              })
    let untrackedModel = benchmarkUnboundModel()
    try! untrackedModel.setManagedObjectClass(UntrackedBenchmarkFruit.self, forEntityNamed: "Fruit")
    let untracked = try! UntrackedBenchmarkFruit(in: untrackedModel)
    untracked.radius = 2.4
    suite.add("mo_get_attr_no_observation", baseline: "plain_get", target: .ratio(3),
              note: "as mo_get_attr, class opted out of Observation tracking of reads",
              body: { n in
                  let fruit = identity(untracked)
                  for _ in 0..<n { blackHole(untrackedGetRadius(fruit)) }
              },
              baseline: { n in
                  let fruit = identity(plain)
                  for _ in 0..<n { blackHole(plainGetRadius(fruit)) }
              })
    suite.add("mo_set_attr", baseline: "plain_set", target: .ratio(10),
              note: "typed @Managed Double store, object committed in a context (change tracking), no observers",
              body: { n in
                  let fruit = identity(tracked)
                  // The context must outlive the loop: an object whose context is gone has no
                  // change tracking (the body measured exactly that until 2026-12-01).
                  withExtendedLifetime(context) {
                      for i in 0..<n { managedSetRadius(fruit, Double(i & 7)) }
                  }
                  // The context is alive and tracked the stores: the object is updated, its
                  // change is there, and its committed value is the one before the loop.
                  precondition(fruit.managedObjectContext === context && fruit.isUpdated
                                   && fruit.changedValues()["radius"] != nil
                                   && fruit.committedValues(forKeys: ["radius"])["radius"] as? Double == 2.4,
                               "mo_set_attr: the context did not track the stores")
              },
              baseline: { n in
                  let fruit = identity(plain)
                  for i in 0..<n { plainSetRadius(fruit, Double(i & 7)) }
              })
    suite.add("mo_kvc_get", baseline: "plain_kvc_get", target: .ratio(1.5),
              note: "value(forKey:) of a Double attribute of a generic ManagedObject vs a KeyValueCodable stored var",
              body: { n in for _ in 0..<n { blackHole(try! generic.value(forKey: radiusKey)) } },
              baseline: { n in for _ in 0..<n { blackHole(try! plain.value(forKey: radiusKey)) } })
    suite.add("mo_kvc_set", baseline: "plain_kvc_set", target: .ratio(1.5),
              note: "setValue(_:forKey:) of a Double attribute of a generic ManagedObject (no context) vs a KeyValueCodable stored var",
              body: { n in for i in 0..<n { try! generic.setValue(Double(i & 7), forKey: radiusKey) } },
              baseline: { n in for i in 0..<n { try! plain.setValue(Double(i & 7), forKey: radiusKey) } })
    suite.add("mo_kvc_get_typed", baseline: "plain_kvc_get", target: .ratio(1.5),
              note: "value(forKey:) of a @Managed attribute of a bound subclass",
              body: { n in for _ in 0..<n { blackHole(try! loose.value(forKey: radiusKey)) } },
              baseline: { n in for _ in 0..<n { blackHole(try! plain.value(forKey: radiusKey)) } })
    suite.add("mo_kvc_set_typed", baseline: "plain_kvc_set", target: .ratio(1.5),
              note: "setValue(_:forKey:) of a @Managed attribute of a bound subclass (no context)",
              body: { n in for i in 0..<n { try! loose.setValue(Double(i & 7), forKey: radiusKey) } },
              baseline: { n in for i in 0..<n { try! plain.setValue(Double(i & 7), forKey: radiusKey) } })
    suite.add("mo_set_attr_untracked", baseline: "plain_set", target: .none,
              note: "typed @Managed Double store outside any context, no observers",
              body: { n in
                  let fruit = identity(loose)
                  for i in 0..<n { managedSetRadius(fruit, Double(i & 7)) }
              },
              baseline: { n in
                  let fruit = identity(plain)
                  for i in 0..<n { plainSetRadius(fruit, Double(i & 7)) }
              })
}

/// The fruit model without bindings (generic managed objects).
private func benchmarkUnboundModel() -> ManagedObjectModel {
    // A valid model: building it cannot fail.
    try! ManagedObjectModel(entities: [
        EntityDescription(name: "Fruit", properties: [
            .attribute("radius", .double, isOptional: false),
            .attribute("variety", .string),
        ]),
    ])
}
