// The machine and the toolchains, for the report's header.

import Foundation

/// Where the figures were measured.
public struct PeerMachine: Sendable {
    public var cpu: String
    public var cores: Int
    public var memory: String
    public var system: String
    public var loadAtStart: String
    public var loadAtEnd: String = ""
    public var swiftVersion: String
    public var date: String

    /// Reads /proc (Linux) and `swift --version`; unknown fields say "unknown".
    public static func current(swift: String = "swift") -> PeerMachine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let kilobytes = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Double($0) }
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let prettyName = osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let swiftVersion = firstLine(of: [swift, "--version"]) ?? "unknown Swift"
        let formatter = ISO8601DateFormatter()
        return PeerMachine(
            cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            memory: kilobytes.map { String(format: "%.0f GB", $0 / 1_048_576) } ?? "unknown memory",
            system: [prettyName, kernel.map { "Linux \($0)" }].compactMap { $0 }.joined(separator: ", "),
            loadAtStart: loadAverage(), swiftVersion: swiftVersion, date: formatter.string(from: Date()))
    }

    /// The 1, 5 and 15 minute load averages.
    public static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The first line a command prints, through `/usr/bin/env`; nil when it cannot run.
    static func firstLine(of command: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
