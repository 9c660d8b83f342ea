// The other process of the PostgreSQL fan-out tests (Tests/PostgreSQLStoreTests/
// FanOutProcessTests.swift): saves into the database, or shows it in a fetched results
// controller that follows the other processes' saves.
//
//     pg-fanout-helper save <url> <schema> <title>...
//         One save per title (an Item with that title); prints "saved <title>" after each.
//     pg-fanout-helper watch <url> <schema>
//         A fetched results controller on every Item (by title) in a private-queue context that
//         merges the history of each remote change; prints "ready" once it has fetched, then
//         "shown <title>" for each item the controller reports inserted. Ends when standard
//         input closes.
import Foundation
import ManagedObjects
import Predicates
import PostgreSQLStore
import FanOutSupport

/// Prints a line at once (the parent reads it as it comes).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Reports the controller's inserts.
final class Reporter: FetchedResultsControllerDelegate {
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                    at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                    newIndexPath: FetchedResultsIndexPath?) {
        guard kind == .insert else { return }
        say("shown \((try? object.value(forKey: "title")) as? String ?? "?")")
    }
}

func run() throws -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4 else {
        FileHandle.standardError.write(Data("usage: pg-fanout-helper save|watch <url> <schema> …\n".utf8))
        return 2
    }
    let coordinator = PersistentStoreCoordinator(model: try FanOutModel.model())
    try coordinator.addStore(PostgreSQLPersistentStore(url: arguments[2], schema: arguments[3], tracksPersistentHistory: true,
                                                       postsRemoteChangeNotifications: true))
    switch arguments[1] {
    case "save":
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "helper"
        for title in arguments.dropFirst(4) {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(title, forKey: "title")
            try context.save()
            say("saved \(title)")
        }
        return 0
    case "watch":
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let reporter = Reporter()
        let controller = try context.performAndWait {
            let controller = try FetchedResultsController(
                fetchRequest: EntityFetchRequest(entityName: "Item", sortDescriptors: [KeyValueSortDescriptor(key: "title")]),
                context: context)
            controller.delegate = reporter
            try controller.performFetch()
            return controller
        }
        let follower = try HistoryFollower(context: context, coordinator: coordinator)
        say("ready")
        while readLine() != nil {}
        follower.cancel()
        withExtendedLifetime((controller, reporter)) {}
        return 0
    default:
        return 2
    }
}

do {
    exit(try run())
} catch {
    FileHandle.standardError.write(Data("pg-fanout-helper: \(error)\n".utf8))
    exit(1)
}
