// The harness every Swift peer program uses (the Objective-C one has the same rules): warm up,
// grow N until one repetition lasts at least the minimum time (0.5 s), keep the best of 3
// repetitions. Each figure is printed as one line that the runner (Report/) parses:
//
//     result <workload> <ns per operation>
//
// Output protocol, one line each: `peer <id>`, `fingerprint …` (PeerFingerprint.line),
// `fingerprint-check ok` or `fingerprint-check mismatch: …`, `result …`, `note <workload> <text>`.

import Foundation

/// Keeps a value alive in a way the optimiser cannot see through.
@inline(never) @_optimize(none)
public func peerBlackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns its argument through a non-inlinable call, hiding constants from the optimiser.
@inline(never) @_optimize(none)
public func peerOpaque<T>(_ value: T) -> T { value }

/// Measures workloads and prints their lines.
public final class PeerHarness {
    /// Tiny repetition counts (a smoke run whose figures mean nothing).
    public let quick: Bool
    /// The shortest repetition, in seconds.
    public let minimumTime: Double
    /// Repetitions per workload; the best is printed.
    public let repetitions: Int
    /// Only workloads whose names contain this text run (all when nil).
    public let filter: String?
    /// The arguments left after the harness's own (`--quick`, `--min-time S`, `--filter TEXT`).
    public private(set) var remaining: [String] = []

    /// Reads `--quick`, `--min-time SECONDS` and `--filter TEXT` from `arguments`.
    public init(arguments: [String]) {
        var quick = false
        var minimumTime: Double?
        var filter: String?
        var iterator = arguments.makeIterator()
        var remaining: [String] = []
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--min-time":
                guard let text = iterator.next(), let value = Double(text), value > 0 else {
                    Self.fail("--min-time needs a positive number of seconds")
                }
                minimumTime = value
            case "--filter":
                guard let text = iterator.next() else { Self.fail("--filter needs a text") }
                filter = text
            default: remaining.append(argument)
            }
        }
        self.quick = quick
        self.minimumTime = minimumTime ?? (quick ? 0.001 : 0.5)
        self.repetitions = quick ? 1 : 3
        self.filter = filter
        self.remaining = remaining
    }

    /// Prints `message` to standard error and exits with status 2.
    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("peer: \(message)\n".utf8))
        exit(2)
    }

    /// Whether `name` passes the filter.
    public func selects(_ name: String) -> Bool {
        filter.map { name.contains($0) } ?? true
    }

    /// Prints the peer line and the fingerprint lines; exits with status 1 on a mismatch.
    public func report(peer: String, fingerprint: PeerFingerprint) {
        print("peer \(peer)")
        print(fingerprint.line)
        if fingerprint == .expected {
            print("fingerprint-check ok")
        } else {
            print("fingerprint-check mismatch: expected \(PeerFingerprint.expected.line)")
            exit(1)
        }
        fflush(nil)
    }

    /// Prints a note about a workload (how this peer does it, a known quirk).
    public func note(_ name: String, _ text: String) {
        print("note \(name) \(text)")
    }

    /// Seconds that `body(iterations)` takes.
    private func seconds(_ iterations: Int, _ body: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body(iterations)
        return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
    }

    /// Measures `body`, which performs its operation `iterations` times, and prints its line:
    /// nanoseconds per operation (`operations` operations per iteration), best of the
    /// repetitions.
    public func measure(_ name: String, operations: Int = 1, _ body: (Int) -> Void) {
        guard selects(name) else { return }
        let first = seconds(1, body)  // warm-up
        if quick && first >= minimumTime {
            // Quick mode: one call already lasted long enough (a sort in a debug build).
            return emit(name, first / Double(operations))
        }
        var iterations = 1
        var elapsed = seconds(iterations, body)
        while elapsed < minimumTime / 10, iterations < 1 << 40 {
            iterations *= elapsed < minimumTime / 1000 ? 10 : 2
            elapsed = seconds(iterations, body)
        }
        iterations = max(iterations, Int((Double(iterations) * minimumTime / max(elapsed, 1e-9)).rounded(.up)))
        var best = Double.infinity
        for _ in 0..<repetitions {
            best = min(best, seconds(iterations, body) / Double(iterations))
        }
        emit(name, best / Double(operations))
    }

    /// Measures phases that must run in order (undo: register, undo, redo). `cycle` runs all
    /// phases once and returns each one's seconds; a repetition is as many cycles as make its
    /// first phase last the minimum time; each phase's best repetition is printed per
    /// operation (`operations` per phase).
    public func measurePhases(_ names: [String], operations: Int, cycle: () -> [Double]) {
        guard names.contains(where: selects) else { return }
        let warmUp = cycle()
        let cycles = max(1, Int((minimumTime / max(warmUp[0], 1e-9)).rounded(.up)))
        var best = [Double](repeating: .infinity, count: names.count)
        for _ in 0..<repetitions {
            var total = [Double](repeating: 0, count: names.count)
            for _ in 0..<cycles {
                for (index, time) in cycle().enumerated() { total[index] += time }
            }
            for index in names.indices { best[index] = min(best[index], total[index] / Double(cycles)) }
        }
        for (index, name) in names.enumerated() where selects(name) {
            emit(name, best[index] / Double(operations))
        }
    }

    /// Times one call of `body`, in seconds (for the phases of `measurePhases`).
    public func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
    }

    private func emit(_ name: String, _ seconds: Double) {
        print("result \(name) \(String(format: "%.3f", seconds * 1e9))")
        fflush(nil)
    }

    /// The number of undo actions per phase: 1,000,000 (1,000 in quick mode).
    public var undoActions: Int { quick ? 1_000 : 1_000_000 }
}
