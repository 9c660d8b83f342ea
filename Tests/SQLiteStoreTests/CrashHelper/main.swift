// A child process for the SQLite store's reliability tests (Tests/SQLiteStoreTests/
// ReliabilityTests.swift): saves in a loop until killed, or writes beside another process.
//
//     sqlite-store-crash-helper save-loop <store path>
//         Saves forever: save n inserts Entry n and sets the Tally's count to n; after each
//         save returns, prints "n" on its own line.
//     sqlite-store-crash-helper increment <store path> <writer> <saves>
//         Makes <saves> saves, each inserting an Entry named after the writer and adding 1 to
//         the Tally's count, refreshing and retrying on conflicts; prints "done <conflicts>".
//     sqlite-store-crash-helper history-insert <store path> <writer>
//         With persistent history on, saves one Entry named after the writer (author
//         "helper", context name "child"); prints "saved <transaction number>".
//     sqlite-store-crash-helper metadata <store path>
//         Adds the store (SQLitePersistentStore(url:), the type never registered by name),
//         then reads its metadata and compatibility by the type's name "SQLite"; prints
//         "uuid <whether the metadata's UUID is the store's> compatible <Bool>".
//     sqlite-store-crash-helper open-close <store path>
//         Opens the file with one SQLite connection, prints the number of Entry rows and
//         closes it (as the last connection of the file, SQLite then checkpoints and removes
//         the -wal file, unless another process holds a lock on the file).
import Foundation
import ManagedObjects
import SQLiteStore

func model() throws -> ManagedObjectModel {
    try ManagedObjectModel(entities: [
        EntityDescription(name: "Entry", properties: [.attribute("serial", .integer64), .attribute("writer", .string),
                                                      .attribute("payload", .string)]),
        EntityDescription(name: "Tally", properties: [.attribute("count", .integer64)]),
    ])
}

func tally(in context: ManagedObjectContext) throws -> ManagedObject {
    if let existing = try context.fetch(EntityFetchRequest(entityName: "Tally")).first { return existing }
    let made = try context.insertNewObject(forEntityNamed: "Tally")
    try made.setValue(Int64(0), forKey: "count")
    return made
}

func run() throws -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("usage: sqlite-store-crash-helper save-loop|increment <path> …\n".utf8))
        return 2
    }
    if arguments[1] == "open-close" {
        do {
            let connection = try SQLiteConnection(path: arguments[2], mode: .readWrite)
            print("entries \(try connection.scalar("SELECT COUNT(*) FROM ZENTRY")?.integerValue ?? -1)")
        }   // closed here
        return 0
    }
    let coordinator = PersistentStoreCoordinator(model: try model())
    let tracksHistory = arguments[1] == "history-insert"
    try coordinator.addStore(SQLitePersistentStore(url: URL(fileURLWithPath: arguments[2]), tracksPersistentHistory: tracksHistory))
    let context = ManagedObjectContext(coordinator: coordinator)
    switch arguments[1] {
    case "save-loop":
        let counter = try tally(in: context)
        var serial = (try counter.value(forKey: "count") as? Int64) ?? 0
        let payload = String(repeating: "x", count: 2000)
        while true {
            serial += 1
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue(serial, forKey: "serial")
            try entry.setValue(payload, forKey: "payload")
            try counter.setValue(serial, forKey: "count")
            try context.save()
            FileHandle.standardOutput.write(Data("\(serial)\n".utf8))
        }
    case "increment":
        guard arguments.count == 5, let saves = Int(arguments[4]) else { return 2 }
        let writer = arguments[3]
        var conflicts = 0
        var done = 0
        while done < saves {
            context.reset()
            let counter = try tally(in: context)
            let count = (try counter.value(forKey: "count") as? Int64) ?? 0
            try counter.setValue(count + 1, forKey: "count")
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue(Int64(done), forKey: "serial")
            try entry.setValue(writer, forKey: "writer")
            do {
                try context.save()
                done += 1
            } catch let error as ManagedObjectMergeError where !error.mergeConflicts.isEmpty {
                conflicts += 1   // the default merge policy (error) reports the other writer's save
            }
        }
        print("done \(conflicts)")
        return 0
    case "history-insert":
        guard arguments.count == 4 else { return 2 }
        context.transactionAuthor = "helper"
        context.name = "child"
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        try entry.setValue(arguments[3], forKey: "writer")
        try entry.setValue(Int64(1), forKey: "serial")
        try context.save()
        let token = try coordinator.currentPersistentHistoryToken()
        print("saved \(token?.transactionNumber ?? 0)")
        return 0
    case "metadata":
        let url = URL(fileURLWithPath: arguments[2])
        let metadata = try PersistentStoreCoordinator.metadataForStore(at: url, type: "SQLite")
        let sameUUID = metadata?["NSStoreUUID"] as? String == coordinator.stores.first?.identifier
        print("uuid \(sameUUID) compatible \(try coordinator.isStoreCompatible(at: url, type: "SQLite"))")
        return 0
    default:
        return 2
    }
}

do {
    exit(try run())
} catch {
    FileHandle.standardError.write(Data("sqlite-store-crash-helper: \(error)\n".utf8))
    exit(1)
}
