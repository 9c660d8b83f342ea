// Positional format arguments: %@, %K, %d, %f, %s and their length modifiers.
import Foundation
import KeyValueCoding

/// Converts the arguments of a format string into constants and key paths.
enum PredicateArguments {
    private static let integerConversions: Set<Character> = ["d", "i", "u", "x", "X", "o"]
    private static let floatConversions: Set<Character> = ["f", "F", "e", "E", "g", "G", "a", "A"]
    private static let lengthModifiers: Set<String> = ["", "h", "hh", "l", "ll", "q", "z", "t", "j", "L"]

    /// Whether `%` followed by `text` is a specifier the parser accepts.
    static func isKnown(_ text: String) -> Bool {
        guard let conversion = text.last else { return false }
        let modifier = String(text.dropLast())
        switch conversion {
        case "@", "K": return modifier.isEmpty
        case "s", "S": return modifier.isEmpty || modifier == "l"
        default:
            guard lengthModifiers.contains(modifier) else { return false }
            return integerConversions.contains(conversion) || floatConversions.contains(conversion)
        }
    }

    enum Converted {
        case constant(Any?)
        case keyPath(String)
    }

    /// Converts `argument` for the specifier `%text`; `nil` as a type mismatch reason.
    static func convert(_ argument: Any?, specifier text: String) -> Result<Converted, Mismatch> {
        let conversion = text.last ?? "@"
        let value = argument.flatMap { flattenOptional($0) }
        switch conversion {
        case "@":
            return .success(.constant(value))
        case "K":
            if let key = value as? String { return .success(.keyPath(key)) }
            if let key = value as? Substring { return .success(.keyPath(String(key))) }
            return .failure(Mismatch(expected: "a key path string", value: value))
        case "s", "S":
            if let string = value as? String { return .success(.constant(string)) }
            if let string = value as? Substring { return .success(.constant(String(string))) }
            return .failure(Mismatch(expected: "a string", value: value))
        default:
            guard let value, let number = KeyValueNumber(value) else {
                return .failure(Mismatch(expected: "a number", value: value))
            }
            if integerConversions.contains(conversion) {
                return integer(number, value: value)
            }
            return .success(.constant(number.doubleValue))
        }
    }

    private static func integer(_ number: KeyValueNumber, value: Any) -> Result<Converted, Mismatch> {
        switch number {
        case .integer(let v): return .success(.constant(Int(v)))
        case .unsigned(let v):
            if let v = Int(exactly: v) { return .success(.constant(v)) }
            return .success(.constant(v))
        case .boolean(let v): return .success(.constant(v ? 1 : 0))
        case .floating, .decimal:
            return .failure(Mismatch(expected: "an integer", value: value))
        }
    }

    struct Mismatch: Error {
        var expected: String
        var actual: String

        init(expected: String, value: Any?) {
            self.expected = expected
            actual = value.map { String(describing: type(of: $0)) } ?? "nil"
        }
    }
}
