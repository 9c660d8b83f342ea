// A checked reader of XML property lists, and the one entry point for property lists the
// program did not write (store metadata, .xccurrentversion, keyed archives).
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Why a property list cannot be read.
package struct PropertyListReadError: Error, Sendable, Hashable {
    /// What is wrong, as a phrase ("a damaged binary property list trailer").
    package var reason: String

    package init(_ reason: String) { self.reason = reason }
}

extension PropertyListValue {
    /// Parses a binary (`bplist00`) or XML property list without
    /// `PropertyListSerialization`, which on Linux stops the process on some malformed or
    /// unusual lists (a binary list holding a set, for one).
    ///
    /// - Throws: ``PropertyListReadError`` naming the problem; never stops the process.
    package static func parse(_ data: Data) throws(PropertyListReadError) -> PropertyListValue {
        do {
            if data.starts(with: Array("bplist".utf8)) { return try BinaryPropertyListReader.value(of: data) }
            return try XMLPropertyListReader.value(of: data)
        } catch {
            if case .unreadableData(let why) = error.code { throw PropertyListReadError(why) }
            throw PropertyListReadError(error.description)
        }
    }

    /// The value as Swift values: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`,
    /// `[any Sendable]` (arrays and sets) and `[String: any Sendable]`; `nil` for a null or a
    /// keyed-archive reference (members that are `nil` are left out of their collection).
    package var sendableValue: (any Sendable)? {
        switch self {
        case .null, .uid: return nil
        case .bool(let flag): return flag
        case .integer(let value): return Int(truncatingIfNeeded: value)
        case .unsigned(let value): return Int(exactly: value) ?? Int(truncatingIfNeeded: value)
        case .real(let value): return value
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let data): return data
        case .string(let string): return string
        case .array(let elements), .set(let elements): return elements.compactMap(\.sendableValue)
        case .dictionary(let dictionary): return dictionary.compactMapValues(\.sendableValue)
        }
    }
}

/// Reads an XML property list (`<plist>`) into ``PropertyListValue``s with `XMLParser`, after
/// the same byte check model files get (UTF-8, no document type or entity declarations), with a
/// limit on nesting and on the number of elements.
final class XMLPropertyListReader: NSObject, XMLParserDelegate {
    private enum Frame {
        case plist
        case array([PropertyListValue])
        case dictionary([String: PropertyListValue], key: String?)
        case text(element: String, String)
    }

    private var stack: [Frame] = []
    private var result: PropertyListValue?
    private var failure: String?
    private var budget = 200_000

    /// Parses `data`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unreadableData(_:)`` naming the problem.
    static func value(of data: Data) throws(AttributeValueTransformerError) -> PropertyListValue {
        let data = withoutDocumentType(data)
        do {
            try ModelXMLPreflight.check(data, file: nil)
        } catch {
            throw .unreadableData("not a property list: \(error.description)")
        }
        let reader = XMLPropertyListReader()
        let parser = ModelXMLPreflight.parser(for: data, delegate: reader)
        let parsed = parser.parse()
        if let failure = reader.failure { throw .unreadableData("\(failure) (line \(max(parser.lineNumber, 1)))") }
        guard parsed else { throw .unreadableData("not a property list (XML that is not well formed, line \(max(parser.lineNumber, 1)))") }
        guard let result = reader.result else { throw .unreadableData("not a property list (no value)") }
        return result
    }

    /// `data` with its `<!DOCTYPE …>` declaration (`plist`, as Xcode and Foundation write it)
    /// blanked out when the declaration has no internal subset (no `[`), so the byte check,
    /// which refuses declarations, passes a plain property list; line numbers stay the same.
    static func withoutDocumentType(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        guard let start = bytes.firstRange(of: Array("<!DOCTYPE".utf8))?.lowerBound,
              let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")),
              !bytes[start..<end].contains(UInt8(ascii: "[")) else { return data }
        for i in start...end where bytes[i] != 0x0A { bytes[i] = 0x20 }
        return Data(bytes)
    }

    private func fail(_ message: String, _ parser: XMLParser) {
        if failure == nil { failure = message }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        budget -= 1
        guard budget > 0 else { return fail("too many elements", parser) }
        guard stack.count < BinaryPropertyListReader.maximumDepth else { return fail("nested too deeply", parser) }
        if case .text(let element, _)? = stack.last { return fail("<\(elementName)> inside <\(element)>", parser) }
        switch elementName {
        case "plist":
            guard stack.isEmpty, result == nil else { return fail("a <plist> inside the document", parser) }
            stack.append(.plist)
        case "array": stack.append(.array([]))
        case "dict": stack.append(.dictionary([:], key: nil))
        case "key", "string", "integer", "real", "date", "data", "true", "false":
            stack.append(.text(element: elementName, ""))
        default: fail("an unknown element <\(elementName)>", parser)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, case .text(let element, let text)? = stack.last else { return }
        stack[stack.count - 1] = .text(element: element, text + string)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard failure == nil, let frame = stack.popLast() else { return }
        let value: PropertyListValue
        switch frame {
        case .plist: return
        case .array(let elements): value = .array(elements)
        case .dictionary(let dictionary, let key):
            if let key { return fail("the key '\(key)' has no value", parser) }
            value = .dictionary(dictionary)
        case .text("key", let text):
            guard case .dictionary(let dictionary, nil)? = stack.last else { return fail("a <key> outside a dictionary or after another key", parser) }
            stack[stack.count - 1] = .dictionary(dictionary, key: text)
            return
        case .text(let element, let text):
            guard let leaf = Self.leaf(element, text) else { return fail("<\(element)> holds '\(text.prefix(40))', which is not a \(element)", parser) }
            value = leaf
        }
        place(value, parser)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil { failure = "not a property list (XML that is not well formed)" }
    }

    /// Puts a finished value into its container, or makes it the result.
    private func place(_ value: PropertyListValue, _ parser: XMLParser) {
        switch stack.last {
        case .array(var elements)?:
            stack[stack.count - 1] = .array([])
            elements.append(value)
            stack[stack.count - 1] = .array(elements)
        case .dictionary(var dictionary, let key?)?:
            stack[stack.count - 1] = .dictionary([:], key: nil)
            dictionary[key] = value
            stack[stack.count - 1] = .dictionary(dictionary, key: nil)
        case .dictionary?: fail("a dictionary value without a <key>", parser)
        case .plist?, nil:
            guard result == nil else { return fail("more than one top-level value", parser) }
            result = value
        case .text?: fail("a value inside text", parser)
        }
    }

    /// The value of a leaf element's text, or `nil` when the text does not fit the element.
    private static func leaf(_ element: String, _ text: String) -> PropertyListValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element {
        case "string": return .string(text)
        case "true": return trimmed.isEmpty ? .bool(true) : nil
        case "false": return trimmed.isEmpty ? .bool(false) : nil
        case "integer":
            if let value = Int64(trimmed) { return .integer(value) }
            return UInt64(trimmed).map { .unsigned($0) }
        case "real": return Double(trimmed).map { .real($0) }
        case "data":
            let compact = String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
            return Data(base64Encoded: compact).map { .data($0) }
        case "date":
            return ISO8601DateFormatter().date(from: trimmed).map { .date($0.timeIntervalSinceReferenceDate) }
        default: return nil
        }
    }
}
