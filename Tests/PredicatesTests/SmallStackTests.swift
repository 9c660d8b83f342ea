import Foundation
import Testing
@testable import Predicates

/// Every operation on the deepest predicates the parser accepts runs on a 512 KiB stack (the
/// default for secondary threads and Dispatch workers on Apple platforms).
@Suite("Deep predicates on small stacks")
struct SmallStackTests {
    /// Runs `work` on a thread with a 512 KiB stack and waits for it.
    private static func onSmallStack(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
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

    @Test func theParserLimitIsLow() {
        #expect(PredicateParser.maximumDepth == 100)
    }

    @Test(arguments: ["power", "abs", "not", "parentheses", "compound", "aggregate", "ternary", "minus", "subquery"])
    func everyOperationFitsA512KiBStack(shape: String) throws {
        let build = try #require(Self.shapes[shape])
        let (count, format) = Self.deepest(build)
        #expect(count > 10, "\(shape) accepts only \(count) levels")
        #expect(throws: PredicateParseError.self) { try KeyValuePredicate(format: build(count + 1)) }
        Self.onSmallStack {
            guard let p = try? KeyValuePredicate(format: format) else { return }
            _ = try? p.evaluate(with: ["x": 1], substitutionVariables: ["v": 1])
            let bound = try? p.withSubstitutionVariables(["v": 1])
            _ = try? bound?.evaluate(with: nil)
            let text = p.predicateFormat
            _ = p == (try? KeyValuePredicate(format: text))
            _ = p.debugDescription
        }
    }
}
