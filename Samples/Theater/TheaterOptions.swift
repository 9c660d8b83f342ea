// The command line of `theater`.

import Foundation

/// The options of the `theater` program.
public struct TheaterOptions: Equatable, Sendable {
    /// Where the objects are kept: `--store PATH` (default `theater.sqlite` in the current
    /// directory), `--store postgres://…` (a PostgreSQL database; also `postgresql://`) or
    /// `--in-memory`.
    public var store: TheaterStoreLocation = .file(URL(fileURLWithPath: "theater.sqlite"))
    /// `--autosave`: quitting (or the end of input) saves instead of warning.
    public var autosave = false
    /// `--script FILE`: the commands, one per line (otherwise stdin).
    public var script: String?
    /// `-h`, `--help`.
    public var showsHelp = false

    /// The usage line.
    public static let usage = "usage: theater [--store PATH | --store postgres://… | --in-memory] [--autosave] [--script FILE]"

    /// Creates the default options.
    public init() {}

    /// Reads the arguments (without the program name).
    ///
    /// - Parameter arguments: The arguments, such as `["--store", "theater.sqlite", "--autosave"]`.
    /// - Returns: The options.
    /// - Throws: ``TheaterError/badOption(_:)`` naming an unknown option, a missing value, or
    ///   both `--store` and `--in-memory`.
    public static func parse(_ arguments: [String]) throws(TheaterError) -> TheaterOptions {
        var options = TheaterOptions()
        var storeGiven = false
        var inMemory = false
        var index = 0
        func value(of option: String) throws(TheaterError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].isEmpty else {
                throw .badOption("\(option) needs a value; \(usage)")
            }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--store":
                let store = try value(of: "--store")
                let isPostgreSQL = store.hasPrefix("postgres://") || store.hasPrefix("postgresql://")
                options.store = isPostgreSQL ? .postgreSQL(store) : .file(URL(fileURLWithPath: store))
                storeGiven = true
            case "--in-memory":
                inMemory = true
            case "--autosave":
                options.autosave = true
            case "--script":
                options.script = try value(of: "--script")
            case "-h", "--help":
                options.showsHelp = true
            default:
                throw .badOption("unknown argument '\(arguments[index])'; \(usage)")
            }
            index += 1
        }
        if storeGiven && inMemory { throw .badOption("--store and --in-memory exclude each other; \(usage)") }
        if inMemory { options.store = .inMemory }
        return options
    }
}
