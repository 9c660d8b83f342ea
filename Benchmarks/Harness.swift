// A small benchmark harness: each workload runs beside its baseline in the same process and
// prints `name  ns/op  baseline  baseline-ns/op  ratio`.
//
// Measurement: one warm-up call, then the iteration count is grown until one run takes at least
// `minimumRunTime`; the workload is then timed `repetitions` times with ContinuousClock and the
// best (minimum) time is kept. Results go through `blackHole` so the optimiser cannot drop them.

import Foundation

/// Keeps a value alive in a way the optimiser cannot see through.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns its argument through a non-inlinable call, hiding constants from the optimiser.
@inline(never)
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
        body(1)  // warm-up
        var iterations = 1
        var elapsed = clock.measure { body(iterations) }
        let calibrationTarget = minimumRunTime / 10
        while elapsed < calibrationTarget {
            iterations *= elapsed < calibrationTarget / 100 ? 10 : 2
            elapsed = clock.measure { body(iterations) }
        }
        let scale = minimumRunTime / elapsed
        iterations = max(iterations, Int((Double(iterations) * scale).rounded(.up)))
        var best = Duration.seconds(Int64.max / 4)
        for _ in 0..<repetitions {
            let time = clock.measure { body(iterations) }
            if time < best { best = time }
        }
        let nanoseconds = Double(best.components.seconds) * 1e9
            + Double(best.components.attoseconds) / 1e9
        return nanoseconds / Double(iterations * operationsPerIteration)
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
