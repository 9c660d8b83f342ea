// Splits a format string into tokens, working on its UTF-8 bytes.

/// Turns a format string into tokens. Every failure is a thrown ``PredicateParseError``.
struct PredicateLexer {
    let bytes: [UInt8]
    var index = 0
    private(set) var tokens: [PredicateToken] = []
    /// The deepest nesting of `(`, `{` and `[` (how deep the parser will recurse).
    private(set) var bracketDepth = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The character offset of a UTF-8 offset, for error messages.
    func position(ofByte offset: Int) -> Int {
        String(decoding: bytes[..<min(max(offset, 0), bytes.count)], as: UTF8.self).count
    }

    static func tokenize(_ text: String) throws(PredicateParseError) -> PredicateLexer {
        var lexer = PredicateLexer(text)
        try lexer.run()
        return lexer
    }

    private mutating func run() throws(PredicateParseError) {
        tokens.reserveCapacity(bytes.count / 3 + 1)
        var depth = 0
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let start = index
            let kind = try next()
            tokens.append(PredicateToken(kind: kind, offset: start))
            if case .symbol(let symbol) = kind { track(symbol, &depth) }
        }
        tokens.append(PredicateToken(kind: .end, offset: bytes.count))
    }

    private mutating func track(_ symbol: String, _ depth: inout Int) {
        switch symbol {
        case "(", "{", "[":
            depth += 1
            bracketDepth = max(bracketDepth, depth)
        case ")", "}", "]":
            depth -= 1
        default:
            break
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: index += 1
            default: return
            }
        }
    }

    func peek(_ offset: Int = 0) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isIdentifierByte(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private mutating func next() throws(PredicateParseError) -> PredicateToken.Kind {
        let byte = bytes[index]
        if Self.isIdentifierStart(byte) {
            let word = readWord()
            if let keyword = PredicateKeyword.named(word) { return .keyword(keyword) }
            return .identifier(word, escaped: false)
        }
        if Self.isDigit(byte) { return try readNumber() }
        switch byte {
        case 0x22, 0x27: return .string(try readString(quote: byte))
        case 0x23: return try readEscapedIdentifier()   // #
        case 0x24: return try readVariable()            // $
        case 0x40: return try readOperatorKey()         // @count
        case 0x25: return try readSpecifier()           // %
        default: return try readSymbol()
        }
    }

    private mutating func readWord() -> String {
        let start = index
        while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readEscapedIdentifier() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        index += 1
        guard index < bytes.count, Self.isIdentifierStart(bytes[index]) else {
            throw unexpected(at: start, expected: "a key after '#'")
        }
        return .identifier(readWord(), escaped: true)
    }

    private mutating func readVariable() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        index += 1
        guard index < bytes.count, Self.isIdentifierStart(bytes[index]) else {
            throw unexpected(at: start, expected: "a variable name after '$'")
        }
        return .variable(readWord())
    }

    private mutating func readOperatorKey() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        index += 1
        guard index < bytes.count, Self.isIdentifierStart(bytes[index]) else {
            throw unexpected(at: start, expected: "a collection operator name after '@'")
        }
        return .identifier("@" + readWord(), escaped: true)
    }

    private mutating func readSpecifier() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        index += 1
        var text = ""
        // Length modifiers, then one conversion character.
        while index < bytes.count, [0x68, 0x6C, 0x71, 0x4C, 0x7A, 0x74, 0x6A].contains(bytes[index]),
              text.count < 3 {
            text.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        guard index < bytes.count else {
            throw .unsupportedSpecifier(position: position(ofByte: start), specifier: text)
        }
        let conversion = bytes[index]
        index += 1
        text.append(Character(Unicode.Scalar(conversion)))
        guard PredicateArguments.isKnown(text) else {
            throw .unsupportedSpecifier(position: position(ofByte: start), specifier: text)
        }
        return .specifier(text)
    }

    private static let twoByteSymbols: Set<String> = [
        "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":=",
    ]

    private mutating func readSymbol() throws(PredicateParseError) -> PredicateToken.Kind {
        let byte = bytes[index]
        if index + 1 < bytes.count {
            let pair = String(decoding: bytes[index...index + 1], as: UTF8.self)
            if Self.twoByteSymbols.contains(pair) {
                index += 2
                return .symbol(pair)
            }
        }
        switch byte {
        case 0x28, 0x29, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x2E, 0x3A,   // ( ) { } [ ] , . :
             0x3D, 0x3C, 0x3E, 0x21, 0x2B, 0x2D, 0x2A, 0x2F:          // = < > ! + - * /
            index += 1
            return .symbol(String(Unicode.Scalar(byte)))
        default:
            let text = byte < 0x20 || byte == 0x7F
                ? "\\u{" + String(byte, radix: 16) + "}" : String(Unicode.Scalar(byte))
            throw .invalidCharacter(position: position(ofByte: index), character: text)
        }
    }

    func unexpected(at offset: Int, expected: String) -> PredicateParseError {
        let found = offset < bytes.count ? "'" + String(Unicode.Scalar(bytes[offset])) + "'" : "end of input"
        return .unexpectedToken(position: position(ofByte: offset), found: found, expected: expected)
    }
}
