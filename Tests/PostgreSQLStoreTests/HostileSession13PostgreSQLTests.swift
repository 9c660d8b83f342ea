import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
@testable import PostgreSQLStore

/// Trial 13 T2/T3 on PostgreSQL: negative offsets and limits are 0 (PostgreSQL itself refuses
/// a negative `OFFSET`), a batch size past the results is one batch; every result type gives
/// the in-memory store's answer.
@Suite struct HostileSession13PostgreSQLTests {
    @Test func extremeOffsetsLimitsAndBatchSizesAnswerAsInMemory() throws {
        try TestDatabase.run { database in
            let (memory, postgres, _) = try PostgreSQLParityTableTests.contexts(database, ascii: true)
            for (offset, limit) in [(Int.min, 0), (-5, 0), (-5, -5), (0, Int.min), (Int.max, 0), (10, Int.max), (55, 10)] {
                var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
                request.fetchOffset = offset
                request.fetchLimit = limit
                request.fetchBatchSize = Int.max
                let expected = try memory.count(for: request)
                #expect(expected == (offset == Int.max ? 0 : offset == 55 ? 5 : offset == 10 ? 50 : 60), "\(offset) \(limit)")
                #expect(try postgres.count(for: request) == expected, "\(offset) \(limit)")
                #expect(try postgres.fetch(request).count == expected, "\(offset) \(limit)")
                #expect(try postgres.fetchObjectIDs(request).count == expected, "\(offset) \(limit)")
                let batched = try postgres.fetchBatched(request)
                #expect(batched.count == expected, "\(offset) \(limit)")
                #expect(batched.map { ($0.stored("serial") as? Int64) ?? -1 } == PostgreSQLParityTableTests.serials(memory, request),
                        "\(offset) \(limit)")
            }
        }
    }
}
