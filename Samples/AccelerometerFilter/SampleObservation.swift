import KeyValueCoding
import KeyValueObserving

/// Observes the keys `x`, `y`, `z` and `timestamp` of any key-value observable object and
/// reports a complete sample each time `timestamp` changes.
///
/// The publishers in this sample (``Accelerometer`` and ``AccelerationFilter``) store `x`, `y`
/// and `z` before `timestamp`, so the values collected from the `x`, `y` and `z` change records
/// belong to the reading whose time arrives last. The keys are looked up by name, so this works
/// for any class with those keys.
///
/// Thread safety: not thread-safe; handlers run on the thread that stores into the source.
final class SampleObservation {
    private var pending = AccelerometerSample(t: 0, x: 0, y: 0, z: 0)
    private let onSample: (AccelerometerSample) -> Void
    private var tokens: [KeyValueObservation] = []

    /// Starts observing `source`.
    ///
    /// - Parameters:
    ///   - source: The object to observe.
    ///   - onSample: Called with each complete sample, on the thread that stores the timestamp.
    /// - Throws: ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` when `source` lacks
    ///   one of the keys.
    init<Source: KeyValueObservable>(of source: Source,
                                     onSample: @escaping (AccelerometerSample) -> Void) throws {
        self.onSample = onSample
        let me = Confined(self)
        tokens = [
            try source.observe("x", options: [.new]) { _, change in
                if let value = change.newValue as? Double { me.object.pending.x = value }
            },
            try source.observe("y", options: [.new]) { _, change in
                if let value = change.newValue as? Double { me.object.pending.y = value }
            },
            try source.observe("z", options: [.new]) { _, change in
                if let value = change.newValue as? Double { me.object.pending.z = value }
            },
            try source.observe("timestamp", options: [.new]) { _, change in
                guard let value = change.newValue as? Double else { return }
                let observation = me.object
                observation.pending.t = value
                observation.onSample(observation.pending)
            },
        ]
    }

    /// Stops observing. Also happens when the observation is released.
    func invalidate() {
        for token in tokens { token.invalidate() }
    }
}

/// Carries an unowned reference to a pipeline object into a `@Sendable` observation handler.
///
/// Why `@unchecked Sendable` is safe here: key-value observing calls a handler synchronously on
/// the thread that makes the change, and every object of a pipeline (accelerometer, filters,
/// recorder, player) is created, driven and read on one thread, so the reference never crosses
/// threads. It is `unowned` because the referenced object owns the observation tokens: when it
/// goes away its tokens are invalidated and the handlers are never called again.
struct Confined<Object: AnyObject>: @unchecked Sendable {
    unowned let object: Object

    init(_ object: Object) { self.object = object }
}
