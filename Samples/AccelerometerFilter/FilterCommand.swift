import Foundation

/// What the `accelerometer-filter` command does once its arguments are parsed.
public enum FilterCommand {
    /// Reads the input, replays it through the observation pipeline, writes the SVG (and CSV)
    /// files and returns the text to print.
    ///
    /// With `--realtime` the replay takes as long as the recording; `progress` is then told a
    /// line when it starts, every 5 seconds of recording time, and at the end
    /// (``ReplayProgress``), with whether the line is the last.
    ///
    /// - Parameters:
    ///   - options: The parsed options.
    ///   - progress: Receives the progress lines of a `--realtime` replay; the command writes
    ///     them to standard error. Not called without `--realtime`.
    /// - Returns: The summary table, followed by the names of the files written.
    /// - Throws: ``InputFileError`` for a bad input file, ``FilterSettingsError`` when the
    ///   cutoff gives no usable filter coefficient at the recording's rate,
    ///   ``PlaybackError`` for `--realtime` with a recording longer than 24 hours,
    ///   ``OutputError`` when an output file cannot be written, ``PipelineError`` if the
    ///   observation path loses readings.
    public static func run(_ options: FilterCommandOptions,
                           progress: (_ line: String, _ isLast: Bool) -> Void = { _, _ in }) throws -> String {
        let path = options.input ?? BundledRecordings.path(of: BundledRecordings.default50Hz)
        let recording: AccelerometerRecording
        do {
            recording = try AccelerometerRecording(contentsOfFile: path)
        } catch let error as RecordingError {
            throw InputFileError(path: path, error: error)
        }
        let settings = options.settings(rate: recording.rate)
        try settings.validate()
        if options.realtime { try AccelerometerPlayer.checkRealtime(recording) }
        let run: FilterRun
        if options.realtime {
            let pacer = AccelerometerPlayer.realtimePacer()
            var replay = ReplayProgress(duration: recording.duration)
            run = try withoutActuallyEscaping(progress) { progress in
                try FilterPipeline.run(recording, settings: settings) { offset in
                    pacer(offset)
                    if let line = replay.line(at: offset) { progress(line.text, line.isLast) }
                }
            }
        } else {
            run = try FilterPipeline.run(recording, settings: settings)
        }
        var report = run.summary(input: path, rate: recording.rate)
        let plot = AccelerometerPlot(title: "Accelerometer: raw and \(settings.summary)")
        try write(plot.svg(raw: run.raw, filtered: run.filtered), to: options.svgPath)
        report += "wrote \(options.svgPath)\n"
        if let csvPath = options.csvPath {
            try write(run.csv(), to: csvPath)
            report += "wrote \(csvPath)\n"
        }
        return report
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw OutputError.cannotWrite(path)
        }
    }
}

/// An output file could not be written.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path is not writable (missing directory, no permission).
    case cannotWrite(String)

    public var description: String {
        switch self {
        case let .cannotWrite(path): return "cannot write '\(path)'"
        }
    }
}

/// A bad input file: the path and what is wrong with it (the error names the line).
public struct InputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path of the input file.
    public let path: String
    /// What is wrong.
    public let error: RecordingError

    public var description: String {
        if case .unreadable = error { return error.description }
        return "\(path): \(error)"
    }
}
