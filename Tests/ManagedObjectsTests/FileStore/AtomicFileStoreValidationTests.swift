import Foundation
import Testing
import TestSupport
@testable import ManagedObjects

/// A file that is valid JSON of the store's format but does not fit the model is refused at
/// load, naming the file and the problem, and left as it was.
@Suite struct AtomicFileStoreValidationTests {
    /// One structural fault written into a sound fruit-stand file.
    enum Fault: String, CaseIterable, Sendable {
        case duplicateKey, unknownEntity, wrongDestinationEntity, missingDestination, wrongValueType,
             negativeVersion, twoObjectsOnAToOne, unknownAttribute

        /// The words the error must contain.
        var expectedWords: [String] {
            switch self {
            case .duplicateKey: return ["Apple 1", "twice"]
            case .unknownEntity: return ["Ghost"]
            case .wrongDestinationEntity: return ["Apple 1", "crate", "Stand 1", "Crate"]
            case .missingDestination: return ["Apple 1", "crate", "Crate 99", "not in the file"]
            case .wrongValueType: return ["Apple 1", "radius", "Double"]
            case .negativeVersion: return ["Apple 1", "negative version"]
            case .twoObjectsOnAToOne: return ["Apple 1", "crate", "2 objects"]
            case .unknownAttribute: return ["Apple 1", "colour"]
            }
        }

        func apply(to objects: inout [[String: Any]]) throws {
            let apple = try #require(objects.firstIndex { $0["entity"] as? String == "Apple" && (($0["key"] as? Int) == 1) })
            switch self {
            case .duplicateKey: objects.append(objects[apple])
            case .unknownEntity: objects[apple]["entity"] = "Ghost"
            case .wrongDestinationEntity: objects[apple]["relationships"] = ["crate": [["Stand", 1]]]
            case .missingDestination: objects[apple]["relationships"] = ["crate": [["Crate", 99]]]
            case .wrongValueType: objects[apple]["attributes"] = ["radius": ["string": "x"]]
            case .negativeVersion: objects[apple]["version"] = -1
            case .twoObjectsOnAToOne: objects[apple]["relationships"] = ["crate": [["Crate", 1], ["Crate", 2]]]
            case .unknownAttribute: objects[apple]["attributes"] = ["radius": ["double": 2.0], "colour": ["string": "red"]]
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aFileThatDoesNotFitTheModelIsRefusedAndKept(fault: Fault) throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try AtomicFileStoreTests.open(url))
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var objects = try #require(root["objects"] as? [[String: Any]])
        try fault.apply(to: &objects)
        root["objects"] = objects
        let damaged = try JSONSerialization.data(withJSONObject: root)
        try damaged.write(to: url)
        do {
            _ = try AtomicFileStoreTests.open(url)
            Issue.record("a file with \(fault) opened")
        } catch let error as FileStoreError {
            guard case .damaged(let reason) = error.code else { Issue.record("\(error)"); return }
            #expect(error.path == url.path)
            #expect(error.localizedDescription.hasPrefix(url.path))
            for word in fault.expectedWords { #expect(reason.contains(word), "\(reason) lacks \(word)") }
        }
        #expect(try Data(contentsOf: url) == damaged)
    }

    @Test func aSoundFileStillOpensAndAMissingCounterStartsAfterTheLargestKey() throws {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try AtomicFileStoreTests.open(url))
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        root["nextKeys"] = [String: Int]()
        try JSONSerialization.data(withJSONObject: root).write(to: url)
        let context = try AtomicFileStoreTests.open(url)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit")) == 5)
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(3.0, forKey: "radius")
        try context.save()
        #expect(apple.objectID.referenceObject == .integer(6))
    }

    /// The reason an atomic file store refuses `bytes` written to a fresh file.
    static func refusal(of bytes: Data) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try bytes.write(to: url)
        do {
            _ = try AtomicFileStoreTests.open(url)
            return "opened"
        } catch let error as FileStoreError {
            guard case .damaged(let reason) = error.code else { return "\(error)" }
            #expect(error.path == url.path)
            return reason
        }
    }

    /// Each message says what is wrong with the file (trial13 T13): too deep is not called
    /// truncated; cut short is; an integer beyond 64 bits is not called untagged.
    @Test func messagesSayWhatIsWrongWithTheJSON() throws {
        let deep = try Self.refusal(of: Data(String(repeating: "[", count: 100_000).utf8))
        #expect(deep.contains("nests") && !deep.contains("truncated"), "\(deep)")
        let cut = try Self.refusal(of: Data("{\"format\": \"ObjectGraph.AtomicFileStore\", \"objects\": [1, 2".utf8))
        #expect(cut.contains("ends too early"), "\(cut)")

        let url = try temporaryDirectory().appendingPathComponent("Fruit.store")
        try FruitStandModel.stock(try AtomicFileStoreTests.open(url))
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var objects = try #require(root["objects"] as? [[String: Any]])
        let apple = try #require(objects.firstIndex { $0["entity"] as? String == "Apple" })
        objects[apple]["attributes"] = ["radius": ["integer": 987_654_321]]
        root["objects"] = objects
        let text = try #require(String(data: try JSONSerialization.data(withJSONObject: root), encoding: .utf8))
        let big = try Self.refusal(of: Data(text.replacingOccurrences(of: "987654321", with: "99999999999999999999999").utf8))
        #expect(big.contains("99999999999999999999999") && big.contains("64-bit") && !big.contains("not a tagged"), "\(big)")
    }
}
