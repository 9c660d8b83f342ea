// What a bad command line, name or store file is told: each case names the culprit.

import Foundation

/// A command the fruit-stand session could not carry out, or a store it could not open.
///
/// A command that fails changes nothing: the objects, the unsaved changes and the undo history
/// are as they were.
public enum FruitStandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first word is not a command.
    case unknownCommand(String)
    /// The command got the wrong arguments; `usage` shows the right form.
    case wrongArguments(command: String, usage: String)
    /// A quoted word has no closing quote.
    case unterminatedQuote(String)
    /// A fruit kind other than `apple` or `orange` (`fruit` too where any fruit is meant).
    case unknownKind(String, allowed: String)
    /// A radius that is not a positive, finite number.
    case badRadius(String)
    /// A stand name that cannot name a stand (empty, or holding `/`).
    case badStandName(String)
    /// A stand of that name already exists.
    case duplicateStand(String)
    /// No stand has the name; `known` lists the stands.
    case noStand(String, known: [String])
    /// A crate name that is not `STAND/NUMBER`.
    case badCrateName(String)
    /// The stand has no crate of that number; `known` lists its crates.
    case noCrate(String, known: [String])
    /// The predicate of `find` could not be read.
    case badPredicate(String)
    /// The predicate of `find` was read but cannot be evaluated on fruit (an unknown key).
    case predicateFailed(String)
    /// The keys of `sort` cannot order fruit.
    case badSort(String)
    /// `remove-largest` found no fruit of the kind.
    case nothingToRemove(kind: String)
    /// The store refused the save; nothing was written and the changes are kept.
    case saveFailed(String)
    /// The store file could not be opened (not a fruit-stand store, unreadable, another model).
    case unreadableStore(path: String, reason: String)
    /// The sample's data model file could not be found or read.
    case unreadableModel(String)
    /// A command-line option of the program is wrong.
    case badOption(String)

    /// One line naming the problem and the culprit, such as `no stand named 'Nowhere' (stands:
    /// Corner)`; the session prints it after `error: `.
    public var description: String {
        switch self {
        case .unknownCommand(let word):
            return "unknown command '\(word)' (type 'help' for the list)"
        case .wrongArguments(let command, let usage):
            return "wrong arguments for '\(command)'; usage: \(usage)"
        case .unterminatedQuote(let text):
            return "missing closing quote in \(text)"
        case .unknownKind(let word, let allowed):
            return "unknown fruit '\(word)' (\(allowed))"
        case .badRadius(let text):
            return "RADIUS must be a positive number, not '\(text)'"
        case .badStandName(let name):
            return "a stand name must be non-empty and without '/', not '\(name)'"
        case .duplicateStand(let name):
            return "there is already a stand named '\(name)'"
        case .noStand(let name, let known):
            let list = known.isEmpty ? "there are no stands" : "stands: " + known.joined(separator: ", ")
            return "no stand named '\(name)' (\(list))"
        case .badCrateName(let text):
            return "CRATE must be STAND/NUMBER as the list shows it (e.g. Corner/1), not '\(text)'"
        case .noCrate(let label, let known):
            let list = known.isEmpty ? "the stand has no crates" : "crates: " + known.joined(separator: ", ")
            return "no crate \(label) (\(list))"
        case .badPredicate(let message):
            return "bad predicate: \(message)"
        case .predicateFailed(let message):
            return "cannot evaluate the predicate: \(message)"
        case .badSort(let message):
            return "cannot sort: \(message)"
        case .nothingToRemove(let kind):
            return "there are no \(kind)s to remove"
        case .saveFailed(let message):
            return "save failed, nothing written (the changes are kept): \(message)"
        case .unreadableStore(let path, let reason):
            return "cannot open the store \(path): \(reason)"
        case .unreadableModel(let reason):
            return "cannot load the fruit-stand data model: \(reason)"
        case .badOption(let message):
            return message
        }
    }
}

extension FruitStandError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` names the culprit too.
    public var errorDescription: String? { description }
}
