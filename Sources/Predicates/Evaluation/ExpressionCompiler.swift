// Compiles expression trees into value closures.
import Foundation
import KeyValueCoding

enum ExpressionCompiler {
    /// The value of `expression` when it needs no object and no variables (a constant, or an
    /// aggregate of constants), or nil.
    static func constantValue(of expression: KeyValueExpression) -> Any?? {
        switch expression {
        case .constant(let value):
            return .some(value.anyValue)
        case .aggregate(let elements):
            var values: [Any?] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = constantValue(of: element) else { return nil }
                values.append(value)
            }
            return .some(values)
        default:
            return nil
        }
    }

    /// As ``constantValue(of:)``, for the right side of a comparison: values with a raw value
    /// (enumerations) become their raw values, as key-value coding reads enumeration
    /// properties.
    static func comparisonConstant(of expression: KeyValueExpression) -> Any?? {
        guard let constant = expression.constantAggregate else { return nil }
        return .some(constant.evaluationValue)
    }

    static func compile(_ expression: KeyValueExpression) throws -> ValueClosure {
        if let constant = constantValue(of: expression) {
            return { _, _ in constant }
        }
        switch expression {
        case .evaluatedObject:
            return { object, _ in object }
        case .constant(let value):
            let normalized = value.anyValue
            return { _, _ in normalized }
        case .keyPath(let path):
            return keyPathReader(path, base: nil)
        case let .keyPathOf(operand, path):
            return keyPathReader(path, base: try compile(operand))
        case .variable(let name):
            return { _, scope in
                guard let scope else { throw PredicateEvaluationError.unboundVariable(name) }
                return ValueEquality.normalize(try scope.value(of: name))
            }
        case .aggregate(let elements):
            let readers = try elements.map(compile)
            return { object, scope in try readers.map { try $0(object, scope) } }
        case let .function(function, arguments):
            return try self.function(function, arguments)
        case let .setOperation(left, operation, right):
            let (a, b) = (try compile(left), try compile(right))
            return { object, scope in try SetOperations.apply(operation, try a(object, scope), try b(object, scope)) }
        case let .subquery(collection, variable, predicate):
            return try subquery(collection, variable, predicate)
        case let .conditional(predicate, whenTrue, whenFalse):
            let test = try PredicateCompiler.compile(predicate)
            let (a, b) = (try compile(whenTrue), try compile(whenFalse))
            return { object, scope in try test(object, scope) ? a(object, scope) : b(object, scope) }
        case let .index(collection, index):
            return try indexReader(try compile(collection), index)
        case .indexSymbol(let symbol):
            return { _, _ in symbol }
        }
    }

    /// Reads `path` from the object (or from `base`'s value) through a ``KeyPathReader``,
    /// checked once here.
    static func keyPathReader(_ path: String, base: ValueClosure?) -> ValueClosure {
        let reader = KeyPathReader(path)
        guard let base else { return { object, _ in try reader.value(of: object) } }
        return { object, scope in try reader.value(of: try base(object, scope)) }
    }

    private static func function(_ typed: KeyValueExpression.Function, _ arguments: [KeyValueExpression]) throws -> ValueClosure {
        let name = typed.selector
        guard let function = BuiltinFunction.implementation(of: typed) else { throw PredicateEvaluationError.unknownFunction(name) }
        guard function.arity == arguments.count else {
            throw PredicateEvaluationError.invalidFunctionArgument(
                function: name, reason: "takes \(function.arity) arguments, not \(arguments.count)")
        }
        let readers = try arguments.map(compile)
        let apply = function.apply
        switch readers.count {
        case 0: return { _, _ in try apply([]) }
        case 1:
            let a = readers[0]
            return { object, scope in ValueEquality.normalize(try apply([try a(object, scope)])) }
        default:
            return { object, scope in
                ValueEquality.normalize(try apply(try readers.map { try $0(object, scope) }))
            }
        }
    }

    private static func subquery(_ collection: KeyValueExpression, _ variable: String,
                                 _ predicate: KeyValuePredicate) throws -> ValueClosure {
        let source = try compile(collection)
        let test = try PredicateCompiler.compile(predicate)
        return { object, scope in
            // A nil collection (a to-many read through a nil to-one) has no elements, as SQL's
            // EXISTS over no rows; any other value that is not a collection is an error.
            let elements = try ValueCollections.qualifiedElements(of: try source(object, scope), for: "SUBQUERY")
            let inner = VariableScope(scope?.values ?? [:])
            var result: [Any?] = []
            for element in elements {
                inner.values[variable] = .some(element)
                if try test(element, inner) { result.append(element) }
            }
            return keyValueFriendly(result)
        }
    }

    /// An array of objects as `[AnyObject]`, which key-value coding walks element by element;
    /// other arrays stay `[Any?]`.
    static func keyValueFriendly(_ elements: [Any?]) -> Any {
        var objects: [AnyObject] = []
        objects.reserveCapacity(elements.count)
        for element in elements {
            guard let element, type(of: element) is AnyClass else { return elements }
            objects.append(element as AnyObject)
        }
        return objects
    }

    private static func indexReader(_ collection: @escaping ValueClosure,
                                    _ index: KeyValueExpression) throws -> ValueClosure {
        let position = try compile(index)
        return { object, scope in
            try element(of: try collection(object, scope), at: try position(object, scope))
        }
    }

    /// `collection[index]`: a dictionary's value for the key `index` (whatever the key's type,
    /// as `objectForKey:`), or an array position, `FIRST`, `LAST`, `SIZE`.
    static func element(of collection: Any?, at index: Any?) throws -> Any? {
        guard let collection else { return nil }
        if let dictionary = keyValueDictionary(of: collection) {
            if let symbol = index as? KeyValueExpression.IndexSymbol {
                guard symbol == .size else {
                    throw PredicateEvaluationError.invalidFunctionArgument(
                        function: "objectFrom:withIndex:", reason: "a dictionary has no \(symbol.rawValue) element")
                }
                return dictionary.keyValueCount
            }
            return ValueCollections.value(in: dictionary, forKey: index) ?? nil
        }
        let elements = try ValueCollections.requireElements(of: collection, for: "an index subscript")
        if let symbol = index as? KeyValueExpression.IndexSymbol {
            switch symbol {
            case .first: return elements.first ?? nil
            case .last: return elements.last ?? nil
            case .size: return elements.count
            }
        }
        guard let position = try BuiltinFunction.integer(index, "objectFrom:withIndex:") else {
            throw PredicateEvaluationError.invalidFunctionArgument(function: "objectFrom:withIndex:", reason: "expected an integer index")
        }
        guard elements.indices.contains(position) else {
            throw PredicateEvaluationError.invalidFunctionArgument(
                function: "objectFrom:withIndex:", reason: "index \(position) out of range 0..<\(elements.count)")
        }
        return elements[position]
    }
}
