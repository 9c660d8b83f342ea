// The default transformer: keyed archives restricted to plist-like Foundation classes.
import Foundation

/// The default transformer of transformable attributes: a keyed archive
/// (`NSKeyedArchiver`) restricted to Foundation's property-list-like classes, registered as
/// `"NSSecureUnarchiveFromData"` (Apple: `NSSecureUnarchiveFromDataTransformer`, whose
/// `allowedTopLevelClasses` are the same).
///
/// Values it stores: `String`, `Bool`, Swift integers and floating-point numbers, `NSNumber`,
/// `Date`, `Data`, `URL`, `UUID`, `NSNull`, and arrays, dictionaries and sets of these, nested
/// (Swift or Foundation collections). Data read back is an archive of the classes `NSArray`,
/// `NSDictionary`, `NSSet`, `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID` and
/// `NSNull` (and their mutable subclasses), as Apple platforms write it; the archive's class
/// table is checked before anything is decoded, so an archive naming another class is a thrown
/// error, not a decoded object.
///
/// Values come back as Swift values: `String`, `Bool` (a number archived as a `BOOL`), `Int`
/// (or `Int64`/`UInt64`), `Double`, `Date`, `Data`, `URL`, `UUID`, `NSNull`, `[Any]`,
/// `[AnyHashable: Any]` and `Set<AnyHashable>`.
///
/// - Important: Thread safety: a `Sendable` value; each call uses its own archiver.
public struct SecureUnarchiveTransformer: AttributeValueTransformer {
    /// The class names an archive may hold, as keyed archives name them.
    public static let allowedClassNames: Set<String> = [
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSString", "NSMutableString", "NSNumber", "NSDate", "NSData", "NSMutableData", "NSURL",
        "NSUUID", "NSNull",
    ]

    /// Nesting deeper than this is refused (archives and values).
    static let maximumDepth = 64

    /// Creates the transformer.
    public init() {}

    /// Archives `value`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unsupportedValue(typeName:)`` naming the
    ///   first value (possibly nested) of a type outside the allowed classes.
    public func transformedValue(_ value: Any) throws(AttributeValueTransformerError) -> Data {
        let object = try Self.foundationObject(value, depth: 0)
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        } catch {
            throw .unsupportedValue(typeName: "\(type(of: value)) (\(error.localizedDescription))")
        }
    }

    /// Unarchives `data`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unreadableData(_:)`` for data that is not
    ///   a keyed archive, ``AttributeValueTransformerError/Code/disallowedClass(_:)`` for an
    ///   archive naming a class outside the allowed ones.
    public func reverseTransformedValue(_ data: Data) throws(AttributeValueTransformerError) -> Any {
        #if canImport(Darwin)
        // Apple's unarchiver throws on malformed archives; check the class table, then use it.
        try Self.checkClassTable(of: data)
        let decoded: Any?
        do {
            decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedClasses, from: data)
        } catch {
            throw .unreadableData(error.localizedDescription)
        }
        guard let decoded else { throw .unreadableData("the archive has no root object") }
        return try Self.swiftValue(decoded, depth: 0)
        #else
        // swift-corelibs-foundation's unarchiver stops the process on malformed archives: read
        // the archive's object table here instead.
        return try KeyedArchiveReader.rootValue(of: data)
        #endif
    }

    private static var allowedClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
         NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    // MARK: Checking an archive before decoding

    /// Reads the archive as a property list and checks its structure and every class name,
    /// so that the unarchiver never meets a class it would refuse by stopping the process.
    static func checkClassTable(of data: Data) throws(AttributeValueTransformerError) {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .unreadableData("not a property list")
        }
        guard let root = plist as? [String: Any], root["$archiver"] as? String == "NSKeyedArchiver",
              let objects = root["$objects"] as? [Any], root["$top"] is [String: Any] else {
            throw .unreadableData("not a keyed archive")
        }
        for object in objects {
            guard let dictionary = object as? [String: Any], let name = dictionary["$classname"] else { continue }
            guard let className = name as? String else { throw .unreadableData("a class name that is not text") }
            guard allowedClassNames.contains(className) else {
                throw AttributeValueTransformerError(.disallowedClass(className))
            }
        }
    }

    // MARK: Swift values ↔ Foundation objects

    static func foundationObject(_ value: Any, depth: Int) throws(AttributeValueTransformerError) -> AnyObject {
        guard depth < maximumDepth else { throw .unsupportedValue(typeName: "a value nested deeper than \(maximumDepth) levels") }
        let unsupported = AttributeValueTransformerError.unsupportedValue(typeName: String(describing: type(of: value)))
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            if number is NSDecimalNumber { throw unsupported }
            return number
        }
        switch value {
        case let v as Bool: return NSNumber(value: v)
        case let v as any BinaryInteger:
            if let small = Int64(exactly: v) { return NSNumber(value: small) }
            if let big = UInt64(exactly: v) { return NSNumber(value: big) }
            throw unsupported
        case let v as Double: return NSNumber(value: v)
        case let v as Float: return NSNumber(value: v)
        case let v as String: return NSString(string: v)
        case let v as Substring: return NSString(string: String(v))
        case let v as Date: return NSDate(timeIntervalSinceReferenceDate: v.timeIntervalSinceReferenceDate)
        case let v as Data: return NSData(data: v)
        case let v as URL: return NSURL(string: v.absoluteString) ?? { () -> NSURL in NSURL(fileURLWithPath: v.path) }()
        case let v as UUID: return NSUUID(uuidString: v.uuidString) ?? NSUUID()
        case is NSNull: return NSNull()
        default: break
        }
        if let array = value as? [Any] {
            var elements: [AnyObject] = []
            for element in array { elements.append(try foundationObject(nonNil(element, unsupported), depth: depth + 1)) }
            return NSArray(array: elements)
        }
        if let set = value as? Set<AnyHashable> {
            var elements: [AnyObject] = []
            for element in set { elements.append(try foundationObject(element.base, depth: depth + 1)) }
            return NSSet(array: elements)
        }
        if let dictionary = value as? [AnyHashable: Any] {
            var result: [AnyHashable: Any] = [:]
            for (key, element) in dictionary {
                guard let k = try foundationObject(key.base, depth: depth + 1) as? NSObject else { throw unsupported }
                result[AnyHashable(k)] = try foundationObject(nonNil(element, unsupported), depth: depth + 1)
            }
            return NSDictionary(dictionary: result)
        }
        throw unsupported
    }

    /// `nil` inside a collection is refused (Foundation collections cannot hold it; use `NSNull`).
    private static func nonNil(_ element: Any, _ error: AttributeValueTransformerError) throws(AttributeValueTransformerError) -> Any {
        guard let element = unwrappedAttributeValue(element) ?? (element is NSNull ? NSNull() : nil) else {
            throw .unsupportedValue(typeName: "nil inside a collection (use NSNull)")
        }
        return element
    }

    static func swiftValue(_ object: Any, depth: Int) throws(AttributeValueTransformerError) -> Any {
        guard depth < maximumDepth else { throw .unreadableData("nested deeper than \(maximumDepth) levels") }
        switch object {
        case let v as NSString: return v as String? ?? String(describing: v)
        case let v as NSNumber: return number(v)
        case let v as NSDate: return Date(timeIntervalSinceReferenceDate: v.timeIntervalSinceReferenceDate)
        case let v as NSData: return Data(referencing: v)
        case let v as NSURL:
            guard let url = v.absoluteURL else { throw .unreadableData("a URL without an address") }
            return url
        case let v as NSUUID: return UUID(uuidString: v.uuidString) ?? UUID()
        case is NSNull: return NSNull()
        case let v as NSArray:
            var result: [Any] = []
            for element in v { result.append(try swiftValue(element, depth: depth + 1)) }
            return result
        case let v as NSSet:
            var result = Set<AnyHashable>()
            for element in v {
                guard let hashable = try swiftValue(element, depth: depth + 1) as? AnyHashable else {
                    throw .unreadableData("a set element that cannot be hashed")
                }
                result.insert(hashable)
            }
            return result
        case let v as NSDictionary:
            var result: [AnyHashable: Any] = [:]
            for (key, element) in v {
                guard let hashable = try swiftValue(key, depth: depth + 1) as? AnyHashable else {
                    throw .unreadableData("a dictionary key that cannot be hashed")
                }
                result[hashable] = try swiftValue(element, depth: depth + 1)
            }
            return result
        default:
            throw AttributeValueTransformerError(.disallowedClass(String(describing: type(of: object))))
        }
    }

    private static func number(_ number: NSNumber) -> Any {
        switch AttributeScalar(number) {
        case .bool(let b): return b
        case .integer(let i): return Int(exactly: i).map { $0 as Any } ?? i
        case .largeUnsigned(let u): return u
        default: return number.doubleValue
        }
    }
}
