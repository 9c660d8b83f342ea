// A check of a model file's bytes before XMLParser sees them.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Refuses, before parsing, the inputs that Foundation's XMLParser on Linux cannot take
/// safely: it parses in libxml2's recovery mode and force-unwraps names that are not valid
/// UTF-8 (a crash, not an error), and it substitutes entities declared in a document type
/// definition (which Xcode's model files never have).
enum ModelXMLPreflight {
    /// A parser of `data` (checked by ``check(_:file:)`` first) reporting to `delegate`
    /// (which the caller keeps alive: the parser holds it weakly), with external entities and
    /// namespace processing off.
    static func parser(for data: Data, delegate: any XMLParserDelegate) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = delegate
        return parser
    }

    /// Checks that `data` is UTF-8 without a `<!DOCTYPE` or `<!ENTITY` declaration.
    ///
    /// - Throws: ``ManagedObjectModelError/Code/malformedXML(_:)`` with the line of the first
    ///   offending byte.
    /// - Complexity: O(*n*) in the size of `data`, one pass.
    static func check(_ data: Data, file: String?) throws(ManagedObjectModelError) {
        // One pass looking only at non-ASCII bytes and '!'; the line is counted on failure.
        let problem: (message: String, offset: Int)? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var i = 0
            while i < count {
                // Eight plain ASCII bytes without '!' at a time (most of a model file).
                if i + 8 <= count {
                    let word = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let bangs = word ^ 0x2121_2121_2121_2121
                    let hasBang = (bangs &- 0x0101_0101_0101_0101) & ~bangs & 0x8080_8080_8080_8080
                    if word & 0x8080_8080_8080_8080 == 0 && hasBang == 0 {
                        i += 8
                        continue
                    }
                }
                let byte = bytes[i]
                if byte < 0x80 {
                    if byte == UInt8(ascii: "!"), i > 0, bytes[i - 1] == UInt8(ascii: "<"), i + 1 < count,
                       isDeclarationLetter(bytes[i + 1]) {
                        return ("a document type or entity declaration (<!DOCTYPE, <!ENTITY), which data model files never have", i)
                    }
                    i += 1
                    continue
                }
                let length = sequenceLength(bytes, at: i)
                guard length > 0 else { return ("the file is not valid UTF-8 (byte \(i))", i) }
                i += length
            }
            return nil
        }
        if let problem {
            let line = data.prefix(problem.offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ManagedObjectModelError(.malformedXML(problem.message), file: file, line: line)
        }
    }

    /// Whether `byte` is `D`, `d`, `E` or `e` (the start of `<!DOCTYPE` or `<!ENTITY`).
    private static func isDeclarationLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower == UInt8(ascii: "d") || lower == UInt8(ascii: "e")
    }

    /// The length of the well-formed UTF-8 sequence starting with a non-ASCII byte at `i`, or
    /// 0 (overlong forms, surrogates and values above U+10FFFF are not well formed).
    private static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        let second = bytes[i + 1]
        guard second >= lower && second <= upper else { return 0 }
        for k in 2..<max(length, 2) where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
