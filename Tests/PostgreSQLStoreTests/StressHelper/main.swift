// The child process of the PostgreSQL store's many-process test (Tests/PostgreSQLStoreTests/
// ReliabilityTests.swift):
//
//     postgresql-store-stress-helper increment <url> <schema> <writer number> <saves> <counters>
//         Makes <saves> successful saves through one context whose merge policy is `.error`,
//         each adding 1 to one of the <counters> Counter objects (the writer number picks
//         which, so that writers overlap); a save refused as a conflict is counted, the
//         counter refreshed from the store and the save tried again. Prints
//         "done <saves> <conflicts>".
import Foundation
import ManagedObjects
import PostgreSQLStore

func model() throws -> ManagedObjectModel {
    try ManagedObjectModel(entities: [
        EntityDescription(name: "Counter", properties: [.attribute("slot", .integer64), .attribute("count", .integer64)]),
    ])
}

func run() throws -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count == 7, arguments[1] == "increment", let writer = Int(arguments[4]), let saves = Int(arguments[5]),
          let slots = Int(arguments[6]), slots > 0 else {
        FileHandle.standardError.write(Data("usage: postgresql-store-stress-helper increment <url> <schema> <writer> <saves> <counters>\n".utf8))
        return 2
    }
    let coordinator = PersistentStoreCoordinator(model: try model())
    try coordinator.addStore(PostgreSQLPersistentStore(url: arguments[2], schema: arguments[3],
                                                       options: PostgreSQLStoreOptions(poolSize: 1)))
    let context = ManagedObjectContext(coordinator: coordinator)
    context.mergePolicy = .error   // a conflict is reported, never resolved by overwriting
    var counters: [Int64: ManagedObject] = [:]
    for counter in try context.fetch(EntityFetchRequest(entityName: "Counter")) {
        if let slot = try counter.value(forKey: "slot") as? Int64 { counters[slot] = counter }
    }
    guard counters.count == slots else {
        FileHandle.standardError.write(Data("expected \(slots) counters, found \(counters.count)\n".utf8))
        return 1
    }
    var conflicts = 0
    var done = 0
    while done < saves {
        // Writers start on different counters and walk them all: every pair overlaps.
        guard let counter = counters[Int64((done + writer) % slots)] else { return 1 }
        let count = (try counter.value(forKey: "count") as? Int64) ?? 0
        try counter.setValue(count + 1, forKey: "count")
        do {
            try context.save()
            done += 1
        } catch let error as ManagedObjectMergeError where !error.mergeConflicts.isEmpty {
            conflicts += 1
            context.refresh(counter, mergeChanges: false)   // the other writer's value, then again
        }
    }
    print("done \(done) \(conflicts)")
    return 0
}

do {
    exit(try run())
} catch {
    FileHandle.standardError.write(Data("postgresql-store-stress-helper: \(error)\n".utf8))
    exit(1)
}
