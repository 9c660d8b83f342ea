// Number and string literals.

extension PredicateLexer {
    mutating func readNumber() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        if bytes[index] == 0x30, index + 1 < bytes.count {
            switch bytes[index + 1] | 0x20 {
            case 0x78: return try readRadix(16, start: start)   // 0x
            case 0x6F: return try readRadix(8, start: start)    // 0o
            case 0x62: return try readRadix(2, start: start)    // 0b
            default: break
            }
        }
        var isFloat = false
        skipDigits()
        if peek() == 0x2E, Self.isDigit(peek(1)) {       // .5
            isFloat = true
            index += 1
            skipDigits()
        }
        if peek() | 0x20 == 0x65 {                       // e / E
            var look = 1
            if peek(1) == 0x2B || peek(1) == 0x2D { look = 2 }
            guard Self.isDigit(peek(look)) else { throw invalidNumber(from: start, through: index + look) }
            isFloat = true
            index += look
            skipDigits()
        }
        if index < bytes.count, Self.isIdentifierByte(bytes[index]) {
            throw invalidNumber(from: start, through: index + 1)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isFloat, let value = Int(text) { return .integer(value) }
        if !isFloat, let value = UInt64(text) { return .unsignedInteger(value) }
        guard let value = Double(text) else { throw invalidNumber(from: start, through: index) }
        return .float(value)
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private mutating func readRadix(_ radix: Int, start: Int) throws(PredicateParseError) -> PredicateToken.Kind {
        index += 2
        let digitsStart = index
        while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
        let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
        guard !digits.isEmpty, let value = Int(digits, radix: radix) else {
            throw invalidNumber(from: start, through: index)
        }
        return .integer(value)
    }

    private func invalidNumber(from start: Int, through end: Int) -> PredicateParseError {
        let end = min(max(end, start + 1), bytes.count)
        return .invalidNumber(position: position(ofByte: start),
                              text: String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// Reads a quoted string; `quote` is `"` or `'`. Escapes: `\\ \' \" \n \t \r \0 \a \b \f \v`,
    /// `\xHH`, `\uHHHH`, `\u{H...}` and three octal digits. Any other escaped character stands
    /// for itself.
    mutating func readString(quote: UInt8) throws(PredicateParseError) -> String {
        let start = index
        index += 1
        var output: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: output, as: UTF8.self)
            }
            if byte != 0x5C {
                output.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            try readEscape(into: &output)
        }
        throw .unterminatedString(position: position(ofByte: start))
    }

    private mutating func readEscape(into output: inout [UInt8]) throws(PredicateParseError) {
        let escapeStart = index - 1
        let byte = bytes[index]
        index += 1
        switch byte {
        case 0x6E: output.append(0x0A)   // n
        case 0x74: output.append(0x09)   // t
        case 0x72: output.append(0x0D)   // r
        case 0x61: output.append(0x07)   // a
        case 0x62: output.append(0x08)   // b
        case 0x66: output.append(0x0C)   // f
        case 0x76: output.append(0x0B)   // v
        case 0x78:                       // xHH
            try appendScalar(hexDigits: 2, braces: false, from: escapeStart, into: &output)
        case 0x75:                       // uHHHH or u{H...}
            let braces = peek() == 0x7B
            try appendScalar(hexDigits: 4, braces: braces, from: escapeStart, into: &output)
        case 0x30...0x37:
            var value = Int(byte - 0x30)
            var count = 1
            while count < 3, index < bytes.count, (0x30...0x37).contains(bytes[index]) {
                value = value * 8 + Int(bytes[index] - 0x30)
                index += 1
                count += 1
            }
            appendScalar(value, into: &output)
        default:
            output.append(byte)
        }
    }

    private mutating func appendScalar(hexDigits: Int, braces: Bool, from start: Int,
                                       into output: inout [UInt8]) throws(PredicateParseError) {
        if braces { index += 1 }
        let digitsStart = index
        let limit = braces ? 8 : hexDigits
        while index < bytes.count, index - digitsStart < limit, isHexDigit(bytes[index]) { index += 1 }
        let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
        var valid = braces ? !digits.isEmpty : digits.count == hexDigits
        if braces {
            if peek() == 0x7D { index += 1 } else { valid = false }
        }
        guard valid, let value = Int(digits, radix: 16), Unicode.Scalar(UInt32(value)) != nil else {
            throw .unexpectedToken(position: position(ofByte: start),
                                   found: "'" + String(decoding: bytes[start..<index], as: UTF8.self) + "'",
                                   expected: "a valid escape sequence")
        }
        appendScalar(value, into: &output)
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        Self.isDigit(byte) || (0x61...0x66).contains(byte | 0x20)
    }

    private func appendScalar(_ value: Int, into output: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return }
        output.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
