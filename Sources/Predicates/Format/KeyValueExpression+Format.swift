// Expression text: constants, key paths, arithmetic with the fewest parentheses, functions.
import Foundation
import KeyValueCoding

extension PredicateFormatter {
    /// Binding strength, weakest first: `+ -`, `* /`, unary minus, `**`, primaries.
    enum Precedence {
        static let additive = 1, multiplicative = 2, unary = 3, power = 4, primary = 5
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
        case .function(let name, let arguments):
            switch (name, arguments.count) {
            case ("add:to:", 2), ("from:subtract:", 2): return Precedence.additive
            case ("multiply:by:", 2), ("divide:by:", 2): return Precedence.multiplicative
            case ("negate:", 1): return Precedence.unary
            case ("raise:toPower:", 2): return Precedence.power
            default: return Precedence.primary
            }
        case .constant(let value):
            if let number = value.flatMap({ KeyValueNumber($0) }), !(value is Bool),
               number.doubleValue < 0 || number.doubleValue.sign == .minus {
                return Precedence.unary
            }
            return Precedence.primary
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
        case let .function(name, arguments):
            writeFunction(name, arguments, into: &output)
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

    private static func writeFunction(_ name: String, _ arguments: [KeyValueExpression],
                                      into output: inout String) {
        if let symbol = BuiltinFunction.infixSymbols[name], arguments.count == 2 {
            let own = strength(of: .function(name, arguments))
            // Left-associative operators accept an equal-strength left side; `**` is
            // right-associative: its left side must be a primary, its right side may be unary.
            let leftNeed = name == "raise:toPower:" ? Precedence.primary : own
            let rightNeed = name == "raise:toPower:" ? Precedence.unary : own + 1
            write(arguments[0], precedence: leftNeed, into: &output)
            output += " " + symbol + " "
            write(arguments[1], precedence: rightNeed, into: &output)
            return
        }
        if name == "negate:", arguments.count == 1 {
            output += "-"
            write(arguments[0], precedence: Precedence.power, into: &output)
            return
        }
        if name == "castObject:toType:", arguments.count == 2 {
            writeList(arguments, open: "CAST(", close: ")", into: &output)
            return
        }
        let formatName = String(name.prefix { $0 != ":" })
        writeList(arguments, open: formatName + "(", close: ")", into: &output)
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
