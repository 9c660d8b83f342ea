// accelerometer-filter: replays an accelerometer recording through key-value observation.
// Parses the arguments and calls the AccelerometerFilter library; see Docs/Samples.md.
import AccelerometerFilter
import Foundation

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("accelerometer-filter: \(message)\n".utf8))
    exit(status)
}

let action: FilterCommandOptions.Action
do {
    action = try FilterCommandOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", status: 2)
}

switch action {
case .help:
    print(FilterCommandOptions.usage)
case let .run(options):
    do {
        // Progress of a --realtime replay goes to stderr: on a terminal one line redrawn in place,
        // otherwise one line each time.
        let terminal = isatty(STDERR_FILENO) != 0
        let report = try FilterCommand.run(options) { line, isLast in
            let text = terminal ? "\r\u{1B}[K" + line + (isLast ? "\n" : "") : line + "\n"
            FileHandle.standardError.write(Data(text.utf8))
        }
        print(report, terminator: "")
    } catch {
        fail("\(error)", status: 1)
    }
}
