/// The options of the `accelerometer-filter` command, parsed from its arguments.
///
/// ```swift
/// switch try FilterCommandOptions.parse(["--filter", "highpass-rc", "--adaptive"]) {
/// case .help: print(FilterCommandOptions.usage)
/// case .run(let options): ...
/// }
/// ```
public struct FilterCommandOptions: Sendable, Equatable {
    /// What the arguments ask for.
    public enum Action: Sendable, Equatable {
        /// Print ``FilterCommandOptions/usage`` and exit successfully.
        case help
        /// Run the filter.
        case run(FilterCommandOptions)
    }

    /// The recording to read, or `nil` for the bundled 50 Hz recording.
    public var input: String?
    /// The filter to run.
    public var kind: FilterKind = .lowpass
    /// The classic low-pass factor (`--factor`).
    public var factor = 0.1
    /// The RC filters' cutoff in hertz (`--cutoff`).
    public var cutoff = 5.0
    /// Whether to use the adaptive variant (`--adaptive`).
    public var adaptive = false
    /// Whether to pace the replay by the recording's timestamps (`--realtime`).
    public var realtime = false
    /// Where to write the SVG plot (`--svg`).
    public var svgPath = "accelerometer.svg"
    /// Where to write the CSV export (`--csv`), or `nil` for none.
    public var csvPath: String?

    /// Creates the default options.
    public init() {}

    /// The filter settings these options select, for a recording with `rate`.
    ///
    /// - Parameter rate: The recording's sample rate in hertz.
    /// - Returns: The settings.
    public func settings(rate: Double) -> FilterSettings {
        FilterSettings(kind: kind, factor: factor, cutoff: cutoff, adaptive: adaptive, rate: rate)
    }

    /// The `--help` text.
    public static let usage = """
    USAGE: accelerometer-filter [FILE] [options]

    Replays an accelerometer recording (CSV with columns t,x,y,z; t in seconds, x/y/z in g)
    through an observable Accelerometer model. A filter observes the model by key-value
    observing and publishes its output; a recorder observes both. Prints a summary table and
    writes an SVG plot of raw and filtered x/y/z against time.

    FILE defaults to Samples/Data/accelerometer/gaitpy_geneactiv_lowerback_50hz.csv (50 Hz).

    OPTIONS:
      --filter NAME   lowpass (default), lowpass-rc or highpass-rc
      --factor K      lowpass factor, 0 < K <= 1 (default 0.1); lowpass only
      --cutoff HZ     cutoff frequency of the rc filters, > 0 (default 5); rc filters only
      --adaptive      adaptive variant: damp changes smaller than 0.02 g
      --realtime      pace the replay by the recording's timestamps (default: as fast as possible)
      --svg FILE      where to write the plot (default accelerometer.svg)
      --csv FILE      also write t,x,y,z,fx,fy,fz rows (raw then filtered) to FILE
      -h, --help      show this help

    Options also accept the form --name=value.
    """

    /// Parses command-line arguments (without the program name).
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: ``Action/help`` when `--help` or `-h` appears, otherwise the options.
    /// - Throws: ``UsageError`` for an unknown option, a missing or bad value, an option that
    ///   does not apply to the chosen filter, or a second input file.
    public static func parse(_ arguments: [String]) throws -> Action {
        var options = FilterCommandOptions()
        var given: Set<String> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return .help }
            guard argument.hasPrefix("-"), argument != "-" else {
                if let input = options.input { throw UsageError.extraArgument(argument, input: input) }
                options.input = argument
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError.missingValue(name) }
                return next
            }
            given.insert(name)
            switch name {
            case "--filter":
                let text = try value()
                guard let kind = FilterKind(rawValue: text) else { throw UsageError.badValue(name, text) }
                options.kind = kind
            case "--factor":
                let text = try value()
                guard let k = Double(text), k > 0, k <= 1 else { throw UsageError.badValue(name, text) }
                options.factor = k
            case "--cutoff":
                let text = try value()
                guard let hz = Double(text), hz > 0, hz.isFinite else { throw UsageError.badValue(name, text) }
                options.cutoff = hz
            case "--svg", "--csv":
                let path = try value()
                guard !path.isEmpty else { throw UsageError.badValue(name, path) }
                if name == "--svg" { options.svgPath = path } else { options.csvPath = path }
            case "--adaptive", "--realtime":
                if let inlineValue { throw UsageError.unexpectedValue(name, inlineValue) }
                if name == "--adaptive" { options.adaptive = true } else { options.realtime = true }
            default:
                throw UsageError.unknownOption(name)
            }
        }
        if options.kind == .lowpass, given.contains("--cutoff") {
            throw UsageError.notApplicable("--cutoff", filter: options.kind)
        }
        if options.kind != .lowpass, given.contains("--factor") {
            throw UsageError.notApplicable("--factor", filter: options.kind)
        }
        return .run(options)
    }
}

/// A mistake in the command's arguments; the command prints it and exits with status 2.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option the command does not know.
    case unknownOption(String)
    /// An option that needs a value came last.
    case missingValue(String)
    /// An option's value is not allowed.
    case badValue(String, String)
    /// A flag was given a value (`--adaptive=yes`).
    case unexpectedValue(String, String)
    /// An option that does not apply to the chosen filter.
    case notApplicable(String, filter: FilterKind)
    /// A second input file.
    case extraArgument(String, input: String)

    public var description: String {
        switch self {
        case let .unknownOption(name):
            return "unknown option '\(name)' (see --help)"
        case let .missingValue(name):
            return "option '\(name)' needs a value"
        case let .badValue(name, value):
            let expected: String
            switch name {
            case "--filter": expected = FilterKind.allCases.map(\.rawValue).joined(separator: ", ")
            case "--factor": expected = "a number greater than 0 and at most 1"
            case "--cutoff": expected = "a frequency in hertz greater than 0"
            default: expected = "a file path"
            }
            return "bad value '\(value)' for \(name); expected \(expected)"
        case let .unexpectedValue(name, value):
            return "option '\(name)' takes no value (got '\(value)')"
        case let .notApplicable(name, filter):
            return "option '\(name)' does not apply to --filter \(filter.rawValue)"
        case let .extraArgument(argument, input):
            return "unexpected argument '\(argument)': the input file is already '\(input)'"
        }
    }
}
