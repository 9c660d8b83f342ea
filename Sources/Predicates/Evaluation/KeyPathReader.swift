// Key paths compiled once: read as values sorted by kind (`KeyValueReading`) or as `Any?`.
import Foundation
import KeyValueCoding

/// A key path of a predicate or sort descriptor, checked once when the predicate is compiled.
///
/// Reads go through ``KeyValueCoding/KeyValuePath``: from object to object directly, with
/// stored numbers, strings and object links read straight from their fields (no `Any` box).
/// A path that `KeyValuePath` rejects (an empty key, an unknown `@operator`) is read through
/// `KeyValue.value(forKeyPath:of:)` at evaluation time instead, which throws the same error
/// there, so a bad path still fails when (and only when) it is evaluated.
///
/// Thread safety: immutable; reading is as thread-safe as the values read.
struct KeyPathReader {
    let keyPath: String
    private let path: KeyValuePath?

    init(_ keyPath: String) {
        self.keyPath = keyPath
        path = try? KeyValuePath(keyPath)
    }

    /// The value at the end of the path, sorted by kind; `.null` for nil and `NSNull`.
    @inline(__always)
    func reading(of root: Any?) throws -> KeyValueReading {
        guard let path else { return KeyValueReading(try KeyValue.value(forKeyPath: keyPath, of: root)) }
        return try path.reading(of: root)
    }

    /// The value at the end of the path from a class instance, sorted by kind.
    @inline(__always)
    func reading(ofObject object: AnyObject) throws -> KeyValueReading {
        guard let path else { return KeyValueReading(try KeyValue.value(forKeyPath: keyPath, of: object)) }
        return try path.reading(of: object)
    }

    /// The value at the end of the path as `Any?`, `NSNull` read as nil (the form the general
    /// evaluator works on; numbers keep their Swift type).
    func value(of root: Any?) throws -> Any? {
        guard let path else { return ValueEquality.droppingNull(try KeyValue.value(forKeyPath: keyPath, of: root)) }
        return ValueEquality.droppingNull(try path.value(of: root))
    }
}

/// Reads a value sorted by kind from the evaluated object (first argument) with bound variables.
typealias ReadingClosure = (Any?, VariableScope?) throws -> KeyValueReading

extension ExpressionCompiler {
    /// A reader of `expression` as a ``KeyValueCoding/KeyValueReading`` when the expression is a
    /// key path (from the evaluated object or from another expression's value); nil otherwise.
    static func readingClosure(_ expression: KeyValueExpression) throws -> ReadingClosure? {
        switch expression {
        case .keyPath(let path):
            let reader = KeyPathReader(path)
            return { object, _ in try reader.reading(of: object) }
        case let .keyPathOf(operand, path):
            let base = try compile(operand)
            let reader = KeyPathReader(path)
            return { object, scope in try reader.reading(of: try base(object, scope)) }
        default:
            return nil
        }
    }
}
