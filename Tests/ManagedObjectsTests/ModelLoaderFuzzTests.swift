// The loader on 100,000 mutated copies of the real model files: errors, never a crash or a hang.
import Foundation
import Testing
@testable import ManagedObjects

/// A small, fast, seedable generator (SplitMix64), so that every run mutates the same way.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutations of model XML: byte flips, deletions, duplicated slices, truncation, swapped tag
/// names and swapped attribute values.
struct ModelMutator {
    static let tagNames = ["model", "entity", "attribute", "relationship", "fetchedProperty", "fetchRequest",
                           "userInfo", "entry", "uniquenessConstraints", "uniquenessConstraint", "constraint",
                           "fetchIndex", "fetchIndexElement", "configuration", "memberEntity", "elements",
                           "element", "composite", "plist"].map { Array($0.utf8) }
    static let values = ["", "-1", "YES", "NO", "maybe", "Integer 16", "Composite", "Undefined", "String",
                         "99999999999999999999", "1e400", "nan", "Cascade", "$x ==", "name == $v", "Car",
                         "Person", "&amp;", "\u{0}", "é", "0x10", "SUBQUERY(", "2"].map { Array($0.utf8) }
    static let interestingBytes: [UInt8] = Array("<>/=\"'&;! ?-\n".utf8) + [0, 0xFF, 0xC3]

    var random: SplitMix64

    mutating func int(_ upper: Int) -> Int { upper <= 0 ? 0 : Int(random.next() % UInt64(upper)) }

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + int(3)) {
            guard !bytes.isEmpty else { break }
            switch int(7) {
            case 0:  // flip a byte
                let i = int(bytes.count)
                bytes[i] = int(2) == 0 ? bytes[i] ^ UInt8(1 << int(8)) : Self.interestingBytes[int(Self.interestingBytes.count)]
            case 1:  // delete a slice
                let start = int(bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + int(40)))
            case 2:  // duplicate a slice somewhere else
                let start = int(bytes.count)
                let slice = bytes[start..<min(bytes.count, start + 1 + int(80))]
                bytes.insert(contentsOf: slice, at: int(bytes.count + 1))
            case 3:  // truncate
                bytes.removeSubrange(int(bytes.count)...)
            case 4:  // swap a tag name
                swapOccurrence(in: &bytes, of: Self.tagNames)
            default:  // replace an attribute value
                replaceValue(in: &bytes)
            }
        }
        return bytes
    }

    /// Replaces the name of the first tag at or after a random place with one of `words`.
    private mutating func swapOccurrence(in bytes: inout [UInt8], of words: [[UInt8]]) {
        var start = int(bytes.count)
        while start < bytes.count, bytes[start] != UInt8(ascii: "<") { start += 1 }
        start += 1
        if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
        var end = start
        while end < bytes.count, bytes[end] >= UInt8(ascii: "A") { end += 1 }
        guard end > start else { return }
        bytes.replaceSubrange(start..<end, with: words[int(words.count)])
    }

    /// Replaces the text of one quoted attribute value.
    private mutating func replaceValue(in bytes: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        var i = int(bytes.count)
        while i < bytes.count, bytes[i] != quote { i += 1 }
        var j = i + 1
        while j < bytes.count, bytes[j] != quote { j += 1 }
        guard j < bytes.count else { return }
        bytes.replaceSubrange((i + 1)..<j, with: Self.values[int(Self.values.count)])
    }
}

@Suite struct ModelLoaderFuzzTests {
    /// The real files, and their top-level blocks (entities, templates, configurations), from
    /// which small documents are put together: most mutations hit small documents (fast),
    /// some hit whole files.
    static let files: [[UInt8]] = ModelFixtures.allContentsFiles().compactMap { try? Array(Data(contentsOf: $0)) }
    static let blocks: [[[UInt8]]] = files.map { blocks(of: String(decoding: $0, as: UTF8.self)) }
    static let header = Array(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\#n<model userDefinedModelVersionIdentifier="">\#n"#.utf8)
    static let footer = Array("</model>\n".utf8)

    /// The top-level elements of a model document, as text.
    static func blocks(of text: String) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if indent == 4, trimmed.hasPrefix("<") && !trimmed.hasPrefix("</") {
                if !current.isEmpty { result.append(Array(current.joined(separator: "\n").utf8)) }
                current = [line]
            } else if indent >= 4 {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append(Array(current.joined(separator: "\n").utf8)) }
        return result
    }

    static let iterations = 100_000
    static let shards = 4

    @Test(.timeLimit(.minutes(3)), arguments: 0..<shards)
    func mutatedModelsThrowOrLoadButNeverCrash(shard: Int) throws {
        #expect(Self.files.count >= 16 && Self.blocks.joined().count > 60)
        var mutator = ModelMutator(random: SplitMix64(seed: 0x0B1E_C7_6A_A9 &+ UInt64(shard)))
        var loaded = 0
        var failed = 0
        for iteration in 0..<(Self.iterations / Self.shards) {
            var input: [UInt8]
            if iteration % 50 == 0 {
                input = Self.files[mutator.int(Self.files.count)]
            } else {
                // One to three blocks of one file, so that most references still resolve.
                let blocks = Self.blocks[mutator.int(Self.blocks.count)]
                input = Self.header
                for _ in 0..<(1 + mutator.int(3)) where !blocks.isEmpty {
                    input += blocks[mutator.int(blocks.count)] + [10]
                }
                input += Self.footer
            }
            let mutated = mutator.mutate(input)
            do {
                let model = try ManagedObjectModel(xmlData: Data(mutated), fileName: "fuzz")
                loaded += 1
                _ = model.entities.count
            } catch {
                failed += 1
                // Every error names the file and a line.
                if error.file != "fuzz" || error.line == nil {
                    Issue.record("iteration \(iteration): \(error) for \(String(decoding: mutated, as: UTF8.self))")
                    return
                }
            }
        }
        // The mutations leave some documents loadable and break others.
        #expect(loaded > 500 && failed > 10_000, "loaded \(loaded), failed \(failed)")
    }
}
