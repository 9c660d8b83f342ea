import KeyValueCoding
import KeyValueObserving

/// The observable model of a three-axis accelerometer: the latest reading and its time.
///
/// An ``AccelerometerPlayer`` stores each recorded sample into it, `x`, `y` and `z` first and
/// `timestamp` last, so a change of ``timestamp`` marks a complete sample. Filters and
/// recorders find out about new readings only by observing it:
///
/// ```swift
/// let accelerometer = Accelerometer()
/// let token = try accelerometer.observe("timestamp", options: [.new]) { accelerometer, _ in
///     print(accelerometer.x, accelerometer.y, accelerometer.z)
/// }
/// ```
///
/// Plays the part of `UIAccelerometer` and its `UIAcceleration` readings in Apple's
/// AccelerometerGraph sample.
///
/// - Important: Thread safety: not thread-safe. Use one accelerometer, and everything that
///   observes it, from one thread at a time; observers are called on the thread that stores.
public final class Accelerometer: KeyValueObservable {
    /// Acceleration along the device's x axis, in g.
    @Observed public var x = 0.0
    /// Acceleration along the device's y axis, in g.
    @Observed public var y = 0.0
    /// Acceleration along the device's z axis, in g.
    @Observed public var z = 0.0
    /// The time of the reading, in seconds; stored after `x`, `y` and `z`.
    @Observed public var timestamp = 0.0

    /// Creates an accelerometer that reads zero on every axis at time zero.
    public init() {}
}

/// One accelerometer reading: a time and an acceleration on three axes.
///
/// A value type used to read recordings, to drive the ``Accelerometer`` and to collect what
/// observers saw. Corresponds to `UIAcceleration` (and to Core Motion's `CMAcceleration` with a
/// timestamp).
public struct AccelerometerSample: Sendable, Hashable {
    /// Seconds since the start of the recording.
    public var t: Double
    /// Acceleration along x, in g.
    public var x: Double
    /// Acceleration along y, in g.
    public var y: Double
    /// Acceleration along z, in g.
    public var z: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - t: Seconds since the start of the recording.
    ///   - x: Acceleration along x, in g.
    ///   - y: Acceleration along y, in g.
    ///   - z: Acceleration along z, in g.
    public init(t: Double, x: Double, y: Double, z: Double) {
        self.t = t
        self.x = x
        self.y = y
        self.z = z
    }

    /// The Euclidean length of the acceleration, `sqrt(x*x + y*y + z*z)`, in g.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}
