import KeyValueCoding

/// An asynchronous sequence of the changes of one key path.
///
/// ```swift
/// for await change in try person.changes(forKeyPath: "name", options: [.new]) {
///     print(change.newValue as Any)
/// }
/// ```
///
/// Changes are buffered (without limit) from the moment the sequence is made. The observation
/// ends when the iteration ends or its task is cancelled; iterate it once.
///
/// Apple offers the same through Combine's `publisher(for:)` and `values`.
public struct KeyValueChanges: AsyncSequence, Sendable {
    public typealias Element = KeyValueChange

    let stream: AsyncStream<KeyValueChange>
    let token: KeyValueObservation
    let finish: @Sendable () -> Void

    public func makeAsyncIterator() -> AsyncStream<KeyValueChange>.Iterator {
        stream.makeAsyncIterator()
    }

    /// Ends the observation and the sequence (iteration finishes after buffered changes).
    public func cancel() {
        token.invalidate()
        finish()
    }
}

/// An asynchronous sequence of the values of one property, typed.
public struct KeyValueValues<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let stream: AsyncStream<Value>
    let token: KeyValueObservation
    let finish: @Sendable () -> Void

    public func makeAsyncIterator() -> AsyncStream<Value>.Iterator {
        stream.makeAsyncIterator()
    }

    /// Ends the observation and the sequence.
    public func cancel() {
        token.invalidate()
        finish()
    }
}

extension KeyValueObservable {
    /// Returns the changes of `keyPath` as an asynchronous sequence.
    ///
    /// - Parameters:
    ///   - keyPath: A key path of this object.
    ///   - options: What each change carries; `.initial` makes the current value the first element.
    /// - Returns: The sequence; it starts observing at once.
    /// - Throws: The errors of ``observe(_:options:changeHandler:)``.
    public func changes(forKeyPath keyPath: String,
                        options: KeyValueObservingOptions = [.new]) throws -> KeyValueChanges {
        let (stream, continuation) = AsyncStream.makeStream(of: KeyValueChange.self)
        let token = try observe(keyPath, options: options) { _, change in
            continuation.yield(change)
        }
        continuation.onTermination = { _ in token.invalidate() }
        return KeyValueChanges(stream: stream, token: token, finish: { continuation.finish() })
    }

    /// Returns the values of a property as an asynchronous sequence: the current value first,
    /// then the value after each change.
    ///
    /// - Parameter keyPath: The property, as a Swift key path.
    /// - Returns: The sequence; it starts observing at once.
    /// - Throws: The errors of ``observe(_:options:changeHandler:)``.
    public func values<Value: Sendable>(for keyPath: KeyPath<Self, Value>) throws -> KeyValueValues<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let token = try observe(keyPath, options: [.initial, .new]) { _, change in
            if let value = change.newValue { continuation.yield(value) }
        }
        continuation.onTermination = { _ in token.invalidate() }
        return KeyValueValues(stream: stream, token: token, finish: { continuation.finish() })
    }
}
