import KeyValueCoding
import KeyValueObserving

/// Records what an accelerometer and a filter publish, by observing both.
///
/// Each time the raw source's `timestamp` changes, the recorder appends the raw reading it has
/// collected from the `x`, `y`, `z` change records; each time the filter's `timestamp` changes,
/// it appends the filtered reading. Neither source knows the recorder exists.
///
/// ```swift
/// let recorder = try AccelerometerRecorder(raw: accelerometer, filtered: filter)
/// player.play(into: accelerometer)
/// print(recorder.raw.count, recorder.filtered.count)
/// ```
///
/// - Important: Thread safety: not thread-safe; read it on the thread that drives the sources,
///   after they stop changing.
public final class AccelerometerRecorder {
    /// The raw readings, in the order they were observed.
    public private(set) var raw: [AccelerometerSample] = []
    /// The filtered readings, in the order they were observed.
    public private(set) var filtered: [AccelerometerSample] = []
    private var observations: [SampleObservation] = []

    /// Starts recording two sources.
    ///
    /// - Parameters:
    ///   - rawSource: The unfiltered source, usually an ``Accelerometer``.
    ///   - filteredSource: The filtered source, usually an ``AccelerationFilter``.
    ///   - capacity: The number of samples to reserve room for.
    /// - Throws: ``KeyValueObservingError/undefinedKey(_:keyPath:type:)`` when a source lacks
    ///   one of the keys `x`, `y`, `z`, `timestamp`.
    public init<Raw: KeyValueObservable, Filtered: KeyValueObservable>(
        raw rawSource: Raw, filtered filteredSource: Filtered, capacity: Int = 0
    ) throws {
        raw.reserveCapacity(capacity)
        filtered.reserveCapacity(capacity)
        let me = Confined(self)
        observations = [
            try SampleObservation(of: rawSource) { me.object.raw.append($0) },
            try SampleObservation(of: filteredSource) { me.object.filtered.append($0) },
        ]
    }

    /// Stops recording. Also happens when the recorder is released.
    public func stopRecording() {
        for observation in observations { observation.invalidate() }
    }
}
