// bug-tracker: bugs in a plain text file, through a custom incremental store. Reads commands
// (interactively, from stdin, or from `--script FILE`); see Docs/Samples.md and Docs/Stores.md.
import Foundation
import BugTracker

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("bug-tracker: \(message)\n".utf8))
    exit(status)
}

let usage = "usage: bug-tracker [--file PATH] [--trace] [--script FILE]   (default file: bugs.txt)"
var file = "bugs.txt"
var tracing = false
var script: String?
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    switch argument {
    case "--file":
        guard let path = arguments.popFirst() else { fail(usage, status: 2) }
        file = path
    case "--trace":
        tracing = true
    case "--script":
        guard let path = arguments.popFirst() else { fail(usage, status: 2) }
        script = path
    case "-h", "--help":
        print(usage)
        print(BugTrackerSession.helpText)
        exit(0)
    default:
        fail("unknown argument '\(argument)'; \(usage)", status: 2)
    }
}

let session: BugTrackerSession
do {
    session = try BugTrackerSession(file: URL(fileURLWithPath: file), tracing: tracing)
} catch {
    fail(error.localizedDescription, status: 1)
}

if let script {
    let text: String
    do {
        text = try String(contentsOfFile: script, encoding: .utf8)
    } catch {
        fail("cannot read \(script): \(error.localizedDescription)", status: 1)
    }
    print(session.transcript(of: text))
} else {
    let interactive = isatty(STDIN_FILENO) != 0
    if interactive { print("Bug tracker on \(file). Type 'help' for the commands.") }
    while !session.isFinished {
        if interactive {
            print("bugs> ", terminator: "")
            fflush(nil)   // all streams: naming `stdout` is not concurrency-safe in Swift 6
        }
        guard let line = readLine() else { break }
        if !interactive && !line.trimmingCharacters(in: .whitespaces).isEmpty { print("> " + line) }
        let output = session.execute(line)
        if !output.isEmpty { print(output) }
    }
}
