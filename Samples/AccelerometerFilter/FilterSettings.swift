/// Which filter to run over the accelerometer readings.
public enum FilterKind: String, Sendable, CaseIterable {
    /// The classic exponential low-pass: `out = a*k + out*(1-k)`.
    case lowpass
    /// AccelerometerGraph's low-pass: alpha = dt/(dt+RC), `out = a*alpha + out*(1-alpha)`.
    case lowpassRC = "lowpass-rc"
    /// AccelerometerGraph's high-pass: alpha = RC/(dt+RC), `out = alpha*(out + a - previousA)`.
    case highpassRC = "highpass-rc"
}

/// A filter's kind and parameters, and the arithmetic of one filter step.
///
/// All state starts at zero and all arithmetic is in `Double`, in exactly the order written in
/// the documentation of each member (so an independent computation can match it bit for bit).
/// The filter runs per axis with the same alpha on every axis.
///
/// ```swift
/// let settings = FilterSettings(kind: .highpassRC, cutoff: 5, adaptive: true, rate: 50)
/// var state = FilterState()
/// settings.step(&state, input: sample)      // state.output is the filtered sample
/// ```
///
/// Corresponds to the `LowpassFilter` / `HighpassFilter` classes of Apple's AccelerometerGraph.
public struct FilterSettings: Sendable, Hashable {
    /// The smallest change in acceleration magnitude, in g, that adaptive filters treat as signal.
    public static let minimumStep = 0.02
    /// How much adaptive filters damp changes that look like noise.
    public static let noiseAttenuation = 3.0

    /// The filter.
    public var kind: FilterKind
    /// The classic low-pass factor k (used by ``FilterKind/lowpass``).
    public var factor: Double
    /// The cutoff frequency in hertz (used by the RC filters).
    public var cutoff: Double
    /// Whether the filter adapts its alpha to the size of each change.
    public var adaptive: Bool
    /// The sample rate in hertz (used by the RC filters).
    public var rate: Double

    /// Creates filter settings.
    ///
    /// - Parameters:
    ///   - kind: The filter. Default: ``FilterKind/lowpass``.
    ///   - factor: The classic low-pass factor k. Default 0.1.
    ///   - cutoff: The RC filters' cutoff frequency in hertz. Default 5.
    ///   - adaptive: Whether to adapt alpha to each change. Default `false`.
    ///   - rate: The sample rate in hertz, normally ``AccelerometerRecording/rate``.
    public init(kind: FilterKind = .lowpass, factor: Double = 0.1, cutoff: Double = 5,
                adaptive: Bool = false, rate: Double) {
        self.kind = kind
        self.factor = factor
        self.cutoff = cutoff
        self.adaptive = adaptive
        self.rate = rate
    }

    /// The non-adaptive alpha c: k for ``FilterKind/lowpass``; with dt = 1/rate and
    /// RC = 1/cutoff, dt/(dt+RC) for the RC low-pass and RC/(dt+RC) for the RC high-pass.
    public var coefficient: Double {
        switch kind {
        case .lowpass:
            return factor
        case .lowpassRC:
            let dt = 1 / rate
            let rc = 1 / cutoff
            return dt / (dt + rc)
        case .highpassRC:
            let dt = 1 / rate
            let rc = 1 / cutoff
            return rc / (dt + rc)
        }
    }

    /// Checks that ``coefficient`` is usable: a number greater than 0 and at most 1.
    ///
    /// Extreme cutoffs against the sample rate break it: a cutoff of 1e-320 Hz makes RC
    /// infinite, so the RC high-pass's alpha is `nan` and the RC low-pass's is 0.
    ///
    /// - Throws: ``FilterSettingsError/unusableCoefficient(_:settings:)``.
    public func validate() throws {
        let c = coefficient
        guard c > 0, c <= 1 else { throw FilterSettingsError.unusableCoefficient(c, settings: self) }
    }

    /// The alpha for one step.
    ///
    /// Without ``adaptive`` it is ``coefficient``. With it, d = clamp(|‖out‖ − ‖a‖| / 0.02 − 1, 0, 1),
    /// where ‖out‖ is the length of the previous output and ‖a‖ that of the current input;
    /// the low-passes use (1−d)·c/3 + d·c and the high-pass d·c/3 + (1−d)·c.
    ///
    /// - Parameters:
    ///   - previousOutput: The filter's output before this step.
    ///   - input: The current reading.
    /// - Returns: The alpha to apply on every axis.
    public func alpha(previousOutput: AccelerometerSample, input: AccelerometerSample) -> Double {
        let c = coefficient
        guard adaptive else { return c }
        let d = Self.adaptiveWeight(previousOutput: previousOutput, input: input)
        switch kind {
        case .lowpass, .lowpassRC:
            return (1 - d) * c / Self.noiseAttenuation + d * c
        case .highpassRC:
            return d * c / Self.noiseAttenuation + (1 - d) * c
        }
    }

    /// d = clamp(|‖out‖ − ‖a‖| / minimumStep − 1, 0, 1).
    static func adaptiveWeight(previousOutput: AccelerometerSample, input: AccelerometerSample) -> Double {
        let raw = abs(previousOutput.magnitude - input.magnitude) / minimumStep - 1
        return min(max(raw, 0), 1)
    }

    /// Advances the filter by one reading.
    ///
    /// Low-passes: `out = a*alpha + out*(1-alpha)`; high-pass: `out = alpha*(out + a - previousA)`,
    /// per axis. The output's time becomes the input's time.
    ///
    /// - Parameters:
    ///   - state: The filter's state, updated in place.
    ///   - input: The current reading.
    public func step(_ state: inout FilterState, input a: AccelerometerSample) {
        let alpha = alpha(previousOutput: state.output, input: a)
        var out = state.output
        switch kind {
        case .lowpass, .lowpassRC:
            out.x = a.x * alpha + out.x * (1 - alpha)
            out.y = a.y * alpha + out.y * (1 - alpha)
            out.z = a.z * alpha + out.z * (1 - alpha)
        case .highpassRC:
            let p = state.previousInput
            out.x = alpha * (out.x + a.x - p.x)
            out.y = alpha * (out.y + a.y - p.y)
            out.z = alpha * (out.z + a.z - p.z)
        }
        out.t = a.t
        state.output = out
        state.previousInput = a
    }

    /// Filters a whole series with the pure arithmetic (no observation).
    ///
    /// - Parameter samples: The readings in time order.
    /// - Returns: The filtered readings, one per input.
    public func apply(to samples: [AccelerometerSample]) -> [AccelerometerSample] {
        var state = FilterState()
        return samples.map { sample in
            step(&state, input: sample)
            return state.output
        }
    }

    /// A short description such as `lowpass (factor 0.1)` or `highpass-rc (cutoff 5.0 Hz, adaptive)`.
    public var summary: String {
        let parameter = kind == .lowpass ? "factor \(factor)" : "cutoff \(cutoff) Hz"
        return "\(kind.rawValue) (\(parameter)\(adaptive ? ", adaptive" : ""))"
    }
}

/// The state of one filter: its last output and its last input, both zero at the start.
public struct FilterState: Sendable, Hashable {
    /// The filter's latest output.
    public var output = AccelerometerSample(t: 0, x: 0, y: 0, z: 0)
    /// The latest input (the high-pass's previousA).
    public var previousInput = AccelerometerSample(t: 0, x: 0, y: 0, z: 0)

    /// Creates the zero state.
    public init() {}
}

/// Filter settings that cannot filter.
public enum FilterSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The coefficient derived from the settings is not in (0, 1].
    case unusableCoefficient(Double, settings: FilterSettings)

    public var description: String {
        switch self {
        case let .unusableCoefficient(coefficient, settings):
            let given = settings.kind == .lowpass ? "--factor \(settings.factor)" : "--cutoff \(settings.cutoff) Hz"
            return "\(given) with a sample rate of \(settings.rate) Hz gives the \(settings.kind.rawValue) "
                + "filter coefficient \(coefficient), which must be greater than 0 and at most 1; "
                + "choose a cutoff nearer the sample rate"
        }
    }
}
