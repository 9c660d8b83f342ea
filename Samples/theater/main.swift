// theater: undo and redo on an observed object graph. Reads commands (interactively, from
// stdin, or from `--script FILE`) and hands each line to a TheaterSession; see Docs/Samples.md.
import Foundation
import Theater

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("theater: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let session: TheaterSession
do {
    session = try TheaterSession()
} catch {
    fail("\(error)", status: 1)
}

switch arguments.first {
case "--script":
    guard arguments.count == 2 else { fail("usage: theater [--script FILE]", status: 2) }
    let script: String
    do {
        script = try String(contentsOfFile: arguments[1], encoding: .utf8)
    } catch {
        fail("cannot read \(arguments[1]): \(error.localizedDescription)", status: 1)
    }
    print(session.transcript(of: script))
case "-h", "--help":
    print("usage: theater [--script FILE]   (without a file: commands from stdin, one per line)")
    print(TheaterSession.helpText)
case nil:
    let interactive = isatty(STDIN_FILENO) != 0
    if interactive {
        print("Home theater editor. Type 'help' for the commands.")
        print("The prompt has no line editing or history: correct with Backspace, not the arrow keys.")
    }
    while !session.isFinished {
        if interactive {
            print("theater> ", terminator: "")
            fflush(nil)   // all streams: naming `stdout` is not concurrency-safe in Swift 6
        }
        guard let line = readLine() else { break }
        if !interactive && !line.trimmingCharacters(in: .whitespaces).isEmpty { print("> " + line) }
        let output = session.execute(line)
        if !output.isEmpty { print(output) }
    }
default:
    fail("unknown argument '\(arguments[0])'; usage: theater [--script FILE]", status: 2)
}
