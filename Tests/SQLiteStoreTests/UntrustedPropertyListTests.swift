import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Z_METADATA.Z_PLIST is read by the package's checked property-list reader: lists that stop
/// Foundation's `PropertyListSerialization` on Linux (trial 11, F1: a binary list holding a set)
/// are read or refused with an error naming the file, never a crash.
@Suite struct UntrustedPropertyListTests {
    /// `{"_XCCurrentVersionName": set{1}}` as a binary property list (object marker 0xC1).
    static let listWithSet = Data(hex: """
        62706c6973743030d101025f10155f584343757272656e7456657273696f6e4e616d65c1031001000800\
        0b002300250000000000000201000000000000000400000000000000000000000000000027
        """)

    @Test func aSetDecodesAsAnArray() throws {
        let decoded = try SQLiteStoreMetadata.decode(Self.listWithSet)
        #expect(decoded.keys.sorted() == ["_XCCurrentVersionName"])
        #expect((decoded["_XCCurrentVersionName"] as? [any Sendable])?.compactMap { $0 as? Int } == [1])
    }

    @Test func aStoreWhoseMetadataHoldsASetIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("set.sqlite")
        let connection = try SQLiteConnection(path: url.path, mode: .create)
        for statement in SQLiteSchema.bookkeepingStatements { try connection.execute(statement) }
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'ABC', ?)", [.blob(Self.listWithSet)])
        // The list reads (a dictionary without a store type or version hashes): the model does
        // not match it, which is a thrown error naming the file.
        try BadFileTests.expectRefusedUntouched(url) { if case .incompatibleModel = $0 { return true } else { return false } }
        let store = SQLitePersistentStore(url: url)
        #expect(try store.savedMetadata()?["_XCCurrentVersionName"] != nil)
    }

    @Test(arguments: [
        ("62706c697374303041", "not a binary property list"),
        ("3c706c6973743e3c61727261792f3e3c2f706c6973743e", "not a dictionary"),
        ("3c706c6973743e3c646963743e3c6b65793e613c2f6b65793e3c2f646963743e3c2f706c6973743e", "has no value"),
    ])
    func unreadableListsAreRefusedWithTheReason(hex: String, reason: String) throws {
        #expect(throws: PropertyListReadError.self) { try SQLiteStoreMetadata.decode(Data(hex: hex)) }
        do {
            _ = try SQLiteStoreMetadata.decode(Data(hex: hex))
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func metadataRoundTripsThroughTheCheckedReader() throws {
        let model = try Models.library()
        var metadata = SQLiteStoreMetadata.initial(for: model)
        metadata["custom"] = ["nested": [1, -2, 3_000_000_000_000] as [any Sendable], "flag": true, "ratio": 0.25,
                              "when": Date(timeIntervalSinceReferenceDate: 12_345.5), "bytes": Data([0, 1, 255]),
                              "text": "ünïcode ✓"] as [String: any Sendable]
        let decoded = try SQLiteStoreMetadata.decode(try SQLiteStoreMetadata.encode(metadata))
        #expect(decoded["NSStoreType"] as? String == "SQLite")
        #expect(decoded["NSPersistenceFrameworkVersion"] as? Int == SQLiteStoreMetadata.frameworkVersion)
        let hashes = (decoded["NSStoreModelVersionHashes"] as? [String: any Sendable])?.compactMapValues { $0 as? Data }
        #expect(hashes == model.entityVersionHashesByName)
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: decoded))
        let custom = try #require(decoded["custom"] as? [String: any Sendable])
        #expect((custom["nested"] as? [any Sendable])?.compactMap { $0 as? Int } == [1, -2, 3_000_000_000_000])
        #expect(custom["flag"] as? Bool == true)
        #expect(custom["ratio"] as? Double == 0.25)
        #expect(custom["when"] as? Date == Date(timeIntervalSinceReferenceDate: 12_345.5))
        #expect(custom["bytes"] as? Data == Data([0, 1, 255]))
        #expect(custom["text"] as? String == "ünïcode ✓")
    }
}

extension Data {
    /// The bytes of a hexadecimal text (pairs of digits; anything else is skipped).
    init(hex: String) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in hex {
            guard let digit = character.hexDigitValue else { continue }
            if let h = high {
                bytes.append(h << 4 | UInt8(digit))
                high = nil
            } else {
                high = UInt8(digit)
            }
        }
        self.init(bytes)
    }
}
