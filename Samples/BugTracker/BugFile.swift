// The bug tracker's file format: a header, then one bug per line, tab-separated.
import Foundation

/// The contents of a bug file, read whole and written whole.
///
/// ```
/// bug-tracker 1
/// uuid 0C3F5A4E-9B1D-4E55-8B7A-2B2F0A3C9D11
/// next 4
/// 1	1	open	Crash when saving
/// 3	2	fixed	Help text has a typo
/// ```
///
/// Each bug line holds its number (the store's reference object), its version (raised by
/// every save that changes it: the optimistic-locking version), `open` or `fixed`, and its
/// title with backslash, tab and line breaks escaped (`\\`, `\t`, `\n`, `\r`). `next` is the
/// next number to give out: numbers are reserved when a tracker obtains permanent IDs, so two
/// trackers adding bugs at the same time never pick the same number.
struct BugFile: Equatable {
    /// One bug as the file keeps it.
    struct Line: Equatable {
        var number: Int64
        var version: Int64
        var isFixed: Bool
        var title: String
    }

    static let firstLine = "bug-tracker 1"

    /// The largest bug number and version a file may hold (2^53): far beyond any real tracker,
    /// and low enough that reserving numbers and raising versions can never overflow.
    static let largestNumber: Int64 = 1 << 53

    var uuid: String
    var next: Int64 = 1
    /// The bugs, in number order.
    var bugs: [Line] = []

    /// The bug with a number, if the file has it.
    func line(numbered number: Int64) -> Line? {
        bugs.first { $0.number == number }
    }

    /// Reads a file's text.
    ///
    /// - Throws: ``BugTrackerError/damagedFile(path:line:reason:)`` naming the line at fault.
    init(text: String, path: String) throws {
        // Lines end with LF, or CRLF when an editor wrote them (one `Character` in Swift; a
        // title's own CR is escaped).
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        if lines.last == "" { lines.removeLast() }
        func damaged(_ index: Int, _ reason: String) -> BugTrackerError {
            .damagedFile(path: path, line: index + 1, reason: reason)
        }
        guard lines.count >= 3, lines[0] == Self.firstLine else { throw damaged(0, "not a bug-tracker file (it should start with '\(Self.firstLine)')") }
        guard lines[1].hasPrefix("uuid "), let uuid = UUID(uuidString: String(lines[1].dropFirst(5))) else {
            throw damaged(1, "expected 'uuid' and a UUID")
        }
        guard lines[2].hasPrefix("next "), let next = Int64(lines[2].dropFirst(5)), next > 0 else {
            throw damaged(2, "expected 'next' and a positive number")
        }
        guard next <= Self.largestNumber else {
            throw damaged(2, "'next' is \(next); a bug file counts at most to \(Self.largestNumber)")
        }
        self.uuid = uuid.uuidString
        self.next = next
        var previous: Int64 = 0
        for index in 3..<lines.count {
            let fields = lines[index].split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let number = Int64(fields[0]), let version = Int64(fields[1]),
                  fields[2] == "open" || fields[2] == "fixed" else {
                throw damaged(index, "expected number, version, open or fixed, and a title, separated by tabs")
            }
            guard number > previous, number < next, version > 0 else {
                throw damaged(index, "bug numbers must rise, stay below 'next' and have a positive version")
            }
            guard version < Self.largestNumber else {
                throw damaged(index, "the version \(version) is beyond \(Self.largestNumber)")
            }
            previous = number
            bugs.append(Line(number: number, version: version, isFixed: fields[2] == "fixed", title: Self.unescape(fields[3])))
        }
    }

    /// A new, empty file.
    init(uuid: String) {
        self.uuid = uuid
    }

    /// The file's text.
    var text: String {
        var text = "\(Self.firstLine)\nuuid \(uuid)\nnext \(next)\n"
        for bug in bugs {
            text += "\(bug.number)\t\(bug.version)\t\(bug.isFixed ? "fixed" : "open")\t\(Self.escape(bug.title))\n"
        }
        return text
    }

    static func escape(_ title: String) -> String {
        var result = ""
        for character in title {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\r\n": result += "\\r\\n"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescape<Text: StringProtocol>(_ text: Text) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
