// Errors and warnings of models: what is wrong, where (file, line, entity, property).
import Foundation

/// An error building, loading, merging or changing a managed object model.
///
/// Apple raises exceptions (or returns `nil` from `NSManagedObjectModel(contentsOf:)`) for
/// these; ObjectGraph throws, and every error names what it can of the culprit: the model file
/// and line, the entity and the property.
///
/// - Important: Thread safety: a `Sendable` value.
public struct ManagedObjectModelError: Error, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// Two entities share a name (in one model, or in models being merged).
        case duplicateEntity
        /// The parent entity does not exist.
        case unknownParentEntity(String)
        /// The entity is its own ancestor; the names are the cycle, in order.
        case inheritanceCycle([String])
        /// The entity has more ancestors than ``ManagedObjectModel/maximumInheritanceDepth``
        /// (the number is its depth: 1 for a root entity's subentity).
        case inheritanceTooDeep(Int)
        /// Two properties of one name in an entity and its ancestors.
        case duplicateProperty
        /// A relationship's destination entity does not exist.
        case unknownDestinationEntity(String)
        /// A relationship's inverse does not exist on the destination entity.
        case unknownInverse(String)
        /// A relationship's inverse does not point back at it (its own inverse or destination
        /// names something else; the text says what).
        case inverseMismatch(String)
        /// An attribute of type undefined that is not transient.
        case undefinedAttributeNotTransient
        /// A value in the model (a default value, a bound, a count) that the property's type
        /// cannot hold; the text is the value.
        case invalidValue(String)
        /// A predicate or expression that does not parse; the text is the parser's message.
        case invalidPredicate(String)
        /// A name that the entity does not have, used by a constraint, an index, a template
        /// or a configuration.
        case unknownProperty(String)
        /// A fetch request template, fetched property or configuration names a missing entity.
        case unknownEntity(String)
        /// No fetch request template of that name.
        case unknownTemplate(String)
        /// Two fetch request templates of one name in models being merged.
        case duplicateTemplate(String)
        /// The model is in use by a store coordinator and can no longer change
        /// (Apple raises `NSInternalInconsistencyException`).
        case modelInUse
        /// The file could not be read (missing, a folder without `contents`, no permission).
        case unreadableFile(String)
        /// The XML is not well formed, or is not a data model; the text is the parser's message.
        case malformedXML(String)
        /// An `attributeType` this loader does not know.
        case unknownAttributeType(String)
        /// An XML attribute that is required (such as `name`) is missing.
        case missingXMLAttribute(String)
        /// A model written in the Xcode 3 binary format (`elements` and `layout` files).
        case binaryModelFormat
        /// `.xccurrentversion` names a version that is not in the `.xcdatamodeld` folder (or
        /// the file is unreadable); the text is the version name.
        case missingCurrentVersion(String)
        /// No model version of that name in the `.xcdatamodeld` folder.
        case unknownVersion(String)
        /// An entity or property name that cannot be a key (empty, or with a space, a control
        /// character, `.` or `@`); the text says which.
        case invalidName(String)
        /// A managed-object class does not fit its entity (a `@Managed` property with an
        /// unknown name or a Swift type that cannot hold the property, or objects of the
        /// wrong class); the text names the class, the property and the Swift type.
        case classMismatch(String)
    }

    /// What went wrong.
    public var code: Code
    /// The entity concerned, if any.
    public var entity: String?
    /// The property concerned, if any.
    public var property: String?
    /// The model file concerned (its path), if the model came from a file.
    public var file: String?
    /// The 1-based line in ``file``, if known.
    public var line: Int?
    /// Text that follows the problem in ``description``: for an unknown inverse, the
    /// destination entity and the relationship it probably meant (or its relationships).
    package var hint = ""

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - entity: The entity concerned.
    ///   - property: The property concerned.
    ///   - file: The model file's path.
    ///   - line: The 1-based line in the file.
    public init(_ code: Code, entity: String? = nil, property: String? = nil,
                file: String? = nil, line: Int? = nil) {
        self.code = code
        self.entity = entity
        self.property = property
        self.file = file
        self.line = line
    }
}

extension ManagedObjectModelError: CustomStringConvertible, LocalizedError {
    /// A sentence naming the place (file and line, entity, property) and the problem.
    public var description: String {
        modelPlacePrefix(file: file, line: line, entity: entity, property: property) + problem + hint
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    private var problem: String {
        switch code {
        case .duplicateEntity: return "another entity has the same name"
        case .unknownParentEntity(let name): return "the parent entity '\(name)' does not exist"
        case .inheritanceCycle(let names): return "entity inheritance forms a cycle (\(names.joined(separator: " → ")))"
        case .inheritanceTooDeep(let depth):
            return "the entity has \(depth) levels of ancestors; at most \(ManagedObjectModel.maximumInheritanceDepth) are supported"
        case .duplicateProperty: return "a property of this name is already declared in the entity or an ancestor"
        case .unknownDestinationEntity(let name): return "the destination entity '\(name)' does not exist"
        case .unknownInverse(let name): return "the inverse relationship '\(name)' does not exist on the destination"
        case .inverseMismatch(let why): return "the inverse does not point back: \(why)"
        case .undefinedAttributeNotTransient: return "an attribute of undefined type must be transient"
        case .invalidValue(let value): return "the value '\(value)' does not fit the property's type"
        case .invalidPredicate(let message): return "the predicate does not parse: \(message)"
        case .unknownProperty(let name): return "the entity has no property '\(name)'"
        case .unknownEntity(let name): return "there is no entity '\(name)'"
        case .unknownTemplate(let name): return "there is no fetch request template '\(name)'"
        case .duplicateTemplate(let name): return "two models being merged both have a fetch request template '\(name)'"
        case .modelInUse: return "the model is in use by a store coordinator and cannot be changed; "
            + "bind classes and make other changes before a coordinator or container uses the model"
        case .unreadableFile(let why): return "the model file cannot be read (\(why))"
        case .malformedXML(let message): return "the model file is not a well-formed data model: \(message)"
        case .unknownAttributeType(let type): return "unknown attribute type '\(type)'"
        case .missingXMLAttribute(let name): return "the required XML attribute '\(name)' is missing"
        case .binaryModelFormat:
            return "the model is in the Xcode 3 binary format (elements and layout files); open it in a current Xcode and save it to convert it to XML"
        case .missingCurrentVersion(let name): return "the current version '\(name)' named by .xccurrentversion is not in the model folder"
        case .unknownVersion(let name): return "there is no model version '\(name)'"
        case .invalidName(let why): return why
        case .classMismatch(let why): return "the managed-object class does not fit: \(why)"
        }
    }
}

/// Something in a model that is allowed but probably not meant, or that the loader skipped
/// (Xcode shows the like as warnings).
///
/// - Important: Thread safety: a `Sendable` value.
public struct ManagedObjectModelWarning: Sendable, Hashable, CustomStringConvertible {
    /// What the warning says.
    public var message: String
    /// The entity concerned, if any.
    public var entity: String?
    /// The property concerned, if any.
    public var property: String?
    /// The model file, if the model came from a file.
    public var file: String?
    /// The 1-based line in ``file``, if known.
    public var line: Int?

    /// Creates a warning.
    public init(_ message: String, entity: String? = nil, property: String? = nil,
                file: String? = nil, line: Int? = nil) {
        self.message = message
        self.entity = entity
        self.property = property
        self.file = file
        self.line = line
    }

    /// The place and the message.
    public var description: String {
        modelPlacePrefix(file: file, line: line, entity: entity, property: property) + message
    }
}

/// "file:line: entity 'E', property 'p': " (the parts that are known), or "".
private func modelPlacePrefix(file: String?, line: Int?, entity: String?, property: String?) -> String {
    var place: [String] = []
    if let file { place.append(line.map { "\(file):\($0)" } ?? file) }
    if let entity {
        place.append(property.map { "entity '\(entity)', property '\($0)'" } ?? "entity '\(entity)'")
    } else if let property {
        place.append("property '\(property)'")
    }
    return place.isEmpty ? "" : place.joined(separator: ": ") + ": "
}
