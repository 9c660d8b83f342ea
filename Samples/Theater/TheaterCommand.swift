// Reading one command line: words, quoted titles, and the command each line names.

import Foundation

/// One command of the theater editor, read from a line.
///
/// Indexes are 1-based, as the listing shows them. Titles and values with spaces are quoted
/// with `"` or `'` (`add "The Matrix" 1999 8.7 136`). `find` takes the rest of the line as the
/// predicate, unchanged, so its own quotes are the predicate's.
public enum TheaterCommand: Equatable, Sendable {
    /// `add TITLE YEAR RATING MINUTES [THEATER]`: add a movie to a theater (the current one
    /// when none is named).
    case add(title: String, year: Int, rating: Double, minutes: Int, theater: String? = nil)
    /// `theater add NAME CITY`: add a theater and make it the current one.
    case addTheater(name: String, city: String)
    /// `theater remove NAME`: delete a theater and (cascade) its movies.
    case removeTheater(name: String)
    /// `use THEATER`: the theater `add` adds to.
    case use(theater: String)
    /// `set INDEX KEY VALUE`: set any key of a movie through key-value coding.
    case set(index: Int, key: String, value: String)
    /// `remove INDEX`: remove a movie.
    case remove(index: Int)
    /// `move INDEX THEATER`: move a movie to another theater's program.
    case move(index: Int, theater: String)
    /// `list`: print the listing.
    case list
    /// `find PREDICATE`: print the movies matching a predicate (the rest of the line).
    case find(predicate: String)
    /// `sort KEY [desc] ...`: the order of the movies within each theater (a view setting).
    case sort(keys: [SortKey])
    /// `stats`: collection operators over the program.
    case stats
    /// `undo`: undo the last command.
    case undo
    /// `redo`: redo the last undone command.
    case redo
    /// `save`: write the changes to the store.
    case save
    /// `rollback`: drop the unsaved changes.
    case rollback
    /// `history`: the undo and redo steps by name.
    case history
    /// `help`: the commands.
    case help
    /// `quit`: end the session.
    case quit

    /// A key of `sort` and its direction.
    public struct SortKey: Equatable, Sendable {
        /// The key-value coding key to sort by.
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
        ("theater", "theater add NAME CITY | theater remove NAME", "add a theater (and use it), or delete one with its movies"),
        ("use", "use THEATER", "the theater 'add' adds to"),
        ("add", "add TITLE YEAR RATING MINUTES [THEATER]", "add a movie (quote titles with spaces)"),
        ("set", "set INDEX KEY VALUE", "set any key of a movie (title, year, rating, minutes)"),
        ("remove", "remove INDEX", "remove a movie"),
        ("move", "move INDEX THEATER", "move a movie to another theater"),
        ("list", "list", "show the program"),
        ("find", "find PREDICATE", "show the movies matching a predicate, e.g. year > 2000"),
        ("sort", "sort KEY [desc] ...", "order the movies in each theater by keys"),
        ("stats", "stats", "count, average rating, latest year, total minutes"),
        ("save", "save", "write the changes to the store"),
        ("rollback", "rollback", "drop the unsaved changes"),
        ("undo", "undo", "undo the last command"),
        ("redo", "redo", "redo the last undone command"),
        ("history", "history", "show the undo and redo steps"),
        ("help", "help", "show this help"),
        ("quit", "quit", "leave"),
    ]

    /// Reads a command line.
    ///
    /// - Parameter line: The line, without its newline.
    /// - Returns: The command, or nil for a blank line or a comment (`# ...`).
    /// - Throws: ``TheaterError`` naming the unknown command, the bad argument or the missing
    ///   quote.
    public static func parse(_ line: String) throws(TheaterError) -> TheaterCommand? {
        if let keys = escapeKeys(in: line) { throw .escapeCodes(keys: keys) }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        if name.lowercased() == "find" {
            guard !rest.isEmpty else { throw wrongArguments("find") }
            return .find(predicate: rest)
        }
        let arguments = try words(of: rest)
        return try command(named: name.lowercased(), arguments: arguments, typed: name)
    }

    private static func command(named name: String, arguments: [String],
                                typed: String) throws(TheaterError) -> TheaterCommand {
        func expect(_ count: Int) throws(TheaterError) {
            if arguments.count != count { throw wrongArguments(name) }
        }
        switch name {
        case "add":
            guard arguments.count == 4 || arguments.count == 5 else { throw wrongArguments(name) }
            let year = try integer(arguments[1], "YEAR")
            let rating = try number(arguments[2], "RATING", allowed: TheaterError.ratingAllowed)
            guard Movie.ratingRange.contains(rating) else {
                throw .outOfRange(argument: "RATING", text: arguments[2], allowed: TheaterError.ratingAllowed)
            }
            let minutes = try integer(arguments[3], "MINUTES", allowed: TheaterError.minutesAllowed)
            guard Movie.minutesRange.contains(minutes) else {
                throw .outOfRange(argument: "MINUTES", text: arguments[3], allowed: TheaterError.minutesAllowed)
            }
            return .add(title: arguments[0], year: year, rating: rating, minutes: minutes,
                        theater: arguments.count == 5 ? arguments[4] : nil)
        case "theater":
            switch arguments.first?.lowercased() {
            case "add" where arguments.count == 3:
                return .addTheater(name: arguments[1], city: arguments[2])
            case "remove" where arguments.count == 2:
                return .removeTheater(name: arguments[1])
            default:
                throw wrongArguments(name)
            }
        case "use":
            try expect(1)
            return .use(theater: arguments[0])
        case "set":
            try expect(3)
            return .set(index: try integer(arguments[0], "INDEX"), key: arguments[1], value: arguments[2])
        case "remove":
            try expect(1)
            return .remove(index: try integer(arguments[0], "INDEX"))
        case "move":
            try expect(2)
            return .move(index: try integer(arguments[0], "INDEX"), theater: arguments[1])
        case "sort":
            return .sort(keys: try sortKeys(arguments))
        case "list", "stats", "undo", "redo", "save", "rollback", "history", "help", "quit":
            try expect(0)
            let simple: [String: TheaterCommand] = [
                "list": .list, "stats": .stats, "undo": .undo, "redo": .redo,
                "save": .save, "rollback": .rollback,
                "history": .history, "help": .help, "quit": .quit,
            ]
            return simple[name] ?? .help
        default:
            throw .unknownCommand(typed)
        }
    }

    /// `KEY [asc|desc] KEY [asc|desc] ...`
    private static func sortKeys(_ arguments: [String]) throws(TheaterError) -> [SortKey] {
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

    /// The keys whose terminal escape codes `line` holds (`"\u{1B}[A"` is the up arrow), or
    /// nil when it holds none.
    ///
    /// A terminal without line editing passes the codes of the arrow, Home, End, Delete and
    /// Page keys through as text: ESC `[` or ESC `O`, parameter bytes, then one final letter
    /// or `~`. Known codes are named (`up arrow`); others are shown with ESC spelled out.
    static func escapeKeys(in line: String) -> [String]? {
        let scalars = Array(line.unicodeScalars)
        guard scalars.contains("\u{1B}") else { return nil }
        var keys: [String] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\u{1B}" else {
                index += 1
                continue
            }
            var end = index + 1
            if end < scalars.count, scalars[end] == "[" || scalars[end] == "O" {
                end += 1
                while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
                if end < scalars.count { end += 1 }   // the final byte
            }
            let code = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            let name = keyNames[code] ?? "ESC" + code
            if !keys.contains(name) { keys.append(name) }
            index = end
        }
        return keys
    }

    /// The names of the escape codes (after ESC) of the usual editing keys.
    private static let keyNames: [String: String] = [
        "[A": "up arrow", "[B": "down arrow", "[C": "right arrow", "[D": "left arrow",
        "OA": "up arrow", "OB": "down arrow", "OC": "right arrow", "OD": "left arrow",
        "[H": "Home", "[F": "End", "OH": "Home", "OF": "End", "[1~": "Home", "[4~": "End",
        "[2~": "Insert", "[3~": "Delete", "[5~": "Page Up", "[6~": "Page Down", "": "Esc",
    ]

    /// Splits `text` into words; `"..."` and `'...'` make one word that may hold spaces.
    static func words(of text: String) throws(TheaterError) -> [String] {
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

    private static func integer(_ text: String, _ argument: String,
                                allowed: String = TheaterError.wholeNumbers) throws(TheaterError) -> Int {
        if let value = Int(text) { return value }
        if TheaterError.isWholeNumberLiteral(text) {
            throw .outOfRange(argument: argument, text: text, allowed: allowed)
        }
        throw .notANumber(argument: argument, text: text)
    }

    private static func number(_ text: String, _ argument: String,
                               allowed: String = TheaterError.finiteNumbers) throws(TheaterError) -> Double {
        if let value = Double(text), value.isFinite { return value }
        if TheaterError.overflowsDouble(text) {
            throw .outOfRange(argument: argument, text: text, allowed: allowed)
        }
        throw .notANumber(argument: argument, text: text)
    }

    private static func wrongArguments(_ name: String) -> TheaterError {
        let usage = Self.usage.first { $0.command == name }?.usage ?? name
        return .wrongArguments(command: name, usage: usage)
    }
}
