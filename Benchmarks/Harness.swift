// A small benchmark harness: each workload runs beside its baseline in the same process and
// prints `name  ns/op  baseline  baseline-ns/op  ratio`.
//
// Measurement: one warm-up call, then the iteration count is grown until one run takes at least
// `minimumRunTime`; the workload is then timed `repetitions` times with ContinuousClock and the
// best (minimum) time is kept. Results go through `blackHole` so the optimiser cannot drop them.

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

    /// Times one body and returns nanoseconds per operation (best of `repetitions`).
    func measure(_ body: Body, operationsPerIteration: Int) -> Double {
        let clock = ContinuousClock()
        func seconds(_ iterations: Int) -> Double {
            let duration = clock.measure { body(iterations) }
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
        let target = Double(minimumRunTime.components.seconds)
            + Double(minimumRunTime.components.attoseconds) * 1e-18
        _ = seconds(1)  // warm-up
        var iterations = 1
        var elapsed = seconds(iterations)
        while elapsed < target / 10, iterations < 1 << 40 {
            iterations *= elapsed < target / 1000 ? 10 : 2
            elapsed = seconds(iterations)
        }
        let scaled = (Double(iterations) * target / max(elapsed, 1e-9)).rounded(.up)
        iterations = max(iterations, Int(min(scaled, Double(1 << 40))))
        var best = Double.infinity
        for _ in 0..<repetitions {
            best = min(best, seconds(iterations))
        }
        if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
            print("  iterations \(iterations), best \(best) s")
        }
        return best * 1e9 / Double(iterations * operationsPerIteration)
    }

    /// Runs every workload whose name contains `filter` (all when nil) and prints one line each.
    func run(filter: String?) -> [Measurement] {
        var results: [Measurement] = []
        for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
            let value = measure(workload.body, operationsPerIteration: workload.operationsPerIteration)
            let base = measure(workload.baseline, operationsPerIteration: workload.operationsPerIteration)
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
