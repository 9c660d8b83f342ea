// Primary expressions: literals, key paths, variables, arguments, aggregates, functions,
// SUBQUERY, CAST and parenthesized operands.
import Foundation

extension PredicateParser {
    mutating func parsePrimary() throws(PredicateParseError) -> Operand {
        let token = current
        switch token.kind {
        case .symbol("("):
            advance()
            try enter()
            let inner = try parseOr()
            try expectSymbol(")", expected: "')' or an operator")
            leave()
            // The brackets are a level of their own for whatever encloses them.
            switch inner {
            case .expression(var expression):
                expression.height += 1
                return .expression(expression)
            case .predicate(var predicate):
                predicate.height += 1
                return .predicate(predicate)
            }
        case .symbol("{"):
            return .expression(try parseAggregate())
        case .integer(let value): return constant(.integer(Int64(value)))
        case .unsignedInteger(let value): return constant(.unsignedInteger(value))
        case .float(let value): return constant(.double(value))
        case .string(let value): return constant(.string(value))
        case .keyword(.true), .keyword(.yes): return constant(.bool(true))
        case .keyword(.false), .keyword(.no): return constant(.bool(false))
        case .keyword(.nil), .keyword(.null): return constant(.null)
        case .keyword(.self):
            advance()
            return .expression(ParsedExpression(value: .evaluatedObject, height: 1))
        case .keyword(.subquery):
            return .expression(try parseSubquery())
        case .keyword(.cast):
            return .expression(try parseCast())
        case .variable(let name):
            advance()
            return .expression(ParsedExpression(value: .variable(name), height: 1))
        case .specifier(let specifier):
            return .expression(try parseArgument(specifier))
        case let .identifier(name, escaped):
            advance()
            if !escaped, isSymbol("(") {
                return .expression(try parseFunction(name, at: token))
            }
            return .expression(ParsedExpression(value: .keyPath(name), height: 1))
        default:
            throw unexpected("an expression")
        }
    }

    private mutating func constant(_ value: KeyValueConstant) -> Operand {
        advance()
        return .expression(ParsedExpression(value: .constant(value), height: 1))
    }

    /// `{a, b, c}`, possibly empty.
    private mutating func parseAggregate() throws(PredicateParseError) -> ParsedExpression {
        advance()
        try enter()
        let elements = try parseList(closing: "}")
        leave()
        let height = try checked((elements.map(\.height).max() ?? 0) + 1, expression: true)
        return ParsedExpression(value: .aggregate(elements.map(\.value)), height: height)
    }

    /// Comma-separated expressions up to `closing`, which is consumed.
    private mutating func parseList(closing: String) throws(PredicateParseError) -> [ParsedExpression] {
        var elements: [ParsedExpression] = []
        if isSymbol(closing) {
            advance()
            return elements
        }
        while true {
            elements.append(try parseExpression())
            if isSymbol(",") {
                advance()
                continue
            }
            try expectSymbol(closing, expected: "',' or '\(closing)'")
            return elements
        }
    }

    /// `name(arguments)`: a built-in function, or `TERNARY(predicate, a, b)`.
    private mutating func parseFunction(_ name: String, at token: PredicateToken) throws(PredicateParseError) -> ParsedExpression {
        advance()   // (
        try enter()
        defer { leave() }
        if name.uppercased() == "TERNARY" {
            return try parseTernary()
        }
        let candidates = BuiltinFunction.named(name)
        guard let first = candidates.first else {
            throw .unknownFunction(position: position(of: token), name: name)
        }
        let arguments = try parseList(closing: ")")
        guard let builtin = candidates.first(where: { $0.arity == arguments.count }) else {
            throw .wrongArgumentCount(position: position(of: token), function: name,
                                      expected: first.arity, actual: arguments.count)
        }
        guard let function = KeyValueExpression.Function(selector: builtin.selector) else {
            throw .unknownFunction(position: position(of: token), name: name)
        }
        let height = try checked((arguments.map(\.height).max() ?? 0) + 1, expression: true, insideCall: true)
        return ParsedExpression(value: .function(function, arguments.map(\.value)), height: height)
    }

    private mutating func parseTernary() throws(PredicateParseError) -> ParsedExpression {
        let condition = try parsePredicate()
        try expectSymbol(",", expected: "',' after the TERNARY condition")
        let whenTrue = try parseExpression()
        try expectSymbol(",", expected: "',' after the TERNARY true value")
        let whenFalse = try parseExpression()
        try expectSymbol(")", expected: "')' to close TERNARY")
        let height = try checked(max(condition.height, whenTrue.height, whenFalse.height) + 1, expression: true,
                                 insideCall: true)
        return ParsedExpression(value: .conditional(condition.value, whenTrue.value, whenFalse.value), height: height)
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    private mutating func parseSubquery() throws(PredicateParseError) -> ParsedExpression {
        advance()
        try expectSymbol("(", expected: "'(' after SUBQUERY")
        try enter()
        defer { leave() }
        let collection = try parseExpression()
        try expectSymbol(",", expected: "',' after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw unexpected("a $variable as the SUBQUERY iterator")
        }
        advance()
        try expectSymbol(",", expected: "',' after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expectSymbol(")", expected: "')' to close SUBQUERY")
        let height = try checked(max(collection.height, predicate.height) + 1, expression: true,
                                 insideCall: true)
        return ParsedExpression(value: .subquery(collection.value, variable: variable, predicate: predicate.value),
                                height: height)
    }

    /// `CAST(value, "NSDate")`, `"NSNumber"` or `"NSString"`; constants are converted now.
    private mutating func parseCast() throws(PredicateParseError) -> ParsedExpression {
        advance()
        try expectSymbol("(", expected: "'(' after CAST")
        try enter()
        defer { leave() }
        let valueToken = current
        let value = try parseExpression()
        try expectSymbol(",", expected: "',' after the CAST value")
        let typeToken = current
        let type = try parseExpression()
        try expectSymbol(")", expected: "')' to close CAST")
        guard case .constant(.string(let typeName)) = type.value, ValueCasting.isKnownType(typeName) else {
            throw .invalidCast(position: position(of: typeToken), type: typeToken.text)
        }
        if case .constant(let constant) = value.value {
            guard let converted = ValueCasting.cast(constant.anyValue, to: typeName) else {
                guard let constant = constant.anyValue else {
                    return ParsedExpression(value: .constant(.null), height: 1)   // CAST(nil, …)
                }
                throw .uncastableValue(position: position(of: valueToken), type: typeName,
                                       reason: ValueCasting.failure(constant, to: typeName))
            }
            return ParsedExpression(value: .constant(KeyValueConstant(converted)), height: 1)
        }
        let height = try checked(value.height + 1, expression: true, insideCall: true)
        return ParsedExpression(value: .function(.cast, [value.value, .constant(.string(typeName))]),
                                height: height)
    }

    /// `%@`, `%K`, `%d`...: the next argument, as a constant or a key path.
    private mutating func parseArgument(_ specifier: String) throws(PredicateParseError) -> ParsedExpression {
        let token = current
        guard argumentIndex < arguments.count else {
            throw .missingArgument(position: position(of: token), index: argumentIndex, specifier: specifier)
        }
        let argument = arguments[argumentIndex]
        switch PredicateArguments.convert(argument, specifier: specifier) {
        case .success(.constant(let value)):
            argumentIndex += 1
            advance()
            return ParsedExpression(value: .constant(KeyValueConstant(value)), height: 1)
        case .success(.keyPath(let path)):
            argumentIndex += 1
            advance()
            return ParsedExpression(value: .keyPath(path), height: 1)
        case .failure(let mismatch):
            throw .argumentTypeMismatch(position: position(of: token), index: argumentIndex,
                                        specifier: specifier, expected: mismatch.expected,
                                        actual: mismatch.actual)
        }
    }
}
