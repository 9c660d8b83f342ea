/// An error reading an accelerometer recording, naming the line at fault.
///
/// Lines are numbered from 1; line 1 is the header.
public enum RecordingError: Error, Equatable, Sendable {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The file has no header line (it is empty or blank).
    case empty(line: Int)
    /// The header lacks a required column (`t`, `x`, `y` or `z`).
    case missingColumn(String, line: Int)
    /// The header names a column twice.
    case duplicateColumn(String, line: Int)
    /// A data row has a different number of fields than the header.
    case wrongFieldCount(expected: Int, found: Int, line: Int)
    /// A field is not a finite decimal number.
    case notANumber(String, column: String, line: Int)
    /// The time does not increase from the previous row.
    case timeNotIncreasing(Double, previous: Double, line: Int)
    /// Fewer than two samples: the sample rate cannot be computed.
    case tooFewSamples(Int, line: Int)
    /// An acceleration beyond ±``RecordingLimits/maximumAcceleration`` g.
    case valueOutOfRange(Double, column: String, line: Int)
    /// The time from the first sample to this line's is not a finite `Double`.
    case timeSpanOverflow(line: Int)
    /// The times are so close that the sample rate is not a finite number
    /// (`line` is the last sample's).
    case rateNotFinite(samples: Int, duration: Double, line: Int)

    /// The line the error refers to, or `nil` when the file could not be read.
    public var line: Int? {
        switch self {
        case .unreadable: return nil
        case let .empty(line), let .missingColumn(_, line), let .duplicateColumn(_, line),
             let .wrongFieldCount(_, _, line), let .notANumber(_, _, line),
             let .timeNotIncreasing(_, _, line), let .tooFewSamples(_, line),
             let .valueOutOfRange(_, _, line), let .timeSpanOverflow(line), let .rateNotFinite(_, _, line):
            return line
        }
    }
}

extension RecordingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read '\(path)': \(reason)"
        case let .empty(line):
            return "line \(line): the file is empty; expected a header line 't,x,y,z'"
        case let .missingColumn(column, line):
            return "line \(line): the header has no column '\(column)' (expected 't,x,y,z')"
        case let .duplicateColumn(column, line):
            return "line \(line): the header names the column '\(column)' twice"
        case let .wrongFieldCount(expected, found, line):
            return "line \(line): expected \(expected) fields, found \(found)"
        case let .notANumber(text, column, line):
            return "line \(line): '\(text)' in column '\(column)' is not a finite number"
        case let .timeNotIncreasing(time, previous, line):
            return "line \(line): time \(time) does not increase (previous row: \(previous))"
        case let .tooFewSamples(count, line):
            return "line \(line): the recording has \(count) sample\(count == 1 ? "" : "s"); "
                + "at least 2 are needed to compute the sample rate"
        case let .valueOutOfRange(value, column, line):
            return "line \(line): \(column) = \(value) g is outside the accepted range "
                + "±\(RecordingLimits.maximumAcceleration) g"
        case let .timeSpanOverflow(line):
            return "line \(line): the time from the first sample to this one is too large to compute "
                + "(it overflows a Double)"
        case let .rateNotFinite(count, duration, line):
            return "line \(line): \(count) samples over \(duration) s give a sample rate that is not "
                + "a finite number; the times are too close together"
        }
    }
}
