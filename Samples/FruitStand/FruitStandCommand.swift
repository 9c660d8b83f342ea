// Reading one command line of the fruit stand: words, quoted names, and the command it names.

import Foundation

/// One command of the fruit stand, read from a line.
///
/// Names with spaces are quoted with `"` or `'` (`stand add "Main Street"`). Crates are named as
/// the list shows them, `STAND/NUMBER` (`Corner/1`). `find` takes the rest of the line as the
/// predicate; a predicate wholly inside one pair of quotes (`find 'radius > 2.1'`) is unquoted.
public enum FruitStandCommand: Equatable, Sendable {
    /// `stand add NAME`
    case addStand(name: String)
    /// `crate add STAND`: a new crate, numbered after the stand's last one.
    case addCrate(stand: String)
    /// `fruit add apple|orange RADIUS CRATE`
    case addFruit(kind: FruitKind, radius: Double, crate: CrateName)
    /// `list`
    case list
    /// `find [apple|orange|fruit] [PREDICATE]`: `kind` nil means every fruit.
    case find(kind: FruitKind?, predicate: String)
    /// `sort KEY [asc|desc] ...`: the order of fruit in `list` and `find`.
    case sort(keys: [SortKey])
    /// `remove-largest apple|orange`
    case removeLargest(kind: FruitKind)
    /// `delete stand NAME`: the stand, its crates and their fruit.
    case deleteStand(name: String)
    /// `rename stand OLD NEW`
    case renameStand(from: String, to: String)
    /// `undo`
    case undo
    /// `redo`
    case redo
    /// `save`
    case save
    /// `rollback`
    case rollback
    /// `history`
    case history
    /// `help`
    case help
    /// `quit`
    case quit

    /// A key of `sort` and its direction.
    public struct SortKey: Equatable, Sendable {
        /// The key (or key path) of a fruit to sort by, such as `radius`.
        public var key: String
        /// Whether smaller values come first (`desc` makes it false).
        public var ascending: Bool

        /// Creates a sort key.
        public init(key: String, ascending: Bool = true) {
            self.key = key
            self.ascending = ascending
        }
    }

    /// The usage line of each command, in help order.
    public static let usage: [(command: String, usage: String, summary: String)] = [
        ("stand", "stand add NAME", "add a stand (quote names with spaces)"),
        ("crate", "crate add STAND", "add a crate to a stand; it is named STAND/NUMBER"),
        ("fruit", "fruit add apple|orange RADIUS CRATE", "put a fruit into a crate (e.g. fruit add apple 2.4 Corner/1)"),
        ("list", "list", "show the stands, their crates and fruit"),
        ("find", "find [apple|orange] PREDICATE", "show the fruit matching a predicate, e.g. find apple 'radius > 2.1'"),
        ("sort", "sort KEY [desc] ...", "order the fruit in list and find, e.g. sort radius desc"),
        ("remove-largest", "remove-largest apple|orange", "remove the largest apple (or orange)"),
        ("delete", "delete stand NAME", "delete a stand with its crates and fruit"),
        ("rename", "rename stand OLD NEW", "rename a stand"),
        ("undo", "undo", "undo the last change (also across saves)"),
        ("redo", "redo", "redo the last undone change"),
        ("save", "save", "write the changes to the store"),
        ("rollback", "rollback", "drop the unsaved changes (and the undo history)"),
        ("history", "history", "show the undo and redo steps by name"),
        ("help", "help", "show this help"),
        ("quit", "quit", "leave (warns first about unsaved changes)"),
    ]

    /// Reads a command line.
    ///
    /// - Parameter line: The line, without its newline.
    /// - Returns: The command, or nil for a blank line or a comment (`# ...`).
    /// - Throws: ``FruitStandError`` naming the unknown command, the bad argument or the
    ///   missing quote.
    public static func parse(_ line: String) throws(FruitStandError) -> FruitStandCommand? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let typed = String(trimmed.prefix { !$0.isWhitespace })
        let name = typed.lowercased()
        let rest = trimmed.dropFirst(typed.count).trimmingCharacters(in: .whitespaces)
        if name == "find" { return try find(rest) }
        let arguments = try words(of: rest)
        switch name {
        case "stand", "crate", "fruit":
            return try adding(name, arguments)
        case "delete", "rename":
            guard arguments.first?.lowercased() == "stand" else { throw wrongArguments(name) }
            let names = Array(arguments.dropFirst())
            if name == "delete", names.count == 1 { return .deleteStand(name: names[0]) }
            if name == "rename", names.count == 2 {
                return .renameStand(from: names[0], to: try standName(names[1]))
            }
            throw wrongArguments(name)
        case "sort":
            return .sort(keys: try sortKeys(arguments))
        case "remove-largest":
            guard arguments.count == 1 else { throw wrongArguments(name) }
            return .removeLargest(kind: try kind(arguments[0]))
        default:
            guard let command = simple[name] else { throw .unknownCommand(typed) }
            guard arguments.isEmpty else { throw wrongArguments(name) }
            return command
        }
    }

    /// The commands without arguments.
    private static let simple: [String: FruitStandCommand] = [
        "list": .list, "undo": .undo, "redo": .redo, "save": .save, "rollback": .rollback,
        "history": .history, "help": .help, "quit": .quit,
    ]

    /// `stand add NAME`, `crate add STAND`, `fruit add KIND RADIUS CRATE`.
    private static func adding(_ name: String, _ arguments: [String]) throws(FruitStandError) -> FruitStandCommand {
        guard arguments.first?.lowercased() == "add" else { throw wrongArguments(name) }
        switch (name, arguments.count) {
        case ("stand", 2):
            return .addStand(name: try standName(arguments[1]))
        case ("crate", 2):
            return .addCrate(stand: arguments[1])
        case ("fruit", 4):
            return .addFruit(kind: try kind(arguments[1]), radius: try radius(arguments[2]),
                             crate: try CrateName(parsing: arguments[3]))
        default:
            throw wrongArguments(name)
        }
    }

    /// `find [KIND] [PREDICATE]`: an optional kind, then the predicate, unquoted when one pair of
    /// quotes holds all of it.
    private static func find(_ rest: String) throws(FruitStandError) -> FruitStandCommand {
        var predicate = rest
        var kind: FruitKind?
        let first = String(rest.prefix { !$0.isWhitespace }).lowercased()
        if first == "fruit" || FruitKind(rawValue: first) != nil {
            kind = FruitKind(rawValue: first)
            predicate = rest.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
        }
        if let quote = predicate.first, quote == "'" || quote == "\"", predicate.count >= 2,
           predicate.last == quote, !predicate.dropFirst().dropLast().contains(quote) {
            predicate = String(predicate.dropFirst().dropLast())
        }
        return .find(kind: kind, predicate: predicate)
    }

    /// `KEY [asc|desc] KEY [asc|desc] ...`
    private static func sortKeys(_ arguments: [String]) throws(FruitStandError) -> [SortKey] {
        var keys: [SortKey] = []
        for word in arguments {
            switch word.lowercased() {
            case "desc", "asc":
                guard !keys.isEmpty else { throw wrongArguments("sort") }
                keys[keys.count - 1].ascending = word.lowercased() == "asc"
            default:
                keys.append(SortKey(key: word))
            }
        }
        guard !keys.isEmpty else { throw wrongArguments("sort") }
        return keys
    }

    /// A fruit kind: `apple` or `orange`, in any case.
    static func kind(_ word: String) throws(FruitStandError) -> FruitKind {
        guard let kind = FruitKind(rawValue: word.lowercased()) else {
            throw .unknownKind(word, allowed: "apple or orange")
        }
        return kind
    }

    /// A radius: a finite number above zero.
    static func radius(_ text: String) throws(FruitStandError) -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else { throw .badRadius(text) }
        return value
    }

    /// A name a stand may have: not empty, no `/` (it separates the stand from the crate number).
    static func standName(_ name: String) throws(FruitStandError) -> String {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, !name.contains("/") else {
            throw .badStandName(name)
        }
        return name
    }

    /// Splits `text` into words; `"..."` and `'...'` make one word that may hold spaces.
    static func words(of text: String) throws(FruitStandError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw .unterminatedQuote(text) }
        if inWord { words.append(current) }
        return words
    }

    private static func wrongArguments(_ name: String) -> FruitStandError {
        let usage = Self.usage.first { $0.command == name }?.usage ?? name
        return .wrongArguments(command: name, usage: usage)
    }
}

/// A kind of fruit a command names.
public enum FruitKind: String, Equatable, Sendable, CaseIterable {
    /// `apple`: the `Apple` entity.
    case apple
    /// `orange`: the `Orange` entity.
    case orange

    /// The entity of the model.
    public var entityName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// A crate as commands name it: `STAND/NUMBER`, such as `Corner/1`.
public struct CrateName: Equatable, Sendable, CustomStringConvertible {
    /// The stand's name.
    public var stand: String
    /// The crate's number within the stand (from 1).
    public var number: Int

    /// Creates a crate name.
    public init(stand: String, number: Int) {
        self.stand = stand
        self.number = number
    }

    /// Reads `STAND/NUMBER`; the stand is everything before the last `/`.
    ///
    /// - Throws: ``FruitStandError/badCrateName(_:)`` for text of another form, or a number
    ///   that is not from 1 to 32767 (crates are numbered in an Integer 16 attribute).
    public init(parsing text: String) throws(FruitStandError) {
        guard let slash = text.lastIndex(of: "/"), slash != text.startIndex,
              let number = Int(text[text.index(after: slash)...]), (1...Int(Int16.max)).contains(number)
        else { throw .badCrateName(text) }
        self.init(stand: String(text[..<slash]), number: number)
    }

    /// `STAND/NUMBER`, as the list shows the crate.
    public var description: String { "\(stand)/\(number)" }
}
