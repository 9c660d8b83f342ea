// The compiled form of a predicate: closures built once from the tree.

/// Values bound to `$variables` during one evaluation.
///
/// Not thread-safe: each evaluation that binds variables makes its own scope.
@usableFromInline
final class VariableScope {
    var values: [String: Any?]

    init(_ values: [String: Any?]) {
        self.values = values
    }

    func value(of name: String) throws(PredicateEvaluationError) -> Any? {
        guard let entry = values[name] else { throw .unboundVariable(name) }
        return entry
    }
}

/// Reads a value from the evaluated object (first argument) with bound variables.
typealias ValueClosure = (Any?, VariableScope?) throws -> Any?
/// Tests the evaluated object with bound variables.
@usableFromInline
typealias TestClosure = (Any?, VariableScope?) throws -> Bool

/// A predicate compiled into closures.
///
/// `@unchecked Sendable`: the only stored property is a `let` closure, and the closures it
/// builds capture only immutable values (constants, checked key paths, prepared matchers, other
/// closures); every evaluation makes its own mutable state (a ``VariableScope`` when variables
/// are bound). So it can be published once through the predicate's atomic reference and called
/// from several threads without a lock, as long as the evaluated objects and the constants allow
/// concurrent reads.
final class CompiledPredicate: @unchecked Sendable {
    let test: TestClosure

    init(_ test: @escaping TestClosure) {
        self.test = test
    }
}

extension KeyValuePredicate {
    /// The compiled closures, built on first use and kept with the predicate.
    ///
    /// Lock-free after the first call: one atomic load. Two threads evaluating a new predicate
    /// at once may both compile it; the first to publish wins and both use that one.
    @inline(__always)
    func compiled() throws -> CompiledPredicate {
        if let cached = storage.compiled.load() { return cached }
        return storage.compiled.storeIfNil(CompiledPredicate(try PredicateCompiler.compile(self)))
    }
}

extension KeyValuePredicate {
    /// The compiled test, for the evaluation loops inlined into callers.
    @usableFromInline
    func compiledTest() throws -> TestClosure {
        try compiled().test
    }
}

extension KeyValuePredicate {
    /// The compiled test without bound variables, for a layer that tests many values in a loop
    /// of its own (a store walking its rows): compiled once here, then one closure call per
    /// value, without the compiled form's look-up of ``evaluate(with:)``.
    ///
    /// - Returns: A test equivalent to ``evaluate(with:)``.
    /// - Throws: What compiling the predicate throws.
    package func compiledEvaluation() throws -> (Any?) throws -> Bool {
        let test = try compiled().test
        return { object in try test(object, nil) }
    }
}
