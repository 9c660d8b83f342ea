// The store under the theater: the model file, the SQLite file that outlives a session, save
// and rollback, quitting with unsaved changes, a file that is not a store, and a second session
// or process saving into the same file while the first runs.

import Foundation
import ManagedObjects
import Testing
@testable import Theater

@Suite("Theater: store", .serialized)
struct TheaterStoreTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("theater-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theModelFileHasTheEntitiesRulesAndInverses() throws {
        let model = try TheaterDataModel.load()
        let theater = try #require(model.entity(named: "Theater"))
        let movie = try #require(model.entity(named: "Movie"))
        #expect(Set(theater.attributesByName.keys) == ["name", "city"])
        #expect(Set(movie.attributesByName.keys) == ["title", "year", "rating", "minutes"])
        let movies = try #require(theater.relationshipsByName["movies"])
        let back = try #require(movie.relationshipsByName["theater"])
        #expect(movies.isToMany && !back.isToMany)
        #expect(movies.deleteRule == .cascade && back.deleteRule == .nullify)
        #expect(movies.inverseName == "theater" && back.inverseName == "movies")
        #expect(model.managedObjectClass(forEntityNamed: "Theater") == MovieTheater.self)
        #expect(model.managedObjectClass(forEntityNamed: "Movie") == Movie.self)
    }

    @Test func quittingAndStartingAgainShowsTheSameProgram() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("theater.sqlite")
        let first = try TheaterSession(store: .file(file))
        _ = first.execute(setUpOdeon)
        for step in scriptedSteps { _ = first.execute(step.command) }
        #expect(first.execute("save") == "saved to \(file.relativePath): 6 inserted")
        // Undo works across the save; the undone change is saved too.
        #expect(first.execute("undo").hasPrefix(#"undid Move "The Matrix" to Rex"#))
        #expect(first.execute("save").hasPrefix("saved to"))
        let listing = first.listing.text
        #expect(first.execute("quit") == "bye")

        let second = try TheaterSession(store: .file(file))
        #expect(second.execute("list") == listing)
        #expect(second.execute("list") == listingText([(odeon, [alien86, bladeRunner, matrix, thing84])]))
        #expect(try second.theaters().map(\.label) == ["Odeon (London)", "Rex (Paris)"])
        #expect(!second.history.canUndo)
    }

    @Test func rollbackDropsTheUnsavedChangesAndTheirUndoSteps() throws {
        let session = try makeThreeMovieSession()
        #expect(session.execute("save") == "saved to memory: 4 inserted")
        _ = session.execute("set 1 year 1986")
        _ = session.execute("remove 2")
        // Odeon is updated too: its to-many `movies` changed (as Core Data counts it).
        #expect(session.execute("rollback") == """
            rolled back unsaved changes (2 updated, 1 deleted); the undo history is cleared
            """ + "\n" + listingText([(odeon, [alien, matrix, thing])]))
        #expect(session.listing.text == listingText([(odeon, [alien, matrix, thing])]))
        #expect(!session.history.canUndo && session.execute("rollback") == "nothing to roll back")
    }

    @Test func autosaveSavesOnQuitAndTheEndOfInput() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("auto.sqlite")
        let session = try TheaterSession(store: .file(file), autosave: true)
        #expect(session.transcript(of: "\(setUpOdeon)\nadd Alien 1979 8.5 117").hasSuffix("saved to \(file.relativePath): 2 inserted"))
        let reopened = try TheaterSession(store: .file(file))
        #expect(reopened.listing.movies.map(\.title) == ["Alien"])
        _ = reopened.execute("add Heat 1995 8.3 170")
        #expect(reopened.finishInput().hasPrefix("warning: the input ended with unsaved changes (1 inserted, 1 updated)"))
    }

    @Test func aFileThatIsNotAStoreIsRefusedAndLeftAlone() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.sqlite")
        try Data("not a database\n".utf8).write(to: file)
        let error = try #require(throws: TheaterError.self) { try TheaterSession(store: .file(file)) }
        #expect(error.description.hasPrefix("cannot open the store \(file.relativePath): "))
        #expect(!error.description.contains("\n"))
        #expect(try Data(contentsOf: file) == Data("not a database\n".utf8))
    }

    @Test(arguments: [
        (["--store", "x.sqlite", "--autosave"], TheaterStoreLocation.file(URL(fileURLWithPath: "x.sqlite")), true),
        (["--in-memory"], .inMemory, false),
        ([], .file(URL(fileURLWithPath: "theater.sqlite")), false),
    ])
    func optionsNameTheStore(arguments: [String], store: TheaterStoreLocation, autosave: Bool) throws {
        let options = try TheaterOptions.parse(arguments)
        #expect(options.store == store && options.autosave == autosave)
    }

    @Test func badOptionsAreRefused() {
        #expect(throws: TheaterError.self) { try TheaterOptions.parse(["--store"]) }
        #expect(throws: TheaterError.self) { try TheaterOptions.parse(["--store", "a", "--in-memory"]) }
        #expect(throws: TheaterError.self) { try TheaterOptions.parse(["--colour"]) }
    }

    // MARK: Two sessions on one file

    @Test func anotherSessionsSavesAreMergedOnTheNextCommand() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("shared.sqlite")
        let first = try TheaterSession(store: .file(file))
        _ = first.execute(setUpOdeon)
        _ = first.execute("add Alien 1979 8.5 117")
        _ = first.execute(#"add "The Matrix" 1999 8.7 136"#)
        _ = first.execute("save")

        // A second session (its own coordinator: as another process) changes, adds and saves.
        let second = try TheaterSession(store: .file(file))
        _ = second.execute("theater add Rex Paris")
        _ = second.execute("add Heat 1995 8.3 170")
        _ = second.execute("set 1 rating 9")
        _ = second.execute("remove 2")   // The Matrix
        #expect(second.execute("save").hasPrefix("saved to"))

        // The first learns of it before its next command, and redraws only those rows (Odeon
        // is updated too: its movies changed; it is no row).
        #expect(first.execute("list") == """
            another process saved: 2 inserted, 2 updated, 1 deleted
            -  2  The Matrix
            + \(rex)
            +  2  Heat                        1995     8.3   170 min
            ~  1  Alien                       1979     9.0   117 min
            """ + "\n" + listingText([
                (odeon, [" Alien                       1979     9.0   117 min"]),
                (rex, [" Heat                        1995     8.3   170 min"]),
            ]))
        // Nothing to save in the first: the merged changes are the store's.
        #expect(!first.context.hasChanges)
        // Its own saves are not taken for another process's.
        _ = first.execute("set 2 year 1996")
        _ = first.execute("save")
        #expect(first.execute("list").hasPrefix(" #  title"))
        #expect(second.execute("stats").hasPrefix("another process saved: 1 updated\n~  2  Heat"))
    }
}
