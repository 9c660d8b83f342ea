// Attributes of an entity: type, optionality, default value, validation rules.
import Foundation
import Predicates

/// A stored (or transient) value of an entity: a name, a type and the rules its values follow
/// (Apple: `NSAttributeDescription`).
///
/// Descriptions are values: build one, change it, then hand it to an entity. Once a model that
/// holds it is in use by a coordinator, the model refuses further changes (see
/// ``ManagedObjectModel/isEditable``).
///
/// ```swift
/// var title = AttributeDescription(name: "title", type: .string, isOptional: false)
/// title.validationRules = [.minimumLength(1), .maximumLength(200)]
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct AttributeDescription: Sendable, Hashable {
    /// The kinds of value an attribute holds (Apple: `NSAttributeType`, and the
    /// `attributeType` strings of Xcode's model files, which are the raw values).
    public enum AttributeType: String, Sendable, Hashable, CaseIterable {
        /// 16-bit signed integer (`Int16`).
        case integer16 = "Integer 16"
        /// 32-bit signed integer (`Int32`).
        case integer32 = "Integer 32"
        /// 64-bit signed integer (`Int64`).
        case integer64 = "Integer 64"
        /// Decimal number (`Decimal`; Apple: `NSDecimalNumber`).
        case decimal = "Decimal"
        /// Double-precision floating point (`Double`).
        case double = "Double"
        /// Single-precision floating point (`Float`).
        case float = "Float"
        /// Text (`String`).
        case string = "String"
        /// `Bool`.
        case boolean = "Boolean"
        /// `Date`.
        case date = "Date"
        /// Bytes (`Data`; Xcode: "Binary Data").
        case binaryData = "Binary"
        /// `UUID`.
        case uuid = "UUID"
        /// `URL` (Xcode: "URI").
        case uri = "URI"
        /// Any value turned into `Data` by a named value transformer.
        case transformable = "Transformable"
        /// A managed object ID.
        case objectID = "ObjectID"
        /// Several named values stored together (Xcode 15's composite attributes).
        case composite = "Composite"
        /// No type (Apple: `NSUndefinedAttributeType`); allowed only for transient attributes.
        case undefined = "Undefined"

        /// Whether values of this type are numbers (integers, decimal, double, float).
        public var isNumeric: Bool {
            switch self {
            case .integer16, .integer32, .integer64, .decimal, .double, .float: return true
            default: return false
            }
        }

        /// Whether values of this type are integers.
        public var isInteger: Bool {
            self == .integer16 || self == .integer32 || self == .integer64
        }

        /// The Swift type the attribute's values have (`Int16`, `String`, `Data`…); `Any` for
        /// transformable, composite and undefined attributes.
        public var valueType: any Any.Type {
            switch self {
            case .integer16: return Int16.self
            case .integer32: return Int32.self
            case .integer64: return Int64.self
            case .decimal: return Decimal.self
            case .double: return Double.self
            case .float: return Float.self
            case .string: return String.self
            case .boolean: return Bool.self
            case .date: return Date.self
            case .binaryData: return Data.self
            case .uuid: return UUID.self
            case .uri: return URL.self
            case .objectID, .transformable, .composite, .undefined: return Any.self
            }
        }
    }

    /// The attribute's name: a key of the entity's objects.
    public var name: String
    /// The type of its values.
    public var attributeType: AttributeType
    /// Whether a saved object may leave it `nil` (Apple's default: `true`).
    public var isOptional: Bool
    /// Whether it is kept in memory only, never saved (default `false`).
    public var isTransient: Bool
    /// The value a newly inserted object starts with, or `nil`.
    public var defaultValue: KeyValueConstant?
    /// Whether a store may keep large values in separate files (binary data;
    /// Apple: `allowsExternalBinaryDataStorage`).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the store indexes it (Xcode's "Indexed" flag, an older form of fetch indexes).
    public var isIndexed: Bool
    /// Whether Spotlight indexes it (kept for round trips; no effect on Linux).
    public var isIndexedBySpotlight: Bool
    /// Whether its value is kept in history after the object is deleted (tombstones;
    /// Apple: `preservesValueInHistoryOnDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool
    /// The rules a value must follow to be saved (min/max value or length, pattern).
    public var validationRules: [AttributeValidationRule]
    /// For ``AttributeType/transformable``: the registered name of the value transformer that
    /// turns values into data and back. `nil` means the secure-unarchiving default
    /// (``AttributeDescription/secureUnarchiveTransformerName``).
    public var valueTransformerName: String?
    /// For transformable and URI attributes: the class (type) name the values have, as Xcode
    /// writes it (`customClassName`), or `nil`.
    public var valueClassName: String?
    /// For derived attributes: the expression computed from other properties at save
    /// (Apple: `NSDerivedAttributeDescription.derivationExpression`), as written in the model
    /// (for example `"canonical:(title)"` or `"items.@count"`).
    public var derivationExpression: String?
    /// For composite attributes: the elements stored together.
    public var elements: [AttributeDescription]
    /// Free-form key-value pairs for the app (not part of the version hash).
    public var userInfo: [String: String]
    /// Changes the version hash without changing anything else (Apple: `versionHashModifier`).
    public var versionHashModifier: String?
    /// The property's name in the previous model version, for lightweight migration
    /// (Apple: `renamingIdentifier`).
    public var renamingIdentifier: String?

    /// The name Apple registers its secure-unarchiving transformer under
    /// (`NSSecureUnarchiveFromDataTransformerName`): the default for transformable attributes.
    public static let secureUnarchiveTransformerName = "NSSecureUnarchiveFromData"

    /// Creates an attribute description.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - type: The type of its values.
    ///   - isOptional: Whether it may be `nil` when saved (default `true`, as Apple).
    ///   - isTransient: Whether it is never saved (default `false`).
    ///   - defaultValue: The initial value of new objects (default none).
    public init(name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
                defaultValue: KeyValueConstant? = nil) {
        self.name = name
        self.attributeType = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.allowsExternalBinaryDataStorage = false
        self.isIndexed = false
        self.isIndexedBySpotlight = false
        self.preservesValueInHistoryOnDeletion = false
        self.validationRules = []
        self.valueTransformerName = nil
        self.valueClassName = nil
        self.derivationExpression = nil
        self.elements = []
        self.userInfo = [:]
        self.versionHashModifier = nil
        self.renamingIdentifier = nil
    }

    /// Whether the attribute is derived: computed from ``derivationExpression`` at save
    /// (Apple: `NSDerivedAttributeDescription`).
    public var isDerived: Bool { derivationExpression != nil }

    /// The value transformer a transformable attribute uses: ``valueTransformerName`` or the
    /// secure-unarchiving default; `nil` for other types.
    public var effectiveValueTransformerName: String? {
        attributeType == .transformable ? (valueTransformerName ?? Self.secureUnarchiveTransformerName) : nil
    }
}

/// A rule a value must follow for its object to be saved; each failure has Apple's validation
/// error code (see ``ManagedObjectValidationError``).
public enum AttributeValidationRule: Sendable, Hashable {
    /// Numbers and dates: the value must be at least this (Xcode's "Minimum").
    case minimumValue(KeyValueConstant)
    /// Numbers and dates: the value must be at most this (Xcode's "Maximum").
    case maximumValue(KeyValueConstant)
    /// Strings and binary data: at least this many characters (bytes).
    case minimumLength(Int)
    /// Strings and binary data: at most this many characters (bytes).
    case maximumLength(Int)
    /// Strings: the whole value must match this regular expression (ICU syntax).
    case regularExpression(String)
}
