// The atomic file store's JSON format: metadata, key counters and every row.
import Foundation
import Predicates

/// The file's contents, read and written whole.
///
/// ```json
/// {"format": "ObjectGraph.AtomicFileStore", "formatVersion": 1,
///  "metadata": {"NSStoreType": "Binary", "NSStoreUUID": "…",
///               "NSStoreModelVersionHashes": {"Apple": "<base64>"}, …},
///  "nextKeys": {"Fruit": 3},
///  "objects": [{"entity": "Apple", "key": 1, "version": 2,
///               "attributes": {"radius": {"double": 2.4}},
///               "relationships": {"crate": [["Crate", 1]]}}]}
/// ```
///
/// Values are tagged by kind so that they read back as they were written: `bool`, `integer`,
/// `unsigned`, `double` (non-finite numbers as the strings `nan`, `inf`, `-inf`), `decimal`
/// (a string), `string`, `date` (seconds since 2001-01-01, Apple's reference date), `data`
/// (base64), `uuid`, `url`, `array`, `set`, `dictionary` (an array of `[key, value]` pairs),
/// `null`. A value of a transformable attribute that has none of these forms (a struct of the
/// app's) is kept as its value transformer's data, `transformed` (base64), as the SQLite store
/// keeps it; loading turns it back through the same transformer.
struct AtomicFileContents {
    static let format = "ObjectGraph.AtomicFileStore"
    static let formatVersion = 1

    var metadata: [String: any Sendable]
    var nextKeys: [String: Int64]
    var rows: [StoreRow]
    /// The model whose transformable attributes' transformers write values without a form of
    /// their own (`nil`: none are written).
    var model: ManagedObjectModel?
    /// The attribute values read as transformer data (`transformed`), by row index and
    /// attribute name, until ``reverseTransformed(with:path:)`` turns them into values.
    var transformedValues: [(row: Int, attribute: String)] = []

    // MARK: Writing

    func data(path: String) throws -> Data {
        var objects: [Any] = []
        objects.reserveCapacity(rows.count)
        for row in rows.sorted(by: Self.fileOrder) {
            guard case .integer(let key) = row.objectID.referenceObject else {
                throw FileStoreError(.unsupportedValue("the object \(row.objectID) has no integer key"), path: path)
            }
            var attributes: [String: Any] = [:]
            for (name, value) in row.attributes {
                do {
                    attributes[name] = try Self.encode(value)
                } catch let reason as UnsupportedValue {
                    let entity = row.objectID.entityName
                    guard let attribute = model?.graph.entity(named: entity)?.attributesByName[name],
                          attribute.attributeType == .transformable, let plain = value.anyValue else {
                        throw FileStoreError(.unsupportedValue("\(entity).\(name): \(reason.text)"), path: path)
                    }
                    do {
                        attributes[name] = ["transformed": try attribute.transformedData(for: plain, entity: entity).base64EncodedString()]
                    } catch {
                        throw FileStoreError(.unsupportedValue(error.description), path: path)
                    }
                }
            }
            var relationships: [String: Any] = [:]
            for (name, ids) in row.relationships {
                relationships[name] = try ids.map { id -> [Any] in
                    guard case .integer(let key) = id.referenceObject else {
                        throw FileStoreError(.unsupportedValue("\(row.objectID.entityName).\(name) leads to \(id), which has no integer key"), path: path)
                    }
                    return [id.entityName, key]
                }
            }
            objects.append(["entity": row.objectID.entityName, "key": key, "version": row.version,
                            "attributes": attributes, "relationships": relationships] as [String: Any])
        }
        var hashes: [String: String] = [:]
        for (name, hash) in metadata[StoreMetadataKey.modelVersionHashes] as? [String: Data] ?? [:] {
            hashes[name] = hash.base64EncodedString()
        }
        var plainMetadata: [String: Any] = [:]
        for (key, value) in metadata where key != StoreMetadataKey.modelVersionHashes {
            guard JSONSerialization.isValidJSONObject([value]) else { continue }
            plainMetadata[key] = value
        }
        plainMetadata[StoreMetadataKey.modelVersionHashes] = hashes
        let root: [String: Any] = ["format": Self.format, "formatVersion": Self.formatVersion,
                                   "metadata": plainMetadata, "nextKeys": nextKeys, "objects": objects]
        do {
            return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        } catch {
            throw FileStoreError(.unsupportedValue("\(error)"), path: path)
        }
    }

    private static func fileOrder(_ a: StoreRow, _ b: StoreRow) -> Bool {
        if a.objectID.entityName != b.objectID.entityName { return a.objectID.entityName < b.objectID.entityName }
        return (a.objectID.referenceObject.integerValue ?? 0) < (b.objectID.referenceObject.integerValue ?? 0)
    }

    struct UnsupportedValue: Error { var text: String }

    static func encode(_ value: KeyValueConstant) throws -> Any {
        switch value {
        case .null: return ["null": true]
        case .bool(let b): return ["bool": b]
        case .integer(let i): return ["integer": i]
        case .unsignedInteger(let u): return ["unsigned": String(u)]
        case .double(let d):
            if d.isNaN { return ["double": "nan"] }
            if d.isInfinite { return ["double": d > 0 ? "inf" : "-inf"] }
            return ["double": d]
        case .decimal(let d): return ["decimal": d.description]
        case .string(let s): return ["string": s]
        case .date(let d): return ["date": d.timeIntervalSinceReferenceDate]
        case .data(let d): return ["data": d.base64EncodedString()]
        case .uuid(let u): return ["uuid": u.uuidString]
        case .array(let list): return ["array": try list.map(encode)]
        case .set(let set): return ["set": try set.map(encode)]
        case .dictionary(let pairs): return ["dictionary": try pairs.map { [try encode($0.key), try encode($0.value)] }]
        case .value(let box):
            if let url = box.base as? URL { return ["url": url.absoluteString] }
            throw UnsupportedValue(text: "a \(type(of: box.base)) value has no form in the file")
        case .object:
            throw UnsupportedValue(text: "an object reference has no form in the file")
        }
    }

    // MARK: Reading

    init(metadata: [String: any Sendable], nextKeys: [String: Int64], rows: [StoreRow], model: ManagedObjectModel? = nil) {
        self.metadata = metadata
        self.nextKeys = nextKeys
        self.rows = rows
        self.model = model
    }

    /// Turns the values read as transformer data back into values, through their attributes'
    /// transformers in `model`.
    ///
    /// - Throws: ``FileStoreError`` `.damaged` when such a value belongs to no transformable
    ///   attribute of the model or its transformer refuses the data.
    mutating func reverseTransformed(with model: ManagedObjectModel, path: String) throws {
        for (index, name) in transformedValues {
            let entity = rows[index].objectID.entityName
            guard let attribute = model.graph.entity(named: entity)?.attributesByName[name], attribute.attributeType == .transformable,
                  case .data(let data) = rows[index].attributes[name] else {
                throw FileStoreError(.damaged("\(entity): \(name) holds transformer data, and the model has no transformable attribute \(name)"), path: path)
            }
            do {
                rows[index].attributes[name] = KeyValueConstant(try attribute.value(fromTransformedData: data, entity: entity))
            } catch {
                throw FileStoreError(.damaged(error.description), path: path)
            }
        }
        transformedValues = []
    }

    /// Reads a file's bytes.
    ///
    /// - Throws: ``FileStoreError`` `.damaged` saying what is wrong.
    init(data: Data, path: String) throws {
        func damaged(_ reason: String) -> FileStoreError { FileStoreError(.damaged(reason), path: path) }
        guard !data.isEmpty else { throw damaged("the file is empty") }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw damaged(Self.jsonFailure(error))
        }
        guard let root = parsed as? [String: Any], root["format"] as? String == Self.format else {
            throw damaged("it is not an \(Self.format) file")
        }
        guard let version = root["formatVersion"] as? Int, version == Self.formatVersion else {
            throw damaged("format version \(root["formatVersion"].map { "\($0)" } ?? "missing") (this library reads \(Self.formatVersion))")
        }
        guard let rawMetadata = root["metadata"] as? [String: Any], let identifier = rawMetadata[StoreMetadata.storeUUIDKey] as? String else {
            throw damaged("its metadata has no \(StoreMetadata.storeUUIDKey)")
        }
        let storeID = identifier
        var metadata: [String: any Sendable] = [:]
        for (key, value) in rawMetadata {
            if key == StoreMetadataKey.modelVersionHashes {
                guard let hashes = value as? [String: String] else { throw damaged("\(key) is not a dictionary of base64 strings") }
                var decoded: [String: Data] = [:]
                for (name, text) in hashes {
                    guard let hash = Data(base64Encoded: text) else { throw damaged("the version hash of \(name) is not base64") }
                    decoded[name] = hash
                }
                metadata[key] = decoded
            } else if let value = Self.sendable(value) {
                metadata[key] = value
            }
        }
        var nextKeys: [String: Int64] = [:]
        for (name, value) in root["nextKeys"] as? [String: Any] ?? [:] {
            guard let key = Self.int64(value) else { throw damaged("nextKeys.\(name) is not a number") }
            nextKeys[name] = key
        }
        guard let objects = root["objects"] as? [[String: Any]] else { throw damaged("it has no object list") }
        var rows: [StoreRow] = []
        rows.reserveCapacity(objects.count)
        var transformed: [(row: Int, attribute: String)] = []
        for (index, object) in objects.enumerated() {
            guard let entity = object["entity"] as? String, let key = Self.int64(object["key"]),
                  let rowVersion = Self.int64(object["version"]) else {
                throw damaged("object \(index) has no entity, key or version")
            }
            let id = ManagedObjectID(entityName: entity, storeIdentifier: storeID, primaryKey: key)
            var row = StoreRow(objectID: id, version: rowVersion)
            for (name, value) in object["attributes"] as? [String: Any] ?? [:] {
                if let tagged = value as? [String: Any], tagged.count == 1, let text = tagged["transformed"] {
                    guard let data = (text as? String).flatMap({ Data(base64Encoded: $0) }) else {
                        throw damaged("\(entity) \(key): \(name) holds transformer data that is not base64")
                    }
                    row.attributes[name] = .data(data)
                    transformed.append((rows.count, name))
                    continue
                }
                guard let constant = Self.decode(value) else { throw damaged("\(entity) \(key): \(Self.undecodable(value, name: name))") }
                row.attributes[name] = constant
            }
            for (name, value) in object["relationships"] as? [String: Any] ?? [:] {
                guard let list = value as? [[Any]] else { throw damaged("\(entity) \(key): \(name) is not a list of [entity, key]") }
                row.relationships[name] = try list.map { pair in
                    guard pair.count == 2, let target = pair[0] as? String, let targetKey = Self.int64(pair[1]) else {
                        throw damaged("\(entity) \(key): \(name) holds something other than [entity, key]")
                    }
                    return ManagedObjectID(entityName: target, storeIdentifier: storeID, primaryKey: targetKey)
                }
            }
            rows.append(row)
        }
        self.init(metadata: metadata, nextKeys: nextKeys, rows: rows)
        transformedValues = transformed
    }

    /// What the JSON parser's error says of the file: too deeply nested (complete, but beyond
    /// what the parser reads), cut short, or not JSON, with the parser's own words.
    private static func jsonFailure(_ error: any Error) -> String {
        let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ". ")) }
        guard let detail else { return "it is not JSON (truncated or overwritten?)" }
        let lowered = detail.lowercased()
        if lowered.contains("nested") || lowered.contains("depth") {
            return "its JSON nests arrays or objects deeper than the parser reads (\(detail)); "
                + "this library writes at most a few levels: the file was not written by it"
        }
        if lowered.contains("end of file") || lowered.contains("unexpected end") {
            return "its JSON ends too early (\(detail)): truncated?"
        }
        return "it is not valid JSON (\(detail)): overwritten?"
    }

    /// Why an attribute's JSON value cannot be read: not an object of one tag, an unknown
    /// tag, an integer beyond 64 bits, or content that is not of its tag's kind.
    private static func undecodable(_ value: Any, name: String) -> String {
        guard let tagged = value as? [String: Any], tagged.count == 1, let (tag, content) = tagged.first else {
            return "the value of \(name) is not a tagged value (an object of one key naming its type, such as {\"string\": \"…\"})"
        }
        let shown = String(String(describing: content).prefix(60))
        let tags = ["null", "bool", "integer", "unsigned", "double", "decimal", "string", "date", "data", "uuid", "url",
                    "array", "set", "dictionary"]
        guard tags.contains(tag) else { return "the value of \(name) has the unknown tag \"\(tag)\"" }
        if tag == "integer", content is NSNumber, !(content is Bool) {
            return "the integer \(shown) of \(name) is not a whole number within the range of a 64-bit integer"
        }
        return "the \"\(tag)\" value of \(name) holds \(shown), which is not a valid \(tag)"
    }

    /// Metadata values JSON gives: strings, numbers, arrays of strings.
    private static func sendable(_ value: Any) -> (any Sendable)? {
        if let text = value as? String { return text }
        if let list = value as? [String] { return list }
        if let number = int64(value) { return Int(number) }
        return nil
    }

    static func decode(_ value: Any) -> KeyValueConstant? {
        guard let tagged = value as? [String: Any], tagged.count == 1, let (tag, content) = tagged.first else { return nil }
        switch tag {
        case "null": return .null
        case "bool": return (content as? Bool).map { .bool($0) }
        case "integer": return int64(content).map { .integer($0) }
        case "unsigned": return (content as? String).flatMap(UInt64.init).map { .unsignedInteger($0) }
        case "double":
            switch content as? String {
            case "nan": return .double(.nan)
            case "inf": return .double(.infinity)
            case "-inf": return .double(-.infinity)
            default: return double(content).map { .double($0) }
            }
        case "decimal": return (content as? String).flatMap { Decimal(string: $0) }.map { .decimal($0) }
        case "string": return (content as? String).map { .string($0) }
        case "date": return double(content).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "data": return (content as? String).flatMap { Data(base64Encoded: $0) }.map { .data($0) }
        case "uuid": return (content as? String).flatMap(UUID.init(uuidString:)).map { .uuid($0) }
        case "url": return (content as? String).flatMap(URL.init(string:)).map { KeyValueConstant($0) }
        case "array":
            guard let list = content as? [Any] else { return nil }
            let values = list.compactMap(decode)
            return values.count == list.count ? .array(values) : nil
        case "set":
            guard let list = content as? [Any] else { return nil }
            let values = list.compactMap(decode)
            return values.count == list.count ? .set(Set(values)) : nil
        case "dictionary":
            guard let list = content as? [[Any]] else { return nil }
            var pairs: [KeyValueConstant: KeyValueConstant] = [:]
            for pair in list {
                guard pair.count == 2, let key = decode(pair[0]), let value = decode(pair[1]) else { return nil }
                pairs[key] = value
            }
            return .dictionary(pairs)
        default: return nil
        }
    }

    /// An integer JSON number (not a fraction). The tags say where Booleans are, so a number
    /// is not checked for being one (JSON numbers 0 and 1 may read as Booleans on Linux).
    static func int64(_ value: Any?) -> Int64? {
        guard let value else { return nil }
        if let int = value as? Int { return Int64(int) }
        if let int = value as? Int64 { return int }
        if let double = value as? Double, let int = Int64(exactly: double) { return int }
        return nil
    }

    /// A JSON number as a double.
    static func double(_ value: Any?) -> Double? {
        guard let value else { return nil }
        if let double = value as? Double { return double }
        if let int = value as? Int { return Double(int) }
        if let int = value as? Int64 { return Double(int) }
        return nil
    }
}
