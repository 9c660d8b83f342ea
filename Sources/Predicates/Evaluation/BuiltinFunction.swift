// The built-in functions of function expressions, by Apple selector name.
import Foundation
import KeyValueCoding

/// One built-in function: its Apple selector, its number of arguments and its body.
struct BuiltinFunction: Sendable {
    let selector: String
    let arity: Int
    let apply: @Sendable ([Any?]) throws -> Any?

    /// The name written in format strings: the selector up to its first colon.
    var formatName: String { String(selector.prefix { $0 != ":" }) }

    static let all: [BuiltinFunction] = arithmetic + statistics + others

    private static let bySelector: [String: BuiltinFunction] = {
        var table: [String: BuiltinFunction] = [:]
        for function in all { table[function.selector] = function }
        return table
    }()

    private static let byName: [String: [BuiltinFunction]] = {
        var table: [String: [BuiltinFunction]] = [:]
        for function in all { table[function.formatName.lowercased(), default: []].append(function) }
        return table
    }()

    static func withSelector(_ selector: String) -> BuiltinFunction? { bySelector[selector] }

    /// The body of `function` (every case of ``KeyValueExpression/Function`` has one; a test
    /// checks it).
    static func implementation(of function: KeyValueExpression.Function) -> BuiltinFunction? {
        bySelector[function.selector]
    }

    /// The functions written `name(...)` in a format string (several when arities differ).
    static func named(_ name: String) -> [BuiltinFunction] { byName[name.lowercased()] ?? [] }

    /// Whether a function's name is printed infix (`a + b`) rather than `name(a, b)`.
    static let infixSymbols: [KeyValueExpression.Function: String] = [
        .add: "+", .subtract: "-", .multiply: "*", .divide: "/", .raise: "**",
    ]

    // MARK: Argument helpers

    static func number(_ value: Any?, _ function: String) throws -> KeyValueNumber {
        if let value = ValueEquality.normalize(value), let number = KeyValueNumber(value) { return number }
        throw PredicateEvaluationError.invalidFunctionArgument(
            function: function, reason: "expected a number, got \(ValueCollections.typeDescription(value))")
    }

    static func double(_ value: Any?, _ function: String) throws -> Double {
        try number(value, function).doubleValue
    }

    static func integer(_ value: Any?, _ function: String) throws -> Int? {
        switch try number(value, function) {
        case .integer(let v): return Int(exactly: v)
        case .unsigned(let v): return Int(exactly: v)
        case .boolean(let v): return v ? 1 : 0
        case .floating, .decimal: return nil
        }
    }

    static func requireInteger(_ value: Any?, _ function: String) throws -> Int {
        guard let result = try integer(value, function) else {
            throw PredicateEvaluationError.invalidFunctionArgument(function: function, reason: "expected an integer")
        }
        return result
    }

    static func string(_ value: Any?, _ function: String) throws -> String {
        if let string = ValueEquality.normalize(value) as? String { return string }
        throw PredicateEvaluationError.invalidFunctionArgument(
            function: function, reason: "expected a string, got \(ValueCollections.typeDescription(value))")
    }

    static func elements(_ value: Any?, _ function: String) throws -> [Any?] {
        try ValueCollections.requireElements(of: ValueEquality.normalize(value), for: function)
    }

    /// An integer operation when both sides are integers and it does not overflow, otherwise
    /// a floating-point one.
    static func binary(_ name: String, _ integerOperation: @Sendable @escaping (Int, Int) -> (Int, Bool),
                       _ doubleOperation: @Sendable @escaping (Double, Double) -> Double) -> BuiltinFunction {
        BuiltinFunction(selector: name, arity: 2) { arguments in
            if let a = try integer(arguments[0], name), let b = try integer(arguments[1], name) {
                let (result, overflow) = integerOperation(a, b)
                if !overflow { return result }
            }
            return doubleOperation(try double(arguments[0], name), try double(arguments[1], name))
        }
    }

    static func unary(_ name: String, _ operation: @Sendable @escaping (Double) -> Double) -> BuiltinFunction {
        BuiltinFunction(selector: name, arity: 1) { arguments in operation(try double(arguments[0], name)) }
    }

    static func bitwise(_ name: String, _ operation: @Sendable @escaping (Int, Int) -> Int) -> BuiltinFunction {
        BuiltinFunction(selector: name, arity: 2) { arguments in
            operation(try requireInteger(arguments[0], name), try requireInteger(arguments[1], name))
        }
    }

    // MARK: Tables

    static let arithmetic: [BuiltinFunction] = [
        binary("add:to:", { $0.addingReportingOverflow($1) }, { $0 + $1 }),
        binary("from:subtract:", { $0.subtractingReportingOverflow($1) }, { $0 - $1 }),
        binary("multiply:by:", { $0.multipliedReportingOverflow(by: $1) }, { $0 * $1 }),
        BuiltinFunction(selector: "divide:by:", arity: 2) { arguments in
            try double(arguments[0], "divide:by:") / double(arguments[1], "divide:by:")
        },
        binary("modulus:by:", { $1 == 0 ? (0, true) : $0.remainderReportingOverflow(dividingBy: $1) }, { fmod($0, $1) }),
        BuiltinFunction(selector: "raise:toPower:", arity: 2) { arguments in
            Foundation.pow(try double(arguments[0], "raise:toPower:"), try double(arguments[1], "raise:toPower:"))
        },
        BuiltinFunction(selector: "negate:", arity: 1) { arguments in
            if let value = try integer(arguments[0], "negate:"), value != Int.min { return -value }
            return -(try double(arguments[0], "negate:"))
        },
        unary("sqrt:") { $0.squareRoot() }, unary("log:") { Foundation.log10($0) },
        unary("ln:") { Foundation.log($0) }, unary("exp:") { Foundation.exp($0) },
        unary("floor:") { $0.rounded(.down) }, unary("ceiling:") { $0.rounded(.up) },
        unary("trunc:") { $0.rounded(.towardZero) },
        BuiltinFunction(selector: "abs:", arity: 1) { arguments in
            if let value = try integer(arguments[0], "abs:"), value != Int.min { return Swift.abs(value) }
            return Swift.abs(try double(arguments[0], "abs:"))
        },
        bitwise("bitwiseAnd:with:") { $0 & $1 }, bitwise("bitwiseOr:with:") { $0 | $1 },
        bitwise("bitwiseXor:with:") { $0 ^ $1 },
        bitwise("leftshift:by:") { $0 << $1 }, bitwise("rightshift:by:") { $0 >> $1 },
        BuiltinFunction(selector: "onesComplement:", arity: 1) { arguments in
            ~(try requireInteger(arguments[0], "onesComplement:"))
        },
    ]
}
