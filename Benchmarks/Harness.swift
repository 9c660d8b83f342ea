// The benchmark harness. Every workload runs beside a baseline in the same process, and its
// line says what was measured, against what, the target and whether it was met:
//
//     name  ns/op  baseline  baseline-ns/op  ratio  target  met|missed|-  (min …; note)
//
// Adding a workload: in the `register…Benchmarks(in:)` function of its layer's file
// (Benchmarks/<Layer>Benchmarks.swift), build the fixtures, then
//
//     suite.add("kvc_get", baseline: "direct_get", target: .ratio(8),
//               note: "optional free text (GNUstep figures, what one operation is)",
//               body: { n in for _ in 0..<n { blackHole(try! person.value(forKey: key)) } },
//               baseline: { n in for _ in 0..<n { blackHole(directGetName(person)) } })
//
// - `target` is required, so every workload says what it must reach:
//   `.ratio(8)`: the median ns/op is at most 8× the baseline's median;
//   `.nanoseconds(600)`: the median is at most 600 ns per operation;
//   `.none`: reported only (the note says what to compare it with).
// - `body` and `baseline` each run their operation `n` times. Build fixtures outside them (or
//   lazily on first call, so filtered-out workloads cost nothing) and pass every result to
//   `blackHole`, so that the optimiser cannot drop the work.
// - `operationsPerIteration`: when one run of the operation covers many (100,000 objects
//   filtered), so that ns/op is per object.
// - Names: `<layer>_<what>` (`kvc_`, `kvo_`, `undo_`, `pred_`, `sort_`), so `--filter` selects
//   a layer.
//
// Measurement: one warm-up call, then the iteration count is grown until one run lasts at least
// `minimumRunTime`; the workload and its baseline are then timed `repetitions` times each,
// alternately, so that both see the same machine load (ContinuousClock). Each side reports the
// median of its repetitions (and the minimum); the ratio and the target use the medians, so one
// lucky repetition cannot meet a target. `--quick` shortens both for a smoke run.

import Foundation

/// Keeps a value alive in a way the optimiser cannot see through.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// `blackHole` for `Any?` results, without generic metadata look-ups on each call.
@inline(never) @_optimize(none)
public func blackHole(_ value: Any?) {
    withExtendedLifetime(value) {}
}

/// `blackHole` for strings.
@inline(never) @_optimize(none)
public func blackHole(_ value: String?) {
    withExtendedLifetime(value) {}
}

/// Returns its argument through a non-inlinable call, hiding constants from the optimiser.
@inline(never) @_optimize(none)
public func identity<T>(_ value: T) -> T { value }

/// One measured body: runs its operation `iterations` times.
typealias Body = (_ iterations: Int) -> Void

/// What a workload must reach; checked against the medians.
enum BenchmarkTarget: Equatable, Sendable {
    /// The workload's ns/op is at most `bound` times its baseline's.
    case ratio(Double)
    /// The workload's ns/op is at most `bound` nanoseconds.
    case nanoseconds(Double)
    /// No target: the line is reported only.
    case none

    /// `≤ 8×`, `≤ 600 ns/op`, or `-` for no target.
    var text: String {
        switch self {
        case .ratio(let bound): return "≤ \(Self.format(bound))×"
        case .nanoseconds(let bound): return "≤ \(Self.format(bound)) ns/op"
        case .none: return "-"
        }
    }

    /// Whether a measurement meets the target; `nil` when there is none.
    func isMet(nanosecondsPerOperation: Double, ratio: Double) -> Bool? {
        switch self {
        case .ratio(let bound): return ratio <= bound
        case .nanoseconds(let bound): return nanosecondsPerOperation <= bound
        case .none: return nil
        }
    }

    /// `8`, `0.1`, `600`: integers without a fraction.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension BenchmarkTarget: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, bound, text }

    /// `{"kind": "ratio", "bound": 8, "text": "≤ 8×"}`; `null` for no target.
    func encode(to encoder: any Encoder) throws {
        let kind: String, bound: Double
        switch self {
        case .ratio(let value): (kind, bound) = ("ratio", value)
        case .nanoseconds(let value): (kind, bound) = ("nanosecondsPerOperation", value)
        case .none:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(bound, forKey: .bound)
        try container.encode(text, forKey: .text)
    }
}

/// A workload and the baseline it is compared with.
struct Workload {
    var name: String
    var baselineName: String
    /// How many operations one iteration stands for (e.g. 100,000 objects evaluated per call),
    /// so that ns/op is reported per operation.
    var operationsPerIteration: Int
    var target: BenchmarkTarget
    /// Free text printed at the end of the line.
    var note: String
    var body: Body
    var baseline: Body
}

/// The result of measuring one workload and its baseline (one line; one JSON object).
struct Measurement: Encodable {
    var name: String
    /// The median over the repetitions.
    var nanosecondsPerOperation: Double
    var minimumNanosecondsPerOperation: Double
    var baseline: String
    /// The baseline's median over the repetitions.
    var baselineNanosecondsPerOperation: Double
    var baselineMinimumNanosecondsPerOperation: Double
    /// The workload's median over the baseline's median.
    var ratio: Double
    var target: BenchmarkTarget
    /// Whether the target was met; `nil` (JSON `null`) when there is none.
    var met: Bool?
    var repetitions: Int
    var note: String

    private enum CodingKeys: String, CodingKey {
        case name, nanosecondsPerOperation, minimumNanosecondsPerOperation, baseline
        case baselineNanosecondsPerOperation, baselineMinimumNanosecondsPerOperation
        case ratio, target, met, repetitions, note
    }

    /// Every key is written; `target` and `met` are `null` for a workload without a target.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(nanosecondsPerOperation, forKey: .nanosecondsPerOperation)
        try container.encode(minimumNanosecondsPerOperation, forKey: .minimumNanosecondsPerOperation)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(baselineNanosecondsPerOperation, forKey: .baselineNanosecondsPerOperation)
        try container.encode(baselineMinimumNanosecondsPerOperation,
                             forKey: .baselineMinimumNanosecondsPerOperation)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(target, forKey: .target)
        try container.encode(met, forKey: .met)
        try container.encode(repetitions, forKey: .repetitions)
        try container.encode(note, forKey: .note)
    }
}

/// Collects workloads; each benchmark file adds its own through `add`.
final class BenchmarkSuite {
    private(set) var workloads: [Workload] = []
    /// The shortest timed run of one repetition.
    var minimumRunTime: Duration = .milliseconds(300)
    /// Timed runs per side; the median is reported.
    var repetitions = 5

    /// Registers a workload with its baseline and target. See the top of this file.
    func add(_ name: String, baseline baselineName: String, operationsPerIteration: Int = 1,
             target: BenchmarkTarget, note: String = "",
             body: @escaping Body, baseline: @escaping Body) {
        precondition(!workloads.contains { $0.name == name }, "benchmark '\(name)' is registered twice")
        precondition(operationsPerIteration > 0, "benchmark '\(name)': operationsPerIteration must be positive")
        workloads.append(Workload(name: name, baselineName: baselineName,
                                  operationsPerIteration: operationsPerIteration, target: target,
                                  note: note, body: body, baseline: baseline))
    }

    /// The workloads whose names contain `filter` (all when nil), in registration order.
    func workloads(matching filter: String?) -> [Workload] {
        workloads.filter { workload in filter.map { workload.name.contains($0) } ?? true }
    }

    /// Seconds that `body` takes for `iterations` iterations.
    private func seconds(_ body: Body, _ iterations: Int) -> Double {
        let duration = ContinuousClock().measure { body(iterations) }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Finds an iteration count for which `body` runs at least `minimumRunTime`.
    private func calibrate(_ body: Body) -> Int {
        let target = Double(minimumRunTime.components.seconds)
            + Double(minimumRunTime.components.attoseconds) * 1e-18
        _ = seconds(body, 1)  // warm-up
        var iterations = 1
        var elapsed = seconds(body, iterations)
        while elapsed < target / 10, iterations < 1 << 40 {
            iterations *= elapsed < target / 1000 ? 10 : 2
            elapsed = seconds(body, iterations)
        }
        let scaled = (Double(iterations) * target / max(elapsed, 1e-9)).rounded(.up)
        return max(iterations, Int(min(scaled, Double(1 << 40))))
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Times a workload and its baseline, alternating their repetitions so that both see the
    /// same machine load.
    func measure(_ workload: Workload) -> Measurement {
        let bodyIterations = calibrate(workload.body)
        let baselineIterations = calibrate(workload.baseline)
        let operations = Double(workload.operationsPerIteration)
        var bodyTimes: [Double] = []
        var baselineTimes: [Double] = []
        for _ in 0..<max(repetitions, 1) {
            bodyTimes.append(seconds(workload.body, bodyIterations) * 1e9 / (Double(bodyIterations) * operations))
            baselineTimes.append(seconds(workload.baseline, baselineIterations) * 1e9
                                 / (Double(baselineIterations) * operations))
        }
        let value = Self.median(bodyTimes)
        let base = Self.median(baselineTimes)
        let ratio = base > 0 ? value / base : .infinity
        return Measurement(name: workload.name, nanosecondsPerOperation: value,
                           minimumNanosecondsPerOperation: bodyTimes.min() ?? value,
                           baseline: workload.baselineName, baselineNanosecondsPerOperation: base,
                           baselineMinimumNanosecondsPerOperation: baselineTimes.min() ?? base,
                           ratio: ratio, target: workload.target,
                           met: workload.target.isMet(nanosecondsPerOperation: value, ratio: ratio),
                           repetitions: bodyTimes.count, note: workload.note)
    }

    /// Measures every workload whose name contains `filter` (all when nil), printing one line
    /// each as soon as it is measured.
    func run(filter: String?) -> [Measurement] {
        workloads(matching: filter).map { workload in
            let result = measure(workload)
            print(Self.format(result))
            return result
        }
    }

    /// The column titles, aligned with ``format(_:)``.
    static let header = pad("name", 28) + "  " + pad("ns/op", 12) + "  " + pad("baseline", 28) + "  "
        + pad("baseline-ns/op", 14) + "  " + pad("ratio", 8) + "  " + pad("target", 12) + "  " + "result"

    /// One line: medians, ratio, target, met/missed, then the minimums and the note.
    static func format(_ m: Measurement) -> String {
        let result = m.met.map { $0 ? "met" : "missed" } ?? "-"
        var line = pad(m.name, 28) + "  " + pad(number(m.nanosecondsPerOperation), 12) + "  "
            + pad(m.baseline, 28) + "  " + pad(number(m.baselineNanosecondsPerOperation), 14)
            + "  " + pad(String(format: "%.2f", m.ratio), 8) + "  " + pad(m.target.text, 12)
            + "  " + pad(result, 6)
        line += "  (min \(number(m.minimumNanosecondsPerOperation)) / "
            + "\(number(m.baselineMinimumNanosecondsPerOperation))"
        if !m.note.isEmpty { line += "; \(m.note)" }
        return line + ")"
    }

    /// One line of `--list`: name, baseline, target and note, without measuring.
    static func listing(_ w: Workload) -> String {
        let start = pad(w.name, 28) + "  " + pad(w.baselineName, 28) + "  "
        return w.note.isEmpty ? start + w.target.text : start + pad(w.target.text, 12) + "  " + w.note
    }

    /// The closing summary: how many targets were met and which were missed.
    static func summary(_ results: [Measurement], repetitions: Int) -> String {
        let missed = results.filter { $0.met == false }.map(\.name)
        let met = results.filter { $0.met == true }.count
        var text = "\(results.count) workloads (median of \(repetitions) repetitions): \(met) met, "
            + "\(missed.count) missed, \(results.count - met - missed.count) without a target"
        if !missed.isEmpty { text += "; missed: " + missed.joined(separator: ", ") }
        return text
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    private static func number(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }
}
