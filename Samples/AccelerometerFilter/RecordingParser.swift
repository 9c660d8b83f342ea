import Foundation

/// Parses the bytes of a `t,x,y,z` CSV file into samples, in one pass and without making a
/// `String` per line or field (see ``AccelerometerRecording`` for the format).
///
/// Lines end in LF, CRLF or CR. Numbers in the common form (`-0.0123`, `9.81`, `1e-3`, at most
/// 19 significant digits) are converted from their digits with one exact IEEE operation, which
/// gives the correctly rounded value, the same as `Double(String)`; any other text (hex floats,
/// long mantissas, non-ASCII space, garbage) goes through `Double(String)`.
struct RecordingParser {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The samples of the file.
    ///
    /// - Throws: A ``RecordingError`` naming the first bad line.
    /// - Complexity: O(*n*) in the number of bytes.
    func samples() throws -> [AccelerometerSample] {
        var columns: ColumnIndexes?
        var samples: [AccelerometerSample] = []
        samples.reserveCapacity(bytes.count / 40)
        var lineNumber = 0
        var previousLine = 0
        var start = 0
        let end = bytes.count
        while true {
            var stop = start
            while stop < end, bytes[stop] != 0x0A, bytes[stop] != 0x0D { stop += 1 }
            lineNumber += 1
            if !isBlank(start, stop) {
                previousLine = lineNumber
                if let columns {
                    let sample = try self.sample(start, stop, columns: columns, line: lineNumber)
                    try RecordingLimits.check(sample, after: samples.last, first: samples.first, line: lineNumber)
                    samples.append(sample)
                } else {
                    columns = try ColumnIndexes(header: headerFields(start, stop), line: lineNumber)
                }
            }
            guard stop < end else { break }
            start = stop + (bytes[stop] == 0x0D && stop + 1 < end && bytes[stop + 1] == 0x0A ? 2 : 1)
        }
        guard columns != nil else { throw RecordingError.empty(line: 1) }
        guard samples.count >= 2 else {
            throw RecordingError.tooFewSamples(samples.count, line: previousLine + 1)
        }
        try RecordingLimits.checkRate(of: samples, line: previousLine)
        return samples
    }

    private func isBlank(_ start: Int, _ stop: Int) -> Bool {
        var index = start
        while index < stop {
            if bytes[index] != 0x20, bytes[index] != 0x09 { return false }
            index += 1
        }
        return true
    }

    private func headerFields(_ start: Int, _ stop: Int) -> [String] {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Reads one data row: checks its field count, then parses t, x, y and z (in that order).
    private func sample(_ start: Int, _ stop: Int, columns: ColumnIndexes, line: Int) throws -> AccelerometerSample {
        var ranges = (t: 0..<0, x: 0..<0, y: 0..<0, z: 0..<0)
        var field = 0
        var fieldStart = start
        var index = start
        while true {
            if index == stop || bytes[index] == 0x2C {
                let range = fieldStart..<index
                if field == columns.t { ranges.t = range }
                if field == columns.x { ranges.x = range }
                if field == columns.y { ranges.y = range }
                if field == columns.z { ranges.z = range }
                field += 1
                fieldStart = index + 1
                if index == stop { break }
            }
            index += 1
        }
        guard field == columns.count else {
            throw RecordingError.wrongFieldCount(expected: columns.count, found: field, line: line)
        }
        return AccelerometerSample(t: try number(ranges.t, "t", line), x: try number(ranges.x, "x", line),
                                   y: try number(ranges.y, "y", line), z: try number(ranges.z, "z", line))
    }

    /// The finite number in `range`, trimmed of spaces and tabs.
    private func number(_ range: Range<Int>, _ column: String, _ line: Int) throws -> Double {
        var low = range.lowerBound, high = range.upperBound
        while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
        while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
        if let value = DecimalScanner.value(of: UnsafeBufferPointer(rebasing: bytes[low..<high])) {
            return value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        guard let value = Double(text), value.isFinite else {
            throw RecordingError.notANumber(text, column: column, line: line)
        }
        return value
    }
}

/// Converts `[+-]digits[.digits][(e|E)[+-]digits]` exactly (Clinger's fast path).
enum DecimalScanner {
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The value of `text`, or `nil` when it is not in the simple form or cannot be converted
    /// with one exact operation (the caller then uses `Double(String)`).
    static func value(of text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = text.count
        var negative = false
        if index < count, text[index] == 0x2D || text[index] == 0x2B {
            negative = text[index] == 0x2D
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        var seenPoint = false
        while index < count {
            let byte = text[index]
            if byte == 0x2E {
                if seenPoint { return nil }
                seenPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                if mantissa != 0 || byte != 0x30 { significant += 1 }
                if significant > 19 { return nil }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                if seenPoint { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < count {
            guard text[index] == 0x65 || text[index] == 0x45 else { return nil }
            index += 1
            var exponentNegative = false
            if index < count, text[index] == 0x2D || text[index] == 0x2B {
                exponentNegative = text[index] == 0x2D
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, text[index] >= 0x30 && text[index] <= 0x39 {
                written = written * 10 + Int(text[index] - 0x30)
                exponentDigits += 1
                if written > 10_000 { return nil }
                index += 1
            }
            guard exponentDigits > 0, index == count else { return nil }
            exponent += exponentNegative ? -written : written
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let magnitude = exponent < 0 ? Double(mantissa) / powers[-exponent] : Double(mantissa) * powers[exponent]
        return negative ? -magnitude : magnitude
    }
}
