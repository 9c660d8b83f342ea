// Reading a data model `contents` file with XMLParser: the element stack and the callbacks.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Predicates

/// Reads the XML of an Xcode data model (`contents`) into description values, recording the
/// line of every entity and property so that later errors can name it.
///
/// One reader reads one document; use ``read(_:file:)``. Not thread-safe (it is used by one
/// call at a time and never escapes it).
final class ModelXMLReader: NSObject, XMLParserDelegate {
    /// The file named in errors and warnings.
    let file: String?
    /// What was read so far.
    var result: ModelFileContents
    /// The first error; parsing stops at it.
    private var failure: ManagedObjectModelError? {
        didSet { stopped = failure != nil }
    }
    /// Whether ``failure`` is set (a plain flag, checked on every callback).
    private var stopped = false
    /// The element kinds from the root to the current element.
    private var stack: [ModelXMLElement] = []
    /// The line of the element being read.
    var line = 0

    // Descriptions being read (finished when their element ends).
    var entity: EntityDescription?
    var entityLine = 0
    var propertyLines: [Int] = []
    var propertyLine = 0
    var constraintValueLines: [Int] = []
    var fetchIndexLine = 0
    var constraintLines: [[Int]] = []
    var indexLines: [Int] = []
    var attribute: AttributeDescription?
    var attributeCompositeName: String?
    var relationship: RelationshipDescription?
    var fetchedProperty: FetchedPropertyDescription?
    var fetchedPropertyHasRequest = false
    var constraint: [String] = []
    var fetchIndex: FetchIndexDescription?
    var configuration: (name: String, members: [String])?
    var composite: (name: String, elements: [AttributeDescription])?

    private init(file: String?) {
        self.file = file
        self.result = ModelFileContents(file: file)
    }

    /// Reads a model document.
    ///
    /// - Parameters:
    ///   - data: The XML.
    ///   - file: The path (or name) given in errors and warnings.
    /// - Returns: The entities, configurations, templates, version identifiers, warnings and
    ///   line table.
    /// - Throws: ``ManagedObjectModelError`` for XML that is not well formed, a root that is not
    ///   `<model>`, a missing required XML attribute or a value that does not fit.
    static func read(_ data: Data, file: String?) throws(ManagedObjectModelError) -> ModelFileContents {
        try ModelXMLPreflight.check(data, file: file)
        let reader = ModelXMLReader(file: file)
        let parser = ModelXMLPreflight.parser(for: data, delegate: reader)
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            throw ManagedObjectModelError(.malformedXML(Self.describe(parser.parserError)), file: file,
                                          line: max(parser.lineNumber, 1))
        }
        guard reader.result.sawModel else {
            throw ManagedObjectModelError(.malformedXML("the document has no <model> element"), file: file, line: 1)
        }
        return reader.result
    }

    /// A readable text for an XMLParser error (its code's name where the code is common).
    private static func describe(_ error: (any Error)?) -> String {
        guard let error = error as NSError? else { return "the XML parser stopped" }
        let known: [Int: String] = [
            4: "the document is empty or not XML", 5: "the document ends too early",
            9: "an invalid character", 23: "an unfinished entity reference", 26: "an undeclared entity",
            38: "an attribute value without quotes", 39: "an unfinished attribute value", 40: "'<' inside an attribute value",
            41: "an attribute is given twice", 64: "an XML declaration that is not well formed",
            65: "an attribute without a value", 68: "a name was expected", 73: "'>' was expected",
            76: "a closing tag does not match its opening tag", 85: "extra content after the document's end",
        ]
        let text = known[error.code] ?? "XML parser error"
        return "\(text) (XMLParser error \(error.code))"
    }

    /// Stops parsing with `error` (the first one wins).
    private func fail(_ error: ManagedObjectModelError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    /// An error at the current line, naming the entity being read and `property`.
    func error(_ code: ManagedObjectModelError.Code, property: String? = nil) -> ManagedObjectModelError {
        ManagedObjectModelError(code, entity: entity?.name ?? composite?.name, property: property, file: file, line: line)
    }

    /// A warning at the current line.
    func warn(_ message: String, property: String? = nil) {
        result.warnings.append(ManagedObjectModelWarning(message, entity: entity?.name ?? composite?.name,
                                                         property: property, file: file, line: line))
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        guard !stopped else { return }
        line = parser.lineNumber
        guard let parent = stack.last else {
            guard elementName == "model" else {
                fail(ManagedObjectModelError(.malformedXML("the root element is <\(elementName)>, not <model>; this is not a data model"),
                                             file: file, line: line), parser)
                return
            }
            stack.append(.model)
            result.sawModel = true
            reportUnknown(attributes, of: .model, elementName)
            if let identifier = attributes["userDefinedModelVersionIdentifier"] {
                result.versionIdentifiers.insert(identifier)
            }
            return
        }
        guard let kind = parent.child(named: elementName) else {
            warn("unknown element <\(elementName)> ignored, with its contents", property: currentProperty)
            stack.append(.skipped)
            return
        }
        stack.append(kind)
        if kind == .layout || kind == .skipped { return }
        do {
            try start(kind, attributes: attributes)
        } catch {
            fail(error, parser)
            return
        }
        switch kind {
        case .entity, .attribute, .relationship: break  // they report their own
        default: reportUnknown(attributes, of: kind, elementName)
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard !stopped, let kind = stack.popLast() else { return }
        do {
            try end(kind)
        } catch {
            fail(error, parser)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        failure = ManagedObjectModelError(.malformedXML(Self.describe(parseError)), entity: entity?.name,
                                          file: file, line: max(parser.lineNumber, 1))
    }

    /// Warns about each XML attribute that `kind` does not have.
    private func reportUnknown(_ attributes: [String: String], of kind: ModelXMLElement, _ elementName: String) {
        var unknown: [String] = []
        for key in attributes.keys where !kind.knows(key) { unknown.append(key) }
        if !unknown.isEmpty { warnUnknown(unknown, of: elementName, property: currentProperty) }
    }

    /// The kind of the element `levels` above the current one (1: its parent).
    func ancestor(_ levels: Int) -> ModelXMLElement? {
        stack.count > levels ? stack[stack.count - 1 - levels] : nil
    }
}
