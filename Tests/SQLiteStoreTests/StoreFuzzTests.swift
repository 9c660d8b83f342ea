import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Mutated copies of an Apple-written store (fixed seed) open or throw; reading what opens
/// returns rows or throws; nothing crashes.
@Suite struct StoreFuzzTests {
    /// SplitMix64: a small deterministic generator, so that a failure can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func mutatedStoresNeverCrash() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Data(contentsOf: try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite"))
        let model = try AppleStoreTests.sampleModel()
        var generator = SeededGenerator(state: 15)
        var opened = 0
        var refused = 0
        for round in 0..<50 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + round % 8) {
                // Keep the 100-byte header in most rounds, so that SQLite gets to the pages.
                let start = round % 5 == 0 ? 0 : 100
                bytes[Int.random(in: start..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let url = directory.file("Fuzz\(round).sqlite")
            try Data(bytes).write(to: url)
            let coordinator = PersistentStoreCoordinator(model: model)
            let store = SQLitePersistentStore(url: url)
            do {
                try coordinator.addStore(store)
                opened += 1
                for entity in ["Car", "SportCar", "ExpensiveSportCar", "Person"] {
                    let rows = try store.fetch(StoreFetchRequest(entityNames: [entity])).rows
                    for row in rows.prefix(5) { _ = try store.row(for: row.objectID) }
                }
            } catch is SQLiteStoreError {
                refused += 1
            } catch {
                Issue.record("round \(round): an error that is not a store error: \(error)")
            }
        }
        #expect(opened + refused >= 50)
        #expect(opened > 0, "some mutations leave a store that opens")
    }
}
