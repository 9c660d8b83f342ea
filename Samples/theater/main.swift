// theater: theaters and movies on the managed-object stack (an SQLite store, a fetched
// results controller, the context's undo manager). Reads commands (interactively, from stdin,
// or from `--script FILE`) and hands each line to a TheaterSession; see Docs/Samples.md.
import Foundation
import Theater

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("theater: \(message)\n".utf8))
    exit(status)
}

let options: TheaterOptions
do {
    options = try TheaterOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 2)
}
if options.showsHelp {
    print(TheaterOptions.usage + "   (without --script: commands from stdin, one per line)")
    print(TheaterSession.helpText)
    exit(0)
}

let session: TheaterSession
do {
    session = try TheaterSession(store: options.store, autosave: options.autosave)
} catch {
    fail(error.description, status: 1)
}

if let path = options.script {
    let script: String
    do {
        script = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        fail("cannot read \(path): \(error.localizedDescription)", status: 1)
    }
    print(session.transcript(of: script))
} else {
    let interactive = isatty(STDIN_FILENO) != 0
    if interactive {
        print("Theater (store: \(session.location.displayName)). Type 'help' for the commands.")
    }
    while !session.isFinished {
        if interactive {
            print("theater> ", terminator: "")
            fflush(nil)   // all streams: naming `stdout` is not concurrency-safe in Swift 6
        }
        guard let line = readLine() else { break }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if !interactive && !trimmed.isEmpty && !trimmed.hasPrefix("#") { print("> " + line) }
        let output = session.execute(line)
        if !output.isEmpty { print(output) }
        fflush(nil)   // each command's output at once, also into a pipe
    }
    let ending = session.finishInput()
    if !ending.isEmpty { print(ending) }
}
