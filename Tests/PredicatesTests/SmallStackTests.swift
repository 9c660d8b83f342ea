import Foundation
import Synchronization
import ObjectGraphInternals
import Testing
@testable import Predicates

/// Every operation on the deepest predicates the parser accepts runs on a 512 KiB stack (the
/// default for secondary threads and Dispatch workers on Apple platforms).
@Suite("Deep predicates on small stacks")
struct SmallStackTests {
    /// Runs `work` on a thread with a 512 KiB stack, waits for it and returns its result.
    private static func onSmallStack<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> Value? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Value?>(nil)
        let thread = Thread {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.stackSize = 512 * 1024 * ThreadSanitizer.stackScale  // instrumented code needs more
        thread.start()
        done.wait()
        return result.withLock { $0 }
    }

    /// What each operation gave, on one thread.
    struct Results: Equatable, Sendable {
        var parsed = false
        var evaluation: String = ""
        var boundEvaluation: String = ""
        var reparsedEqual = false
        var formatted: String = ""
        var describedNonEmpty = false
    }

    /// Runs every operation on the deepest predicate `format`.
    private static func operations(on format: String) -> Results {
        var results = Results()
        guard let p = try? KeyValuePredicate(format: format) else { return results }
        results.parsed = true
        results.evaluation = outcome { try p.evaluate(with: ["x": 1], substitutionVariables: ["v": 1]) }
        results.boundEvaluation = outcome { try p.withSubstitutionVariables(["v": 1]).evaluate(with: nil) }
        results.formatted = p.predicateFormat
        results.reparsedEqual = (try? KeyValuePredicate(format: results.formatted)) == p
        results.describedNonEmpty = !p.debugDescription.isEmpty
        return results
    }

    private static func outcome(_ body: () throws -> Bool) -> String {
        do { return String(try body()) } catch { return "threw \(error)" }
    }

    /// The largest `n` for which `shape(n)` parses, and that format.
    private static func deepest(_ shape: (Int) -> String) -> (count: Int, format: String) {
        var n = 1
        while (try? KeyValuePredicate(format: shape(n + 1))) != nil { n += 1 }
        return (n, shape(n))
    }

    static let shapes: [String: @Sendable (Int) -> String] = [
        "power": { n in Array(repeating: "$v", count: n).joined(separator: " ** ") + " == 1" },
        "abs": { n in String(repeating: "abs(", count: n) + "$v" + String(repeating: ")", count: n) + " == 1" },
        "not": { n in String(repeating: "NOT ", count: n) + "$v == 1" },
        "parentheses": { n in String(repeating: "(", count: n) + "$v == 1" + String(repeating: ")", count: n) },
        "compound": { n in
            String(repeating: "$v == 1 AND ($v == 2 OR (", count: n) + "$v == 1"
                + String(repeating: "))", count: n)
        },
        "aggregate": { n in "$v IN " + String(repeating: "{", count: n) + "1" + String(repeating: "}", count: n) },
        "ternary": { n in
            String(repeating: "TERNARY($v == 1, ", count: n) + "$v" + String(repeating: ", 0)", count: n) + " == 1"
        },
        "minus": { n in String(repeating: "-(", count: n) + "$v" + String(repeating: ")", count: n) + " == 1" },
        "subquery": { n in
            String(repeating: "SUBQUERY({1}, $x, ", count: n) + "$v == 1" + String(repeating: ").@count == 1", count: n)
        },
    ]

    /// What `shape(depth)` gives for `$v = 1`: `NOT` and unary minus flip with each level, and
    /// `1 IN {{1}}` compares 1 with a collection; every other shape is true.
    static func truth(of shape: String, depth: Int) -> Bool {
        switch shape {
        case "not", "minus": return depth % 2 == 0
        case "aggregate": return depth == 1
        default: return true
        }
    }

    @Test func theParserLimitIsLow() {
        #expect(PredicateParser.maximumDepth == 100)
    }

    @Test(arguments: ["power", "abs", "not", "parentheses", "compound", "aggregate", "ternary", "minus", "subquery"])
    func everyOperationFitsA512KiBStack(shape: String) throws {
        let build = try #require(Self.shapes[shape])
        let (count, format) = Self.deepest(build)
        #expect(count > 10, "\(shape) accepts only \(count) levels")
        #expect(throws: PredicateParseError.self) { try KeyValuePredicate(format: build(count + 1)) }
        // The same operations on a large stack are the reference.
        let reference = LargeStack.run { Self.operations(on: format) }
        #expect(reference.parsed, "\(shape): the deepest format does not parse")
        #expect(reference.evaluation == String(Self.truth(of: shape, depth: count)), "\(shape): \(reference.evaluation)")
        #expect(reference.boundEvaluation == reference.evaluation, "\(shape): bound \(reference.boundEvaluation)")
        #expect(reference.reparsedEqual, "\(shape): \(reference.formatted) does not parse back to an equal predicate")
        #expect(reference.describedNonEmpty)
        let small = Self.onSmallStack { Self.operations(on: format) }
        #expect(small == reference, "\(shape) on a 512 KiB stack")
    }
}
