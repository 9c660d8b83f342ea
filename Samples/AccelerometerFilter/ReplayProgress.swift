import Foundation

/// The progress lines of a real-time replay: one when it starts, one every few seconds of
/// recording time, and one when the last sample has been played.
///
/// A `--realtime` replay of the bundled 50 Hz recording takes its full 162 seconds; without
/// these lines the command would print nothing until it ends. The command writes them to
/// standard error, so standard output keeps only the summary.
///
/// ```swift
/// var progress = ReplayProgress(duration: recording.duration)
/// let pacer = AccelerometerPlayer.realtimePacer()
/// player.play(into: accelerometer) { offset in
///     pacer(offset)
///     if let line = progress.line(at: offset) { print(line.text) }
/// }
/// ```
public struct ReplayProgress: Sendable {
    /// The length of the recording, in seconds.
    public let duration: Double
    /// The recording time between two progress lines, in seconds.
    public let interval: Double

    private var started = false
    private var finished = false
    private var nextReport: Double

    /// Creates the progress of a replay.
    ///
    /// - Parameters:
    ///   - duration: The length of the recording, in seconds (from the first sample to the last).
    ///   - interval: The recording time between two progress lines, in seconds (default 5).
    public init(duration: Double, interval: Double = 5) {
        self.duration = duration
        self.interval = interval > 0 && interval.isFinite ? interval : 5
        self.nextReport = self.interval
    }

    /// The progress line to show before the sample at `offset` is played, if one is due.
    ///
    /// - Parameter offset: The sample's time from the first sample, in seconds; offsets arrive
    ///   in increasing order.
    /// - Returns: The line's text, and whether it is the last one (the replay has reached the
    ///   end of the recording); nil when no line is due.
    public mutating func line(at offset: Double) -> (text: String, isLast: Bool)? {
        guard !finished else { return nil }
        if !started {
            started = true
            return ("replaying \(Self.seconds(duration)) s at the recording's own speed (--realtime); "
                    + "progress every \(Self.seconds(interval)) s", false)
        }
        if offset >= duration {
            finished = true
            return ("replayed \(Self.seconds(duration)) s of \(Self.seconds(duration)) s (100%)", true)
        }
        guard offset >= nextReport else { return nil }
        while nextReport <= offset { nextReport += interval }
        let percent = Int((offset / duration * 100).rounded(.down))
        return ("replayed \(Self.seconds(offset)) s of \(Self.seconds(duration)) s (\(percent)%)", false)
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
