// Runs the programs in rounds, alternating them (the order rotates each round so that no
// program always follows the same one), and collects their figures.

import Foundation

/// How to start one program.
public struct PeerCommand: Sendable {
    public var program: PeerProgram
    public var executable: String
    public var arguments: [String]

    public init(program: PeerProgram, executable: String, arguments: [String]) {
        self.program = program
        self.executable = executable
        self.arguments = arguments
    }
}

/// What went wrong with one program, in words for the report.
public struct PeerFailure: Sendable, Equatable {
    public var program: PeerProgram
    public var reason: String
    public init(program: PeerProgram, reason: String) {
        self.program = program
        self.reason = reason
    }
}

/// Everything measured: per program and workload, one figure per round.
public struct PeerResults: Sendable {
    /// Nanoseconds per operation: `figures[programID][workload]`, one per successful round.
    public var figures: [String: [String: [Double]]] = [:]
    /// Notes by program id and workload.
    public var notes: [String: [String: String]] = [:]
    /// The fingerprint line of each program's last run.
    public var fingerprints: [String: String] = [:]
    /// Programs that could not be built or whose runs failed.
    public var failures: [PeerFailure] = []
    /// Toolchain descriptions that the programs printed.
    public var toolchains: [String] = []
    /// The programs that ran, in report order.
    public var programs: [PeerProgram] = []
    public var rounds = 0
    public var quick = false

    public init() {}

    /// The median of `figures[program][workload]`, with the smallest and largest figure.
    public func summary(_ program: String, _ workload: String) -> (median: Double, minimum: Double, maximum: Double)? {
        guard let values = figures[program]?[workload], !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return (median, sorted[0], sorted[sorted.count - 1])
    }
}

/// Runs the commands and gathers their figures.
public struct PeerRunner {
    public var commands: [PeerCommand]
    public var rounds: Int
    public var quick: Bool
    /// Extra arguments for every program (`--min-time`, `--filter`).
    public var extraArguments: [String]
    /// Called with a line of progress (the executable prints it).
    public var log: (String) -> Void

    public init(commands: [PeerCommand], rounds: Int, quick: Bool, extraArguments: [String] = [],
                log: @escaping (String) -> Void = { _ in }) {
        self.commands = commands
        self.rounds = rounds
        self.quick = quick
        self.extraArguments = extraArguments
        self.log = log
    }

    /// Runs every command `rounds` times, alternating; a program that fails once (crash, bad
    /// fingerprint) is reported and not run again.
    public func run(failures known: [PeerFailure] = []) -> PeerResults {
        var results = PeerResults()
        results.rounds = rounds
        results.quick = quick
        results.failures = known
        results.programs = PeerProgram.all.filter { program in commands.contains { $0.program == program } }
        var failed = Set<String>()
        for round in 0..<rounds {
            let rotation = commands.isEmpty ? 0 : round % commands.count
            for command in commands[rotation...] + commands[..<rotation] where !failed.contains(command.program.id) {
                let id = command.program.id
                log("round \(round + 1)/\(rounds): \(id)")
                switch Self.execute(command, extraArguments: (quick ? ["--quick"] : []) + extraArguments) {
                case .failure(let reason):
                    failed.insert(id)
                    results.failures.append(PeerFailure(program: command.program, reason: reason.description))
                    log("  failed: \(reason)")
                case .success(let output):
                    guard output.peer == id, output.fingerprintMatches else {
                        failed.insert(id)
                        let printed = output.fingerprint ?? "no fingerprint line"
                        results.failures.append(PeerFailure(program: command.program,
                                                            reason: "wrong fingerprint: \(printed)"))
                        log("  fingerprint mismatch: \(printed)")
                        continue
                    }
                    log("  \(output.fingerprint ?? "")")
                    results.fingerprints[id] = output.fingerprint
                    for (workload, value) in output.results { results.figures[id, default: [:]][workload, default: []].append(value) }
                    results.notes[id, default: [:]].merge(output.notes) { _, new in new }
                    for toolchain in output.toolchains where !results.toolchains.contains(toolchain) {
                        results.toolchains.append(toolchain)
                    }
                }
            }
        }
        results.programs.removeAll { program in results.figures[program.id] == nil }
        return results
    }

    /// Runs one program to its end and parses its output.
    static func execute(_ command: PeerCommand, extraArguments: [String]) -> Result<PeerRunOutput, PeerError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments + extraArguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(PeerError("cannot start \(command.executable): \(error)"))
        }
        // Read both pipes to their ends before waiting, so that a full pipe cannot block the
        // program (standard error in the background).
        let errorText = ErrorCollector()
        let reader = Thread { errorText.store(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let last = text.split(separator: "\n").last.map(String.init) ?? ""
            return .failure(PeerError("exit status \(process.terminationStatus) (\(errorText.text(waiting: true)) \(last))"))
        }
        return .success(PeerRunOutput(parsing: text))
    }
}

/// A failure in words.
public struct PeerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Standard error of a child process, read on another thread.
private final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written once by the reader thread before `done` is signalled, and
    // read only after waiting for that signal.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    func store(_ value: Data) {
        data = value
        done.signal()
    }

    func text(waiting: Bool) -> String {
        if waiting { done.wait() }
        return String(decoding: data.suffix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
