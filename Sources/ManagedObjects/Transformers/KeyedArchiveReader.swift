// Reading a keyed archive of plist-like Foundation classes without NSKeyedUnarchiver.
import Foundation

/// Decodes an `NSKeyedArchiver` archive of the secure-unarchiving classes straight from its
/// property list, into Swift values.
///
/// swift-corelibs-foundation's `NSKeyedUnarchiver` stops the process (rather than throwing) on
/// a malformed archive: a reference out of range, a value of the wrong kind, a class it does
/// not allow. Reading the archive's object table here turns every such case into a thrown
/// error. Only the classes of ``SecureUnarchiveTransformer/allowedClassNames`` are read; a
/// shared object is decoded once per reference, within a budget, so a small hostile archive
/// cannot make the reader run for long.
struct KeyedArchiveReader {
    private let objects: [Any]
    private var budget = 100_000

    /// Reads the archive's root object.
    static func rootValue(of data: Data) throws(AttributeValueTransformerError) -> Any {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .unreadableData("not a property list")
        }
        guard let root = plist as? [String: Any], root["$archiver"] as? String == "NSKeyedArchiver",
              let objects = root["$objects"] as? [Any], let top = root["$top"] as? [String: Any],
              let rootReference = top["root"] else {
            throw .unreadableData("not a keyed archive")
        }
        var reader = KeyedArchiveReader(objects: objects)
        guard let value = try reader.value(at: rootReference, depth: 0) else {
            throw .unreadableData("the archive has no root object")
        }
        return value
    }

    private init(objects: [Any]) {
        self.objects = objects
    }

    /// The index a reference (a `UID`) points at.
    static func index(of reference: Any) -> Int? {
        if let number = reference as? Int { return number }
        for child in Mirror(reflecting: reference).children where child.label == "value" {
            if let value = child.value as? UInt32 { return Int(value) }
            if let value = child.value as? UInt64 { return Int(exactly: value) }
            if let value = child.value as? Int { return value }
        }
        return nil
    }

    /// The value a reference points at; `nil` for `$null`.
    private mutating func value(at reference: Any, depth: Int) throws(AttributeValueTransformerError) -> Any? {
        guard depth < SecureUnarchiveTransformer.maximumDepth else {
            throw .unreadableData("nested deeper than \(SecureUnarchiveTransformer.maximumDepth) levels")
        }
        budget -= 1
        guard budget > 0 else { throw .unreadableData("too many objects") }
        guard let index = Self.index(of: reference), objects.indices.contains(index) else {
            throw .unreadableData("a reference outside the object table")
        }
        let object = objects[index]
        if index == 0, object as? String == "$null" { return nil }
        if let dictionary = object as? [String: Any] {
            return try decode(dictionary, depth: depth)
        }
        switch AttributeScalar(object) {
        case .string(let s): return s
        case .bool(let b): return b
        case .integer(let i): return Int(exactly: i).map { $0 as Any } ?? i
        case .largeUnsigned(let u): return u
        case .floating(let d): return d
        case .data(let d): return d
        default: throw .unreadableData("an object of an unexpected kind (\(type(of: object)))")
        }
    }

    private mutating func decode(_ object: [String: Any], depth: Int) throws(AttributeValueTransformerError) -> Any {
        guard let classReference = object["$class"], let classIndex = Self.index(of: classReference),
              objects.indices.contains(classIndex), let classInfo = objects[classIndex] as? [String: Any],
              let className = classInfo["$classname"] as? String else {
            throw .unreadableData("an object without a class")
        }
        guard SecureUnarchiveTransformer.allowedClassNames.contains(className) else {
            throw AttributeValueTransformerError(.disallowedClass(className))
        }
        switch className {
        case "NSString", "NSMutableString":
            if let string = object["NS.string"] as? String { return string }
            if let bytes = object["NS.bytes"] as? Data, let string = String(data: bytes, encoding: .utf8) { return string }
            throw .unreadableData("a string without text")
        case "NSNumber":
            // Numbers are normally stored inline; a boxed one keeps its value under a key.
            for key in ["NS.intval", "NS.dblval", "NS.boolval"] where object[key] != nil {
                return try value(ofInline: object[key] as Any)
            }
            throw .unreadableData("a number without a value")
        case "NSDate":
            guard let time = AttributeScalar(object["NS.time"] as Any).doubleValue else { throw .unreadableData("a date without a time") }
            return Date(timeIntervalSinceReferenceDate: time)
        case "NSData", "NSMutableData":
            guard let data = object["NS.data"] as? Data else { throw .unreadableData("data without bytes") }
            return data
        case "NSUUID":
            guard let bytes = object["NS.uuidbytes"] as? Data, bytes.count == 16 else { throw .unreadableData("a UUID without 16 bytes") }
            let b = [UInt8](bytes)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        case "NSURL":
            return try url(object, depth: depth)
        case "NSNull":
            return NSNull()
        case "NSArray", "NSMutableArray":
            return try elements(object["NS.objects"], depth: depth)
        case "NSSet", "NSMutableSet":
            var set = Set<AnyHashable>()
            for element in try elements(object["NS.objects"], depth: depth) {
                guard let hashable = element as? AnyHashable else { throw .unreadableData("a set element that cannot be hashed") }
                set.insert(hashable)
            }
            return set
        default: // NSDictionary, NSMutableDictionary
            let keys = try elements(object["NS.keys"], depth: depth)
            let values = try elements(object["NS.objects"], depth: depth)
            guard keys.count == values.count else { throw .unreadableData("a dictionary with \(keys.count) keys and \(values.count) values") }
            var dictionary: [AnyHashable: Any] = [:]
            for (key, value) in zip(keys, values) {
                guard let hashable = key as? AnyHashable else { throw .unreadableData("a dictionary key that cannot be hashed") }
                dictionary[hashable] = value
            }
            return dictionary
        }
    }

    private func value(ofInline object: Any) throws(AttributeValueTransformerError) -> Any {
        switch AttributeScalar(object) {
        case .bool(let b): return b
        case .integer(let i): return Int(exactly: i).map { $0 as Any } ?? i
        case .largeUnsigned(let u): return u
        case .floating(let d): return d
        default: throw .unreadableData("a number of an unexpected kind")
        }
    }

    private mutating func elements(_ list: Any?, depth: Int) throws(AttributeValueTransformerError) -> [Any] {
        guard let references = list as? [Any] else { throw .unreadableData("a collection without its elements") }
        var result: [Any] = []
        result.reserveCapacity(references.count)
        for reference in references {
            guard let element = try value(at: reference, depth: depth + 1) else {
                throw .unreadableData("nil inside a collection")
            }
            result.append(element)
        }
        return result
    }

    private mutating func url(_ object: [String: Any], depth: Int) throws(AttributeValueTransformerError) -> URL {
        guard let relativeReference = object["NS.relative"],
              let relative = try value(at: relativeReference, depth: depth + 1) as? String else {
            throw .unreadableData("a URL without its text")
        }
        var base: URL?
        if let baseReference = object["NS.base"], let baseValue = try value(at: baseReference, depth: depth + 1) {
            guard let baseURL = baseValue as? URL else { throw .unreadableData("a URL base that is not a URL") }
            base = baseURL
        }
        guard let url = URL(string: relative, relativeTo: base) else { throw .unreadableData("a URL that does not parse: \(relative)") }
        return url.absoluteURL
    }
}
