import Foundation
import Testing
@testable import Predicates

/// Feeds random and mutated strings to the parser: every one must give a predicate or a
/// typed `PredicateParseError`, never a crash or a hang.
@Suite("Parser fuzzing")
struct FuzzTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds = [
        "age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}",
        "ANY children.age BETWEEN {1, 5}", "NOT (a == nil OR b != 'x\\n')", "SUBQUERY(xs, $x, $x.v > 0).@count == 2",
        "sum({1, 2.5e3, 0x1F}) >= -a ** 2 * (b - c) / d", "name LIKE[cd] '*a?' && tags[LAST] MATCHES '^[a-z]+$'",
        "TERNARY(a > 1, %@, %K) == CAST(0, 'NSDate')", "#size == $limit || TRUEPREDICATE", "ALL a.@sum.b < %d",
        "{1, 2} UNION tags MINUS $x CONTAINS -YES", "d[4] == CAST('1.5', 'NSDecimalNumber') OR raise(-0.0, -1) < 0",
    ]
    static let fragments = [
        "(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "%@", "%K", "%d", "%", "$", "#", "@", "==", "=",
        "<", ">", "!", "&&", "||", "**", "-", "+", "AND", "OR", "NOT", "ANY", "ALL", "NONE", "IN", "LIKE", "[cd]",
        "SUBQUERY(", "CAST(", "nil", "1e", "0x", "0b2", "é", "😀", "\u{0}", "\n", " ", "a", "1", "1.5", "FIRST",
        "TRUEPREDICATE", "sum(", "TERNARY(", "SELF", "\u{301}", "UNION", "MINUS", "INTERSECT", "YES", "-0.0",
        "1e400", "18446744073709551615",
    ]

    @Test func randomAndMutatedStringsGiveTypedResults() throws {
        var generator = Generator(state: 0x5EED)
        var accepted = 0
        var rejected = 0
        let arguments: [Any?] = ["name", 1, "x"]
        for round in 0..<100_000 {
            let text = Self.input(round, &generator)
            do {
                let predicate = try KeyValuePredicate(format: text, argumentArray: arguments)
                accepted += 1
                // Whatever parses must format and parse back to an equal predicate.
                if round % 16 == 0 {
                    let again = try KeyValuePredicate(format: predicate.predicateFormat)
                    #expect(again == predicate, "\(text) -> \(predicate.predicateFormat)")
                    #expect(again.hashValue == predicate.hashValue, "equal predicates hash alike: \(text)")
                }
            } catch {
                rejected += 1
                #expect(error.position >= 0 && error.position <= text.count + 1, "\(text): \(error)")
            }
        }
        #expect(accepted + rejected == 100_000)
        #expect(accepted > 1_000)
        #expect(rejected > 1_000)
    }

    static func input(_ round: Int, _ generator: inout Generator) -> String {
        switch round % 4 {
        case 0:
            // Random bytes decoded as UTF-8 (invalid sequences become U+FFFD).
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            // Random fragments of the language.
            let count = Int.random(in: 1...14, using: &generator)
            return (0..<count).map { _ in fragments.randomElement(using: &generator)! }.joined(separator: " ")
        default:
            // A valid predicate with a few mutations (delete, insert, replace).
            var characters = Array(seeds.randomElement(using: &generator)!)
            for _ in 0..<Int.random(in: 0...3, using: &generator) where !characters.isEmpty {
                let index = Int.random(in: 0..<characters.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: characters.remove(at: index)
                case 1: characters.insert(contentsOf: fragments.randomElement(using: &generator)!, at: index)
                default: characters[index] = fragments.randomElement(using: &generator)!.first ?? "x"
                }
            }
            return String(characters)
        }
    }
}
