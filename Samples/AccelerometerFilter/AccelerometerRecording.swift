import Foundation

/// A recorded series of accelerometer samples, read from a `t,x,y,z` CSV file.
///
/// The format is the one of the bundled recordings in `Samples/Data/accelerometer/`: a header
/// line naming the columns, then one sample per line, comma-separated, no quoting. The columns
/// `t` (seconds), `x`, `y`, `z` (g) are required, in any order; other columns are ignored.
/// Lines may end in LF, CRLF or CR; blank lines are skipped (but still counted for line numbers).
/// Times must strictly increase, there must be at least two samples, and the values must stay
/// within ``RecordingLimits`` (so that the duration, the rate and the statistics are finite).
///
/// ```swift
/// let recording = try AccelerometerRecording(contentsOfFile: "walk.csv")
/// print(recording.samples.count, recording.rate)
/// ```
public struct AccelerometerRecording: Sendable, Equatable {
    /// The samples in file order.
    public let samples: [AccelerometerSample]

    /// Creates a recording from samples already in memory.
    ///
    /// - Parameter samples: At least two samples with strictly increasing times.
    /// - Throws: ``RecordingError/tooFewSamples(_:line:)`` or
    ///   ``RecordingError/timeNotIncreasing(_:previous:line:)`` (line numbers as if the samples
    ///   were rows after a header).
    public init(samples: [AccelerometerSample]) throws {
        guard samples.count >= 2 else {
            throw RecordingError.tooFewSamples(samples.count, line: samples.count + 2)
        }
        for index in samples.indices {
            try RecordingLimits.check(samples[index], after: index > 0 ? samples[index - 1] : nil,
                                      first: samples[0], line: index + 2)
        }
        try RecordingLimits.checkRate(of: samples, line: samples.count + 1)
        self.samples = samples
    }

    /// Reads a recording from a CSV file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``RecordingError/unreadable(path:reason:)`` saying whether there is no such
    ///   file, the path is a directory, the file cannot be opened, or it is not UTF-8 text
    ///   (UTF-16, binary, or an invalid byte, with its offset); otherwise the errors of
    ///   ``init(csv:)``.
    /// - Complexity: O(*n*) in the size of the file, which is mapped rather than copied.
    public init(contentsOfFile path: String) throws {
        let data = try RecordingFile.contents(of: path)
        samples = try data.withUnsafeBytes { raw in
            try RecordingParser(bytes: raw.bindMemory(to: UInt8.self)).samples()
        }
    }

    /// Parses a recording from CSV text.
    ///
    /// - Parameter csv: The text of the file.
    /// - Throws: A ``RecordingError`` naming the first bad line: no header, a missing or
    ///   duplicated column, a row with the wrong number of fields, a field that is not a finite
    ///   number, an acceleration out of range, a time that does not increase, a time span or
    ///   sample rate that is not finite, or fewer than two samples.
    /// - Complexity: O(*n*) in the length of the text.
    public init(csv: String) throws {
        var text = csv
        samples = try text.withUTF8 { try RecordingParser(bytes: $0).samples() }
    }

    /// The time from the first sample to the last, in seconds.
    public var duration: Double { samples[samples.count - 1].t - samples[0].t }

    /// The sample rate in hertz: `(rows − 1) / (t_last − t_first)`.
    public var rate: Double { Double(samples.count - 1) / duration }
}

/// Where the required columns are in each row.
struct ColumnIndexes {
    static let required = ["t", "x", "y", "z"]
    let count: Int
    let t: Int, x: Int, y: Int, z: Int

    init(header: [String], line: Int) throws {
        var positions: [String: Int] = [:]
        for (index, name) in header.enumerated() {
            if positions[name] != nil { throw RecordingError.duplicateColumn(name, line: line) }
            positions[name] = index
        }
        for name in Self.required where positions[name] == nil {
            throw RecordingError.missingColumn(name, line: line)
        }
        count = header.count
        t = positions["t"] ?? 0
        x = positions["x"] ?? 0
        y = positions["y"] ?? 0
        z = positions["z"] ?? 0
    }
}
