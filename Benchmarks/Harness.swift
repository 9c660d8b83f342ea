// A small benchmark harness: each workload runs beside its baseline in the same process and
// prints `name  ns/op  baseline  baseline-ns/op  ratio`.
//
// Measurement: one warm-up call, then the iteration count is grown until one run takes at least
// `minimumRunTime`; the workload and its baseline are then timed `repetitions` times each,
// alternately, with ContinuousClock, and the best (minimum) time of each is kept. Results go through `blackHole` so the optimiser cannot drop them.

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

/// A workload and the baseline it is compared with.
struct Workload {
    var name: String
    var baselineName: String
    /// How many operations one iteration stands for (e.g. 100,000 objects evaluated per call),
    /// so that ns/op is reported per operation.
    var operationsPerIteration: Int
    var body: Body
    var baseline: Body
    /// Optional note printed after the line (e.g. a target ratio).
    var note: String
}

/// The result of measuring one workload and its baseline.
struct Measurement: Codable {
    var name: String
    var nanosecondsPerOperation: Double
    var baseline: String
    var baselineNanosecondsPerOperation: Double
    var ratio: Double
    var note: String
}

/// Collects workloads; each benchmark file adds its own through `add`.
final class BenchmarkSuite {
    private(set) var workloads: [Workload] = []
    var minimumRunTime: Duration = .milliseconds(300)
    var repetitions = 5

    /// Registers a workload with its baseline.
    func add(_ name: String, baseline baselineName: String, operationsPerIteration: Int = 1,
             note: String = "", body: @escaping Body, baseline: @escaping Body) {
        workloads.append(Workload(name: name, baselineName: baselineName,
                                  operationsPerIteration: operationsPerIteration,
                                  body: body, baseline: baseline, note: note))
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

    /// Times a workload and its baseline, alternating their repetitions so that both see the
    /// same machine load, and keeps the best time of each.
    ///
    /// - Returns: Nanoseconds per operation of the workload and of the baseline.
    func measure(_ workload: Workload) -> (Double, Double) {
        let bodyIterations = calibrate(workload.body)
        let baselineIterations = calibrate(workload.baseline)
        var bestBody = Double.infinity
        var bestBaseline = Double.infinity
        for _ in 0..<repetitions {
            bestBody = min(bestBody, seconds(workload.body, bodyIterations))
            bestBaseline = min(bestBaseline, seconds(workload.baseline, baselineIterations))
        }
        let operations = Double(workload.operationsPerIteration)
        return (bestBody * 1e9 / (Double(bodyIterations) * operations),
                bestBaseline * 1e9 / (Double(baselineIterations) * operations))
    }

    /// Runs every workload whose name contains `filter` (all when nil) and prints one line each.
    func run(filter: String?) -> [Measurement] {
        var results: [Measurement] = []
        for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
            let (value, base) = measure(workload)
            let result = Measurement(name: workload.name, nanosecondsPerOperation: value,
                                     baseline: workload.baselineName,
                                     baselineNanosecondsPerOperation: base,
                                     ratio: base > 0 ? value / base : .infinity, note: workload.note)
            print(Self.format(result))
            results.append(result)
        }
        return results
    }

    static func format(_ m: Measurement) -> String {
        func pad(_ s: String, _ width: Int) -> String {
            s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
        }
        func number(_ value: Double) -> String {
            value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
        }
        var line = pad(m.name, 28) + "  " + pad(number(m.nanosecondsPerOperation), 12) + "  "
            + pad(m.baseline, 28) + "  " + pad(number(m.baselineNanosecondsPerOperation), 12)
            + "  " + String(format: "%.2f", m.ratio)
        if !m.note.isEmpty { line += "  (\(m.note))" }
        return line
    }
}
