// The report as markdown: the machine, the toolchains, the figures table, the ratio table and
// the notes.

import PeerSupport

public enum PeerMarkdown {
    /// The whole report. `chart` is the relative path of the SVG to show above the table (none
    /// when nil); `label` is free text about the conditions ("machine busy").
    public static func report(_ results: PeerResults, machine: PeerMachine, label: String?, chart: String?) -> String {
        var lines: [String] = []
        var conditions = "\(results.rounds) round\(results.rounds == 1 ? "" : "s"), the programs alternating"
        conditions += results.quick ? "; QUICK MODE (tiny repetition counts): the figures mean nothing"
            : "; each figure is the best of 3 repetitions of at least 0.5 s"
        lines.append("Measured \(machine.date) on \(machine.cpu), \(machine.cores) cores, \(machine.memory), "
                     + "\(machine.system). Load average at start \(machine.loadAtStart), at end \(machine.loadAtEnd)."
                     + (label.map { " **\($0)**" } ?? ""))
        lines.append("")
        lines.append("Toolchains: \(machine.swiftVersion) (Observation and swift-foundation come with it)"
                     + results.toolchains.map { "; \($0)" }.joined() + ".")
        lines.append("")
        lines.append("\(conditions). Each cell: the median over the rounds, per operation, and (smallest–largest).")
        lines.append("Every program printed the data set's fingerprint, checked: `\(PeerFingerprint.expected.line)`.")
        lines.append("")
        if let chart { lines += ["![ObjectGraph and its peers, ns per operation, log scale](\(chart))", ""] }
        lines += figuresTable(results)
        lines.append("")
        let ratios = ratioTable(results)
        if !ratios.isEmpty {
            lines.append("Each ObjectGraph (OG) figure divided by each peer's (below 1: ObjectGraph is faster):")
            lines.append("")
            lines += ratios
            lines.append("")
        }
        lines += notes(results)
        return lines.joined(separator: "\n") + "\n"
    }

    static func figuresTable(_ results: PeerResults) -> [String] {
        let programs = results.programs
        var lines = ["| workload | one operation | " + programs.map(\.label).joined(separator: " | ") + " |",
                     "|---|---|" + String(repeating: "---|", count: programs.count)]
        for workload in PeerWorkload.all {
            let cells = programs.map { program -> String in
                guard let s = results.summary(program.id, workload.name) else { return "–" }
                if results.rounds < 2 { return PeerFormatting.duration(s.median) }
                return PeerFormatting.duration(s.median) + " (" + PeerFormatting.range(s.minimum, s.maximum) + ")"
            }
            guard cells.contains(where: { $0 != "–" }) else { continue }
            lines.append("| `\(workload.name)` | \(workload.operation) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The (ObjectGraph program, peer) pairs that share at least one workload.
    static func ratioColumns(_ results: PeerResults) -> [(PeerProgram, PeerProgram)] {
        let own = results.programs.filter(\.isObjectGraph)
        let peers = results.programs.filter { !$0.isObjectGraph }
        return own.flatMap { mine in peers.map { (mine, $0) } }.filter { mine, peer in
            PeerWorkload.all.contains { results.summary(mine.id, $0.name) != nil && results.summary(peer.id, $0.name) != nil }
        }
    }

    static func ratioTable(_ results: PeerResults) -> [String] {
        let columns = ratioColumns(results)
        guard !columns.isEmpty else { return [] }
        var lines = ["| workload | " + columns.map { "\($0.0.shortLabel) ÷ \($0.1.shortLabel)" }.joined(separator: " | ") + " |",
                     "|---|" + String(repeating: "---|", count: columns.count)]
        for workload in PeerWorkload.all {
            let cells = columns.map { mine, peer -> String in
                guard let a = results.summary(mine.id, workload.name), let b = results.summary(peer.id, workload.name),
                      b.median > 0 else { return "–" }
                return PeerFormatting.ratio(a.median / b.median)
            }
            guard cells.contains(where: { $0 != "–" }) else { continue }
            lines.append("| `\(workload.name)` | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    static func notes(_ results: PeerResults) -> [String] {
        var lines: [String] = []
        for program in results.programs {
            for workload in PeerWorkload.all where results.summary(program.id, workload.name) != nil {
                if let note = results.notes[program.id]?[workload.name] {
                    lines.append("- \(program.label), `\(workload.name)`: \(note)")
                }
            }
        }
        for failure in results.failures {
            lines.append("- **Missing: \(failure.program.label)**: \(failure.reason)")
        }
        return lines.isEmpty ? [] : ["Notes:", ""] + lines
    }
}
