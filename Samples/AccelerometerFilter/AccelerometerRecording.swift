import Foundation

/// A recorded series of accelerometer samples, read from a `t,x,y,z` CSV file.
///
/// The format is the one of the bundled recordings in `Samples/Data/accelerometer/`: a header
/// line naming the columns, then one sample per line, comma-separated, no quoting. The columns
/// `t` (seconds), `x`, `y`, `z` (g) are required, in any order; other columns are ignored.
/// Lines may end in LF or CRLF; blank lines are skipped (but still counted for line numbers).
/// Times must strictly increase and there must be at least two samples.
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
        for index in 1..<samples.count where !(samples[index].t > samples[index - 1].t) {
            throw RecordingError.timeNotIncreasing(samples[index].t, previous: samples[index - 1].t,
                                                   line: index + 2)
        }
        self.samples = samples
    }

    /// Reads a recording from a CSV file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``RecordingError/unreadable(path:reason:)`` when the file cannot be read as
    ///   UTF-8, otherwise the errors of ``init(csv:)``.
    public init(contentsOfFile path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RecordingError.unreadable(path: path, reason: "no readable UTF-8 file at this path")
        }
        try self.init(csv: text)
    }

    /// Parses a recording from CSV text.
    ///
    /// - Parameter csv: The text of the file.
    /// - Throws: A ``RecordingError`` naming the first bad line: no header, a missing or
    ///   duplicated column, a row with the wrong number of fields, a field that is not a finite
    ///   number, a time that does not increase, or fewer than two samples.
    /// - Complexity: O(*n*) in the length of the text.
    public init(csv: String) throws {
        var columns: ColumnIndexes?
        var samples: [AccelerometerSample] = []
        var lineNumber = 0
        var previousLine = 0
        // "\r\n" is one Character in Swift, so both line endings are listed.
        let lines = csv.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for rawLine in lines {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            previousLine = lineNumber
            guard let indexes = columns else {
                columns = try ColumnIndexes(header: fields, line: lineNumber)
                continue
            }
            let sample = try indexes.sample(from: fields, line: lineNumber)
            if let last = samples.last, !(sample.t > last.t) {
                throw RecordingError.timeNotIncreasing(sample.t, previous: last.t, line: lineNumber)
            }
            samples.append(sample)
        }
        guard columns != nil else { throw RecordingError.empty(line: 1) }
        guard samples.count >= 2 else {
            throw RecordingError.tooFewSamples(samples.count, line: previousLine + 1)
        }
        self.samples = samples
    }

    /// The time from the first sample to the last, in seconds.
    public var duration: Double { samples[samples.count - 1].t - samples[0].t }

    /// The sample rate in hertz: `(rows − 1) / (t_last − t_first)`.
    public var rate: Double { Double(samples.count - 1) / duration }
}

/// Where the required columns are in each row.
private struct ColumnIndexes {
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

    func sample(from fields: [String], line: Int) throws -> AccelerometerSample {
        guard fields.count == count else {
            throw RecordingError.wrongFieldCount(expected: count, found: fields.count, line: line)
        }
        return AccelerometerSample(t: try number(fields[t], "t", line), x: try number(fields[x], "x", line),
                                   y: try number(fields[y], "y", line), z: try number(fields[z], "z", line))
    }

    private func number(_ text: String, _ column: String, _ line: Int) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw RecordingError.notANumber(text, column: column, line: line)
        }
        return value
    }
}
