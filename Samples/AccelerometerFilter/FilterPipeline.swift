/// The result of replaying a recording through an accelerometer, a filter and a recorder.
public struct FilterRun: Sendable {
    /// The filter that ran.
    public let settings: FilterSettings
    /// The raw readings, as the recorder observed them.
    public let raw: [AccelerometerSample]
    /// The filtered readings, as the recorder observed them (one per raw reading).
    public let filtered: [AccelerometerSample]
    /// The wall-clock time the replay took, in seconds.
    public let elapsed: Double

    /// Samples per second through the observation path (player → accelerometer → filter →
    /// recorder).
    public var throughput: Double { Double(raw.count) / elapsed }
}

/// Wires up the sample's objects and replays a recording through them.
///
/// ```swift
/// let recording = try AccelerometerRecording(contentsOfFile: path)
/// let run = try FilterPipeline.run(recording, settings: FilterSettings(rate: recording.rate))
/// ```
///
/// The pipeline is: ``AccelerometerPlayer`` stores into an ``Accelerometer``; an
/// ``AccelerationFilter`` observes the accelerometer and publishes its output; an
/// ``AccelerometerRecorder`` observes both. After wiring, the only call is `play`: every
/// reading reaches the filter and the recorder by key-value observation.
public enum FilterPipeline {
    /// Replays `recording` through a filter with `settings`.
    ///
    /// - Parameters:
    ///   - recording: The readings to replay.
    ///   - settings: The filter to run.
    ///   - pacer: `nil` to play as fast as possible, or a pacer such as
    ///     ``AccelerometerPlayer/realtimePacer()``.
    /// - Returns: What the recorder saw, and how long the replay took.
    /// - Throws: ``PipelineError/recorderMismatch(raw:filtered:expected:)`` if the recorder did
    ///   not see one raw and one filtered reading per sample (a broken observation path);
    ///   observation registration errors.
    public static func run(_ recording: AccelerometerRecording, settings: FilterSettings,
                           pacer: ((Double) -> Void)? = nil) throws -> FilterRun {
        let accelerometer = Accelerometer()
        let filter = try AccelerationFilter(observing: accelerometer, settings: settings)
        let recorder = try AccelerometerRecorder(raw: accelerometer, filtered: filter,
                                                 capacity: recording.samples.count)
        let player = AccelerometerPlayer(recording: recording)
        let clock = ContinuousClock()
        let start = clock.now
        player.play(into: accelerometer, pacer: pacer)
        let duration = clock.now - start
        recorder.stopRecording()
        filter.stopObserving()
        let expected = recording.samples.count
        guard recorder.raw.count == expected, recorder.filtered.count == expected else {
            throw PipelineError.recorderMismatch(raw: recorder.raw.count, filtered: recorder.filtered.count,
                                                 expected: expected)
        }
        let parts = duration.components
        let elapsed = Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
        return FilterRun(settings: settings, raw: recorder.raw, filtered: recorder.filtered,
                         elapsed: max(elapsed, 1e-9))
    }
}

/// An error of the observation pipeline itself (not of its input).
public enum PipelineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The recorder saw a different number of readings than were played.
    case recorderMismatch(raw: Int, filtered: Int, expected: Int)

    public var description: String {
        switch self {
        case let .recorderMismatch(raw, filtered, expected):
            return "the recorder observed \(raw) raw and \(filtered) filtered readings; expected \(expected) of each"
        }
    }
}
