// Labelled combinatorial loops: every failure inside names the case it happened in.
import Testing

/// The cases of ``withEvery(_:in:describedBy:sourceLocation:_:)`` loops that enclose the
/// running code, outermost first.
///
/// The labels live in a task-local value, so nested loops (and the helpers they call) see
/// every enclosing case, and concurrent tests do not see each other's.
package enum TestCase {
    @TaskLocal package static var labels: [String] = []

    /// The enclosing cases as one line, such as `operator: <, left: nan, right: 1`; empty
    /// outside any loop.
    package static var label: String { labels.joined(separator: ", ") }

    /// ``label`` as a Swift Testing comment, for `#expect(…, TestCase.comment)`.
    package static var comment: Comment { Comment(rawValue: label.isEmpty ? "(no case)" : label) }
}

/// Calls `body` with every element of `values`, labelling each call with `name` and the
/// element, so that failures name the case.
///
/// ```swift
/// withEvery("op", in: ["<", "<="]) { op in
///     withEvery("value", in: [1, 2]) { value in
///         check(try holds("\(value) \(op) 3"), "holds")   // fails as "op: <=, value: 2: holds"
///     }
/// }
/// ```
///
/// An error thrown by `body` is recorded as an issue naming the case, and the loop goes on
/// with the next element, so one run reports every failing case. Pass ``TestCase/comment`` to
/// `#expect` and `#require` inside the loop to label their own failures too, or use
/// ``check(_:_:sourceLocation:)`` and ``checkEqual(_:_:_:sourceLocation:)``, which label theirs.
///
/// - Parameters:
///   - name: The name of the loop variable, as it should appear in failures.
///   - values: The values to try, in order.
///   - describe: How to write a value in a label; `String(describing:)` by default.
///   - sourceLocation: Where issues from thrown errors are reported.
///   - body: The test of one value.
package func withEvery<S: Sequence>(
    _ name: String, in values: S, describedBy describe: ((S.Element) -> String)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (S.Element) throws -> Void
) {
    for value in values {
        let text = describe?(value) ?? String(describing: value)
        TestCase.$labels.withValue(TestCase.labels + ["\(name): \(text)"]) {
            do {
                try body(value)
            } catch is ExpectationFailedError {
                // A `#require` failed; it recorded its own issue (with `TestCase.comment` when
                // given one). Name the case in case it was not given.
                Issue.record(Comment(rawValue: "\(TestCase.label): a #require failed in this case"),
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record(error, TestCase.comment, sourceLocation: sourceLocation)
            }
        }
    }
}

/// Records an issue naming the enclosing ``withEvery(_:in:describedBy:sourceLocation:_:)``
/// cases when `condition` is false.
///
/// - Parameters:
///   - condition: What must hold.
///   - message: What was checked, added after the case label.
///   - sourceLocation: Where the issue is reported.
package func check(_ condition: Bool, _ message: @autoclosure () -> String = "",
                   sourceLocation: SourceLocation = #_sourceLocation) {
    guard !condition else { return }
    let text = message()
    let label = TestCase.label
    Issue.record(Comment(rawValue: label.isEmpty ? text : (text.isEmpty ? label : "\(label): \(text)")),
                 sourceLocation: sourceLocation)
}

/// Records an issue naming the enclosing cases when `actual` is not `expected`.
///
/// - Parameters:
///   - actual: The value the code gave.
///   - expected: The value it should have given.
///   - message: What was compared, added to the case label.
///   - sourceLocation: Where the issue is reported.
package func checkEqual<T: Equatable>(_ actual: T, _ expected: T, _ message: @autoclosure () -> String = "",
                                      sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    let text = message()
    check(false, "\(text.isEmpty ? "" : text + ": ")got \(actual), expected \(expected)",
          sourceLocation: sourceLocation)
}
