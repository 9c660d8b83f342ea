// Reading command lines and program options: each command's forms, and the bad ones refused
// with an error naming the culprit.

import Foundation
import Testing
@testable import FruitStand

@Suite struct FruitStandCommandTests {
    @Test(arguments: [
        ("stand add Corner", FruitStandCommand.addStand(name: "Corner")),
        ("STAND ADD \"Main Street\"", .addStand(name: "Main Street")),
        ("crate add 'Main Street'", .addCrate(stand: "Main Street")),
        ("fruit add apple 2.4 Corner/1", .addFruit(kind: .apple, radius: 2.4, crate: CrateName(stand: "Corner", number: 1))),
        ("fruit add Orange 3 \"Main Street/12\"", .addFruit(kind: .orange, radius: 3, crate: CrateName(stand: "Main Street", number: 12))),
        ("list", .list),
        ("find 'radius > 2.1'", .find(kind: nil, predicate: "radius > 2.1")),
        ("find apple 'radius > 2.1'", .find(kind: .apple, predicate: "radius > 2.1")),
        ("find orange radius > 2.1", .find(kind: .orange, predicate: "radius > 2.1")),
        ("find fruit \"crate.stand.name == 'Corner'\"", .find(kind: nil, predicate: "crate.stand.name == 'Corner'")),
        ("find 'a' == 'b'", .find(kind: nil, predicate: "'a' == 'b'")),
        ("find apple", .find(kind: .apple, predicate: "")),
        ("sort radius desc", .sort(keys: [.init(key: "radius", ascending: false)])),
        ("sort crate.number radius DESC", .sort(keys: [.init(key: "crate.number"), .init(key: "radius", ascending: false)])),
        ("remove-largest apple", .removeLargest(kind: .apple)),
        ("delete stand Corner", .deleteStand(name: "Corner")),
        ("rename stand Corner 'Main Street'", .renameStand(from: "Corner", to: "Main Street")),
        ("undo", .undo), ("redo", .redo), ("save", .save), ("rollback", .rollback),
        ("history", .history), ("help", .help), ("  quit  ", .quit),
    ])
    func readsEveryCommand(line: String, command: FruitStandCommand) throws {
        #expect(try FruitStandCommand.parse(line) == command)
    }

    @Test func blankLinesAndCommentsAreNoCommand() throws {
        #expect(try FruitStandCommand.parse("") == nil)
        #expect(try FruitStandCommand.parse("   ") == nil)
        #expect(try FruitStandCommand.parse("# a comment") == nil)
    }

    @Test(arguments: [
        ("frobnicate", FruitStandError.unknownCommand("frobnicate")),
        ("stand Corner", .wrongArguments(command: "stand", usage: "stand add NAME")),
        ("stand add", .wrongArguments(command: "stand", usage: "stand add NAME")),
        ("stand add a b", .wrongArguments(command: "stand", usage: "stand add NAME")),
        ("stand add ''", .badStandName("")),
        ("stand add Corner/2", .badStandName("Corner/2")),
        ("stand add \"Corner", .unterminatedQuote("add \"Corner")),
        ("fruit add pear 2 Corner/1", .unknownKind("pear", allowed: "apple or orange")),
        ("fruit add apple -1 Corner/1", .badRadius("-1")),
        ("fruit add apple 0 Corner/1", .badRadius("0")),
        ("fruit add apple big Corner/1", .badRadius("big")),
        ("fruit add apple 1e400 Corner/1", .badRadius("1e400")),
        ("fruit add apple nan Corner/1", .badRadius("nan")),
        ("fruit add apple 2 Corner", .badCrateName("Corner")),
        ("fruit add apple 2 Corner/0", .badCrateName("Corner/0")),
        ("fruit add apple 2 Corner/x", .badCrateName("Corner/x")),
        ("fruit add apple 2 /1", .badCrateName("/1")),
        ("fruit add apple 2 Corner/40000", .badCrateName("Corner/40000")),
        ("remove-largest pear", .unknownKind("pear", allowed: "apple or orange")),
        ("remove-largest", .wrongArguments(command: "remove-largest", usage: "remove-largest apple|orange")),
        ("delete crate Corner/1", .wrongArguments(command: "delete", usage: "delete stand NAME")),
        ("rename stand Corner", .wrongArguments(command: "rename", usage: "rename stand OLD NEW")),
        ("sort", .wrongArguments(command: "sort", usage: "sort KEY [desc] ...")),
        ("sort desc", .wrongArguments(command: "sort", usage: "sort KEY [desc] ...")),
        ("list all", .wrongArguments(command: "list", usage: "list")),
    ])
    func refusesBadLines(line: String, error: FruitStandError) {
        #expect(throws: error) { try FruitStandCommand.parse(line) }
    }

    @Test func everyErrorIsOneLineNamingTheCulprit() {
        let errors: [FruitStandError] = [
            .unknownCommand("frobnicate"), .badRadius("-1"), .noStand("Nowhere", known: ["Corner"]),
            .noCrate("Corner/9", known: ["Corner/1"]), .duplicateStand("Corner"), .badCrateName("Corner"),
            .unreadableStore(path: "notes.txt", reason: "not an SQLite database (no SQLite header)"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.errorDescription == error.description)
        }
        #expect(FruitStandError.noStand("Nowhere", known: ["Corner", "Market"]).description
                == "no stand named 'Nowhere' (stands: Corner, Market)")
        #expect(FruitStandError.noStand("Nowhere", known: []).description == "no stand named 'Nowhere' (there are no stands)")
    }

    @Test func readsTheProgramOptions() throws {
        let defaults = try FruitStandOptions.parse([])
        #expect(defaults.store == .file(URL(fileURLWithPath: "fruit-stand.sqlite")) && !defaults.autosave)
        #expect(defaults.store.displayName == "fruit-stand.sqlite")
        let options = try FruitStandOptions.parse(["--store", "a.sqlite", "--autosave", "--script", "s.txt"])
        #expect(options.store == .file(URL(fileURLWithPath: "a.sqlite")) && options.autosave && options.script == "s.txt")
        #expect(try FruitStandOptions.parse(["--in-memory"]).store == .inMemory)
        #expect(try FruitStandOptions.parse(["-h"]).showsHelp)
        #expect(throws: FruitStandError.self) { try FruitStandOptions.parse(["--store"]) }
        #expect(throws: FruitStandError.self) { try FruitStandOptions.parse(["--store", "a", "--in-memory"]) }
        #expect(throws: FruitStandError.badOption("unknown argument '--bogus'; \(FruitStandOptions.usage)")) {
            try FruitStandOptions.parse(["--bogus"])
        }
    }
}
