import Foundation

/// Replays a recording into an ``Accelerometer``, one sample at a time.
///
/// For each sample the player stores `x`, `y`, `z` and then `timestamp` into the accelerometer;
/// everything downstream reacts through key-value observation. By default it plays as fast as
/// possible; with a pacer (``realtimePacer()``) it waits before each sample until the sample's
/// time, measured from the first sample, has passed.
///
/// ```swift
/// let player = AccelerometerPlayer(recording: recording)
/// player.play(into: accelerometer)                                   // as fast as possible
/// player.play(into: accelerometer, pacer: AccelerometerPlayer.realtimePacer())
/// ```
///
/// Plays the part of the accelerometer hardware and its update interval in Apple's
/// AccelerometerGraph sample.
public struct AccelerometerPlayer: Sendable {
    /// The recording to replay.
    public let recording: AccelerometerRecording

    /// Creates a player.
    ///
    /// - Parameter recording: The samples to replay.
    public init(recording: AccelerometerRecording) {
        self.recording = recording
    }

    /// Stores every sample of the recording into `accelerometer`, in order.
    ///
    /// - Parameters:
    ///   - accelerometer: The model to drive; its observers run during this call, on this thread.
    ///   - pacer: Called before each sample with the sample's offset in seconds from the first
    ///     sample; it may wait. `nil` (the default) plays as fast as possible.
    /// - Complexity: O(*n*) stores, plus whatever the observers do.
    public func play(into accelerometer: Accelerometer, pacer: ((Double) -> Void)? = nil) {
        let start = recording.samples[0].t
        for sample in recording.samples {
            pacer?(sample.t - start)
            accelerometer.x = sample.x
            accelerometer.y = sample.y
            accelerometer.z = sample.z
            accelerometer.timestamp = sample.t
        }
    }

    /// The longest recording that may be replayed in real time: 24 hours, in seconds.
    public static let maximumRealtimeDuration = 86_400.0

    /// Checks that `recording` may be replayed in real time.
    ///
    /// - Parameter recording: The recording to replay.
    /// - Throws: ``PlaybackError/tooLongForRealtime(duration:limit:)`` when it lasts longer than
    ///   ``maximumRealtimeDuration``.
    public static func checkRealtime(_ recording: AccelerometerRecording) throws {
        guard recording.duration <= maximumRealtimeDuration else {
            throw PlaybackError.tooLongForRealtime(duration: recording.duration, limit: maximumRealtimeDuration)
        }
    }

    /// A pacer that sleeps until each offset has passed since its first call, so that a replay
    /// runs at the recording's own speed.
    ///
    /// Offsets that are not finite or not positive do not wait; offsets beyond
    /// ``maximumRealtimeDuration`` wait that long (check recordings with
    /// ``checkRealtime(_:)`` first).
    ///
    /// - Returns: A pacer for ``play(into:pacer:)``. Use each pacer for one replay only.
    public static func realtimePacer() -> (Double) -> Void {
        let clock = ContinuousClock()
        var start: ContinuousClock.Instant?
        return { offset in
            let origin = start ?? clock.now
            start = origin
            guard offset.isFinite, offset > 0 else { return }
            let remaining = (origin + .seconds(Swift.min(offset, maximumRealtimeDuration))) - clock.now
            if remaining > .zero {
                let parts = remaining.components
                Thread.sleep(forTimeInterval: Double(parts.seconds) + Double(parts.attoseconds) * 1e-18)
            }
        }
    }
}

/// A replay that cannot be made.
public enum PlaybackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--realtime` was asked for a recording longer than the limit (seconds).
    case tooLongForRealtime(duration: Double, limit: Double)

    public var description: String {
        switch self {
        case let .tooLongForRealtime(duration, limit):
            return "--realtime replays at the recording's own speed, and this recording lasts "
                + "\(duration) s, more than the limit of \(limit) s (24 h); drop --realtime"
        }
    }
}
