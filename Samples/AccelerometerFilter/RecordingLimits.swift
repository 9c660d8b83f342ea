/// The limits a recording must stay within so that every figure computed from it is finite.
///
/// - Accelerations must lie within ±``maximumAcceleration`` g: far beyond any sensor, and small
///   enough that sums and squares of a few million of them stay finite.
/// - The time from the first sample to each sample must be a finite `Double` (times near
///   ±1.8e308 can be finite while their difference is not).
/// - The sample rate, (samples − 1) / duration, must be finite and greater than zero (times only
///   a few subnormal steps apart give an infinite rate).
public enum RecordingLimits {
    /// The largest accepted acceleration magnitude, in g.
    public static let maximumAcceleration = 1e12

    /// Checks one parsed sample against the previous one and the first one.
    static func check(_ sample: AccelerometerSample, after previous: AccelerometerSample?,
                      first: AccelerometerSample?, line: Int) throws {
        for (value, column) in [(sample.x, "x"), (sample.y, "y"), (sample.z, "z")]
        where !(abs(value) <= maximumAcceleration) {
            throw RecordingError.valueOutOfRange(value, column: column, line: line)
        }
        if let previous, !(sample.t > previous.t) {
            throw RecordingError.timeNotIncreasing(sample.t, previous: previous.t, line: line)
        }
        if let first, !(sample.t - first.t).isFinite {
            throw RecordingError.timeSpanOverflow(line: line)
        }
    }

    /// Checks that the recording's sample rate is a finite positive number.
    static func checkRate(of samples: [AccelerometerSample], line: Int) throws {
        let duration = samples[samples.count - 1].t - samples[0].t
        let rate = Double(samples.count - 1) / duration
        guard rate.isFinite, rate > 0 else {
            throw RecordingError.rateNotFinite(samples: samples.count, duration: duration, line: line)
        }
    }
}
