// Expression text: constants, key paths, arithmetic with the fewest parentheses, functions.
import Foundation
import KeyValueCoding

extension PredicateFormatter {
    /// Binding strength, weakest first: `UNION INTERSECT MINUS`, `+ -`, `* /`, unary minus,
    /// `**`, primaries.
    enum Precedence {
        static let set = 1, additive = 2, multiplicative = 3, unary = 4, power = 5, primary = 6
    }

    /// Writes `expression`, in parentheses when it binds more weakly than `precedence`.
    static func write(_ expression: KeyValueExpression, precedence: Int, into output: inout String) {
        let own = strength(of: expression)
        if own < precedence { output += "(" }
        writeBare(expression, into: &output)
        if own < precedence { output += ")" }
    }

    private static func strength(of expression: KeyValueExpression) -> Int {
        switch expression {
        case .function(let function, let arguments):
            switch (function, arguments.count) {
            case (.add, 2), (.subtract, 2): return Precedence.additive
            case (.multiply, 2), (.divide, 2): return Precedence.multiplicative
            case (.negate, 1): return Precedence.unary
            case (.raise, 2): return Precedence.power
            default: return Precedence.primary
            }
        case .setOperation:
            return Precedence.set
        case .constant(let value):
            // A negative number literal starts with a minus sign.
            switch value {
            case .integer(let v) where v < 0: return Precedence.unary
            case .double(let v) where v.sign == .minus && !v.isNaN && v.isFinite: return Precedence.unary
            default: return Precedence.primary
            }
        default:
            return Precedence.primary
        }
    }

    private static func writeBare(_ expression: KeyValueExpression, into output: inout String) {
        switch expression {
        case .evaluatedObject:
            output += "SELF"
        case .constant(let value):
            writeConstant(value, into: &output)
        case .keyPath(let path):
            writeKeyPath(path, into: &output)
        case let .keyPathOf(operand, path):
            write(operand, precedence: Precedence.primary, into: &output)
            output += "."
            writeKeyPath(path, into: &output)
        case .variable(let name):
            output += "$" + name
        case .aggregate(let elements):
            writeList(elements, open: "{", close: "}", into: &output)
        case let .function(function, arguments):
            writeFunction(function, arguments, into: &output)
        case let .setOperation(left, operation, right):
            // Left-associative: the left side may be another set operation.
            write(left, precedence: Precedence.set, into: &output)
            output += " " + operation.rawValue + " "
            write(right, precedence: Precedence.set + 1, into: &output)
        case let .subquery(collection, variable, predicate):
            output += "SUBQUERY("
            write(collection, precedence: 0, into: &output)
            output += ", $" + variable + ", "
            write(predicate, into: &output)
            output += ")"
        case let .conditional(predicate, whenTrue, whenFalse):
            output += "TERNARY("
            write(predicate, into: &output)
            output += ", "
            write(whenTrue, precedence: 0, into: &output)
            output += ", "
            write(whenFalse, precedence: 0, into: &output)
            output += ")"
        case let .index(collection, index):
            write(collection, precedence: Precedence.primary, into: &output)
            output += "["
            write(index, precedence: 0, into: &output)
            output += "]"
        case .indexSymbol(let symbol):
            output += symbol.rawValue
        }
    }

    private static func writeList(_ elements: [KeyValueExpression], open: String, close: String,
                                  into output: inout String) {
        output += open
        for (index, element) in elements.enumerated() {
            if index > 0 { output += ", " }
            write(element, precedence: 0, into: &output)
        }
        output += close
    }

    private static func writeFunction(_ function: KeyValueExpression.Function, _ arguments: [KeyValueExpression],
                                      into output: inout String) {
        if let symbol = BuiltinFunction.infixSymbols[function], arguments.count == 2 {
            let own = strength(of: .function(function, arguments))
            // Left-associative operators accept an equal-strength left side; `**` is
            // right-associative: its left side must be a primary, its right side may be unary.
            let leftNeed = function == .raise ? Precedence.primary : own
            let rightNeed = function == .raise ? Precedence.unary : own + 1
            write(arguments[0], precedence: leftNeed, into: &output)
            output += " " + symbol + " "
            write(arguments[1], precedence: rightNeed, into: &output)
            return
        }
        if function == .negate, arguments.count == 1 {
            output += "-"
            writeNegated(arguments[0], into: &output)
            return
        }
        if function == .cast, arguments.count == 2 {
            writeList(arguments, open: "CAST(", close: ")", into: &output)
            return
        }
        writeList(arguments, open: function.formatName + "(", close: ")", into: &output)
    }

    /// The operand of `negate:`. The parser folds a minus sign into a number literal that
    /// follows it, so a number constant goes in parentheses (`-(5)`, which the parser does not
    /// fold) and a Boolean is written `YES`/`NO` rather than `1`/`0`.
    private static func writeNegated(_ operand: KeyValueExpression, into output: inout String) {
        if case .constant(let value) = operand {
            switch value {
            case .bool(let v):
                output += v ? "YES" : "NO"
                return
            case .integer, .unsignedInteger, .double:
                output += "("
                write(operand, precedence: 0, into: &output)
                output += ")"
                return
            default:
                break
            }
        }
        write(operand, precedence: Precedence.power, into: &output)
    }

    /// Writes each key of a path, with `#` before reserved words.
    static func writeKeyPath(_ path: String, into output: inout String) {
        var first = true
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            if !first { output += "." }
            first = false
            let key = String(component)
            if PredicateKeyword.isReserved(key) { output += "#" }
            output += key
        }
    }
}
