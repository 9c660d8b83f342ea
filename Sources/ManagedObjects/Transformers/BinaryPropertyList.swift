// A bounds-checked reader of binary property lists (bplist00), for keyed archives.
import Foundation

/// A property-list value, as a keyed archive or a property-list file holds it.
package enum PropertyListValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case real(Double)
    /// Seconds since 2001-01-01.
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archive's reference to an entry of its object table.
    case uid(Int)
    case array([PropertyListValue])
    case set([PropertyListValue])
    case dictionary([String: PropertyListValue])
}

/// Reads a binary property list (`bplist00`) into ``PropertyListValue``s, checking every
/// offset, count and reference against the data, so that malformed input is a thrown error.
///
/// Written because swift-corelibs-foundation's `PropertyListSerialization` and
/// `NSKeyedUnarchiver` stop the process on some malformed binary property lists; keyed
/// archives in a store are input the program does not control.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    private var budget = 200_000

    /// The maximum nesting of arrays, sets and dictionaries.
    static let maximumDepth = 128

    /// Parses `data`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unreadableData(_:)`` naming the problem.
    static func value(of data: Data) throws(AttributeValueTransformerError) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: [UInt8](data))
        return try reader.object(reader.topObject, depth: 0)
    }

    private let topObject: Int

    private init(bytes: [UInt8]) throws(AttributeValueTransformerError) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
            throw .unreadableData("not a binary property list")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              let count = Self.int(bytes, trailer + 8, 8), let top = Self.int(bytes, trailer + 16, 8),
              let tableStart = Self.int(bytes, trailer + 24, 8),
              count > 0, count <= bytes.count, top < count, tableStart >= 8,
              tableStart <= trailer, count <= (trailer - tableStart) / offsetSize else {
            throw .unreadableData("a damaged binary property list trailer")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for i in 0..<count {
            guard let offset = Self.int(bytes, tableStart + i * offsetSize, offsetSize), offset >= 8, offset < tableStart else {
                throw .unreadableData("an object offset outside the property list")
            }
            offsets.append(offset)
        }
        self.offsets = offsets
        topObject = top
    }

    /// A big-endian unsigned integer of `size` bytes at `at`, as `Int`, or `nil` when out of
    /// bounds or too large.
    private static func int(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int? {
        guard at >= 0, size >= 0, at <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        return Int(exactly: value).flatMap { $0 <= Int(Int32.max) ? $0 : nil }
    }

    private func byte(_ at: Int) throws(AttributeValueTransformerError) -> UInt8 {
        guard at >= 0, at < bytes.count else { throw .unreadableData("an object running past the end") }
        return bytes[at]
    }

    /// The length of a data, string or collection object at `at` (marker at `at`) and where
    /// its content starts.
    private func lengthAndStart(_ at: Int, _ info: UInt8) throws(AttributeValueTransformerError) -> (Int, Int) {
        if info != 0x0F { return (Int(info), at + 1) }
        let marker = try byte(at + 1)
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw .unreadableData("a damaged length") }
        let size = 1 << Int(marker & 0x0F)
        guard let length = Self.int(bytes, at + 2, size) else { throw .unreadableData("a length running past the end") }
        return (length, at + 2 + size)
    }

    private func slice(_ start: Int, _ count: Int) throws(AttributeValueTransformerError) -> ArraySlice<UInt8> {
        guard count >= 0, start >= 0, start <= bytes.count - count else { throw .unreadableData("an object running past the end") }
        return bytes[start..<(start + count)]
    }

    private mutating func object(_ index: Int, depth: Int) throws(AttributeValueTransformerError) -> PropertyListValue {
        budget -= 1
        guard budget > 0 else { throw .unreadableData("too many objects") }
        guard depth < Self.maximumDepth else { throw .unreadableData("nested too deeply") }
        guard index >= 0, index < offsets.count else { throw .unreadableData("a reference outside the object table") }
        let at = offsets[index]
        let marker = try byte(at)
        let info = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw .unreadableData("an unknown marker \(marker)")
            }
        case 0x1:
            guard info <= 4 else { throw .unreadableData("an integer of an unknown width") }
            let size = 1 << Int(info)
            let raw = try slice(at + 1, size)
            var value: UInt64 = 0
            for b in raw.suffix(8) { value = value << 8 | UInt64(b) }
            if size == 8 { return .integer(Int64(bitPattern: value)) }
            if size == 16 {
                let high = raw.prefix(8).allSatisfy { $0 == 0 }
                return high ? (Int64(exactly: value).map { .integer($0) } ?? .unsigned(value)) : .integer(Int64(bitPattern: value))
            }
            return .integer(Int64(value))
        case 0x2, 0x3:
            guard marker >> 4 == 0x2 || marker == 0x33 else { throw .unreadableData("a damaged date") }
            guard info == 2 || info == 3 else { throw .unreadableData("a real of an unknown width") }
            let raw = try slice(at + 1, 1 << Int(info))
            var bits: UInt64 = 0
            for b in raw { bits = bits << 8 | UInt64(b) }
            let value = info == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
            return marker >> 4 == 0x3 ? .date(value) : .real(value)
        case 0x4:
            let (length, start) = try lengthAndStart(at, info)
            return .data(Data(try slice(start, length)))
        case 0x5:
            let (length, start) = try lengthAndStart(at, info)
            return .string(String(decoding: try slice(start, length), as: UTF8.self))
        case 0x6:
            let (length, start) = try lengthAndStart(at, info)
            guard length <= Int.max / 2 else { throw .unreadableData("a string too long") }
            let raw = try slice(start, length * 2)
            var units: [UInt16] = []
            units.reserveCapacity(length)
            var i = raw.startIndex
            while i < raw.endIndex {
                units.append(UInt16(raw[i]) << 8 | UInt16(raw[i + 1]))
                i += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            guard let value = Self.int(bytes, at + 1, Int(info) + 1) else { throw .unreadableData("a damaged reference") }
            return .uid(value)
        case 0xA, 0xC:
            let (count, start) = try lengthAndStart(at, info)
            var elements: [PropertyListValue] = []
            for i in 0..<count {
                elements.append(try object(try reference(start, i, count), depth: depth + 1))
            }
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            let (count, start) = try lengthAndStart(at, info)
            var dictionary: [String: PropertyListValue] = [:]
            for i in 0..<count {
                guard case .string(let key) = try object(try reference(start, i, count * 2), depth: depth + 1) else {
                    throw .unreadableData("a dictionary key that is not text")
                }
                dictionary[key] = try object(try reference(start, count + i, count * 2), depth: depth + 1)
            }
            return .dictionary(dictionary)
        default:
            throw .unreadableData("an unknown marker \(marker)")
        }
    }

    private func reference(_ start: Int, _ i: Int, _ count: Int) throws(AttributeValueTransformerError) -> Int {
        guard count <= bytes.count, let value = Self.int(bytes, start + i * referenceSize, referenceSize) else {
            throw .unreadableData("a reference running past the end")
        }
        return value
    }
}
