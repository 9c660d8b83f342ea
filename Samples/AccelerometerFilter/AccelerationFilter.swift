import KeyValueCoding
import KeyValueObserving

/// A filter that observes an accelerometer and publishes its filtered readings as its own
/// observable `x`, `y`, `z` and `timestamp`.
///
/// The filter never gets called by the accelerometer or by whoever feeds it: it registers
/// key-value observations on its source's `x`, `y`, `z` and `timestamp` keys, runs one
/// ``FilterSettings/step(_:input:)`` for each new timestamp, and stores the result into its own
/// `@Observed` properties (`x`, `y`, `z` first, `timestamp` last), where recorders, views, or
/// further filters observe it in turn.
///
/// ```swift
/// let accelerometer = Accelerometer()
/// let filter = try AccelerationFilter(observing: accelerometer,
///                                     settings: FilterSettings(kind: .highpassRC, rate: 50))
/// let token = try filter.observe("timestamp") { filter, _ in print(filter.x) }
/// accelerometer.x = 0.5; accelerometer.timestamp = 0.02   // token's handler runs
/// ```
///
/// Corresponds to `AccelerometerFilter` and its subclasses in Apple's AccelerometerGraph sample,
/// whose `addAcceleration:` is replaced here by observation.
///
/// - Important: Thread safety: not thread-safe; use it on the thread that drives its source.
public final class AccelerationFilter: KeyValueObservable {
    /// Filtered acceleration along x, in g.
    @Observed public var x = 0.0
    /// Filtered acceleration along y, in g.
    @Observed public var y = 0.0
    /// Filtered acceleration along z, in g.
    @Observed public var z = 0.0
    /// The time of the latest filtered reading; stored after `x`, `y` and `z`.
    @Observed public var timestamp = 0.0

    /// The filter's kind and parameters.
    public let settings: FilterSettings
    /// The filter's state after the latest reading (zero before the first).
    public private(set) var state = FilterState()
    private var observation: SampleObservation?

    /// Creates a filter and starts observing `source`.
    ///
    /// - Parameters:
    ///   - source: Any key-value observable object with `Double` keys `x`, `y`, `z` and
    ///     `timestamp`, storing `timestamp` last (an ``Accelerometer``, or another filter).
    ///   - settings: The filter's kind and parameters.
    /// - Throws: ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` when `source` lacks
    ///   one of the keys.
    public init<Source: KeyValueObservable>(observing source: Source, settings: FilterSettings) throws {
        self.settings = settings
        let me = Confined(self)
        observation = try SampleObservation(of: source) { sample in
            me.object.receive(sample)
        }
    }

    /// Stops observing the source. Also happens when the filter is released.
    public func stopObserving() {
        observation?.invalidate()
    }

    private func receive(_ sample: AccelerometerSample) {
        settings.step(&state, input: sample)
        let output = state.output
        x = output.x
        y = output.y
        z = output.z
        timestamp = output.t
    }
}
