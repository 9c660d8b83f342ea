/// The mean and population standard deviation of one axis of a series of readings.
public struct AxisStatistics: Sendable, Hashable {
    /// The arithmetic mean.
    public let mean: Double
    /// The population standard deviation: sqrt(Σ(v − mean)² / n).
    public let standardDeviation: Double

    /// Computes the statistics of `values` in two passes (mean first, then deviations).
    ///
    /// - Parameter values: At least one value.
    /// - Complexity: O(*n*).
    public init<Values: Collection<Double>>(_ values: Values) {
        let count = Double(Swift.max(values.count, 1))
        let mean = values.reduce(0, +) / count
        let squares = values.reduce(0) { sum, value in sum + (value - mean) * (value - mean) }
        self.mean = mean
        standardDeviation = (squares / count).squareRoot()
    }

    /// The statistics of the x, y and z axes of `samples`.
    ///
    /// - Parameter samples: The readings.
    /// - Returns: The statistics of x, y and z, in that order.
    public static func axes(of samples: [AccelerometerSample]) -> [AxisStatistics] {
        [AxisStatistics(samples.lazy.map(\.x)), AxisStatistics(samples.lazy.map(\.y)),
         AxisStatistics(samples.lazy.map(\.z))]
    }
}
