// fruit-stand: undo and redo on a persisted object graph (stands, crates, apples and oranges
// in an SQLite store). Reads commands (interactively, from stdin, or from `--script FILE`) and
// hands each line to a FruitStandSession; see Docs/Samples.md.
import Foundation
import FruitStand

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("fruit-stand: \(message)\n".utf8))
    exit(status)
}

let options: FruitStandOptions
do {
    options = try FruitStandOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 2)
}
if options.showsHelp {
    print(FruitStandOptions.usage + "   (without --script: commands from stdin, one per line)")
    print(FruitStandSession.helpText)
    exit(0)
}

let session: FruitStandSession
do {
    session = try FruitStandSession(store: options.store, autosave: options.autosave)
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
        print("Fruit stand (store: \(session.location.displayName)). Type 'help' for the commands.")
    }
    while !session.isFinished {
        if interactive {
            print("fruit-stand> ", terminator: "")
            fflush(nil)   // all streams: naming `stdout` is not concurrency-safe in Swift 6
        }
        guard let line = readLine() else { break }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if !interactive && !trimmed.isEmpty && !trimmed.hasPrefix("#") { print("> " + line) }
        let output = session.execute(line)
        if !output.isEmpty { print(output) }
    }
    let ending = session.finishInput()
    if !ending.isEmpty { print(ending) }
}
