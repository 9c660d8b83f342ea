import Foundation

/// Reads a recording file's bytes and checks that they are UTF-8 text, saying precisely what is
/// wrong otherwise.
enum RecordingFile {
    /// The bytes of the file at `path`, without a UTF-8 byte order mark.
    ///
    /// - Throws: ``RecordingError/unreadable(path:reason:)``: no such file, a directory, a file
    ///   that cannot be opened, UTF-16 text, binary data (a NUL byte), or invalid UTF-8 (naming
    ///   the byte and its offset).
    static func contents(of path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RecordingError.unreadable(path: path, reason: "no such file")
        }
        if isDirectory.boolValue {
            throw RecordingError.unreadable(path: path, reason: "it is a directory, not a CSV file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: path)
                ? "the file cannot be read" : "permission denied"
            throw RecordingError.unreadable(path: path, reason: reason)
        }
        if let problem = data.withUnsafeBytes({ textProblem(in: $0.bindMemory(to: UInt8.self)) }) {
            throw RecordingError.unreadable(path: path, reason: problem)
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return data.dropFirst(3) }
        return data
    }

    /// Why `bytes` are not UTF-8 text, or `nil` when they are.
    static func textProblem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return "the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8"
        }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0 {
                return "the file is not text: it has a NUL byte at offset \(index) (binary data, or UTF-16?)"
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(bytes, at: index)
            guard length > 0 else {
                return "the file is not UTF-8 text: invalid byte 0x" + String(byte, radix: 16, uppercase: true)
                    + " at offset \(index)"
            }
            index += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0.
    private static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let (min, max) = offset == 1 ? (low, high) : (0x80, 0xBF)
            guard byte >= min, byte <= max else { return 0 }
        }
        return length
    }
}
