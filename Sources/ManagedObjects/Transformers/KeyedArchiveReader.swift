// Reading a keyed archive of plist-like Foundation classes without NSKeyedUnarchiver.
import Foundation

/// Decodes an `NSKeyedArchiver` archive of the secure-unarchiving classes straight from its
/// property list, into Swift values.
///
/// swift-corelibs-foundation's `NSKeyedUnarchiver` stops the process (rather than throwing) on
/// a malformed archive: a reference out of range, a value of the wrong kind, a class it does
/// not allow. Reading the archive's object table here (through ``BinaryPropertyListReader``) turns every such case
/// into a thrown error. Only the classes of ``SecureUnarchiveTransformer/allowedClassNames`` are read; a
/// shared object is decoded once per reference, within a budget, so a small hostile archive
/// cannot make the reader run for long.
struct KeyedArchiveReader {
    private let objects: [PropertyListValue]
    private var budget = 100_000

    /// Reads the archive's root object.
    static func rootValue(of data: Data) throws(AttributeValueTransformerError) -> Any {
        let plist = try propertyList(data)
        guard case .dictionary(let root) = plist, case .string("NSKeyedArchiver")? = root["$archiver"],
              case .array(let objects)? = root["$objects"], case .dictionary(let top)? = root["$top"],
              let rootReference = top["root"] else {
            throw .unreadableData("not a keyed archive")
        }
        var reader = KeyedArchiveReader(objects: objects)
        guard let value = try reader.value(at: rootReference, depth: 0) else {
            throw .unreadableData("the archive has no root object")
        }
        return value
    }

    /// The archive's property list, binary or XML, through the checked readers (never
    /// `PropertyListSerialization`); in an XML list a reference is a `{CF$UID = n}` dictionary.
    private static func propertyList(_ data: Data) throws(AttributeValueTransformerError) -> PropertyListValue {
        let plist: PropertyListValue
        do {
            plist = try PropertyListValue.parse(data)
        } catch {
            throw .unreadableData(error.reason)
        }
        return data.starts(with: Array("bplist".utf8)) ? plist : withReferences(plist)
    }

    /// `value` with each `{CF$UID = n}` dictionary of an XML archive turned into a reference.
    private static func withReferences(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            if dictionary.count == 1, case .integer(let index)? = dictionary["CF$UID"], let uid = Int(exactly: index) {
                return .uid(uid)
            }
            return .dictionary(dictionary.mapValues(withReferences))
        case .array(let elements): return .array(elements.map(withReferences))
        case .set(let elements): return .set(elements.map(withReferences))
        default: return value
        }
    }

    private init(objects: [PropertyListValue]) {
        self.objects = objects
    }

    /// The value a reference points at; `nil` for `$null`.
    private mutating func value(at reference: PropertyListValue, depth: Int) throws(AttributeValueTransformerError) -> Any? {
        guard depth < SecureUnarchiveTransformer.maximumDepth else {
            throw .unreadableData("nested deeper than \(SecureUnarchiveTransformer.maximumDepth) levels")
        }
        budget -= 1
        guard budget > 0 else { throw .unreadableData("too many objects") }
        guard case .uid(let index) = reference, objects.indices.contains(index) else {
            throw .unreadableData("a reference outside the object table")
        }
        switch objects[index] {
        case .string("$null") where index == 0: return nil
        case .dictionary(let dictionary): return try decode(dictionary, depth: depth)
        case .string(let s): return s
        case let other: return try Self.scalar(other)
        }
    }

    private static func scalar(_ value: PropertyListValue) throws(AttributeValueTransformerError) -> Any {
        switch value {
        case .bool(let b): return b
        case .integer(let i): return Int(exactly: i).map { $0 as Any } ?? i
        case .unsigned(let u): return u
        case .real(let d): return d
        case .data(let d): return d
        case .string(let s): return s
        default: throw .unreadableData("an object of an unexpected kind")
        }
    }

    private func classInfo(_ object: [String: PropertyListValue]) throws(AttributeValueTransformerError) -> String {
        guard case .uid(let classIndex)? = object["$class"], objects.indices.contains(classIndex),
              case .dictionary(let info) = objects[classIndex], case .string(let name)? = info["$classname"] else {
            throw .unreadableData("an object without a class")
        }
        return name
    }

    private mutating func decode(_ object: [String: PropertyListValue], depth: Int) throws(AttributeValueTransformerError) -> Any {
        let className = try classInfo(object)
        guard SecureUnarchiveTransformer.allowedClassNames.contains(className) else {
            throw AttributeValueTransformerError(.disallowedClass(className))
        }
        switch className {
        case "NSString", "NSMutableString":
            if case .string(let string)? = object["NS.string"] { return string }
            if case .data(let bytes)? = object["NS.bytes"], let string = String(data: bytes, encoding: .utf8) { return string }
            throw .unreadableData("a string without text")
        case "NSNumber":
            // Numbers are normally stored inline; a boxed one keeps its value under a key.
            for key in ["NS.intval", "NS.dblval", "NS.boolval"] {
                if let value = object[key] { return try Self.scalar(value) }
            }
            throw .unreadableData("a number without a value")
        case "NSDate":
            switch object["NS.time"] {
            case .real(let time)?: return Date(timeIntervalSinceReferenceDate: time)
            case .integer(let time)?: return Date(timeIntervalSinceReferenceDate: Double(time))
            default: throw .unreadableData("a date without a time")
            }
        case "NSData", "NSMutableData":
            guard case .data(let data)? = object["NS.data"] else { throw .unreadableData("data without bytes") }
            return data
        case "NSUUID":
            guard case .data(let bytes)? = object["NS.uuidbytes"], bytes.count == 16 else {
                throw .unreadableData("a UUID without 16 bytes")
            }
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
            guard keys.count == values.count else {
                throw .unreadableData("a dictionary with \(keys.count) keys and \(values.count) values")
            }
            var dictionary: [AnyHashable: Any] = [:]
            for (key, value) in zip(keys, values) {
                guard let hashable = key as? AnyHashable else { throw .unreadableData("a dictionary key that cannot be hashed") }
                dictionary[hashable] = value
            }
            return dictionary
        }
    }

    private mutating func elements(_ list: PropertyListValue?, depth: Int) throws(AttributeValueTransformerError) -> [Any] {
        guard case .array(let references)? = list else { throw .unreadableData("a collection without its elements") }
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

    private mutating func url(_ object: [String: PropertyListValue], depth: Int) throws(AttributeValueTransformerError) -> URL {
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
