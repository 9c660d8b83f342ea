import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Trial 13: batch sizes, offsets and limits at the ends of `Int` on the SQLite store (T2, T3).
/// A negative offset or limit is 0, as on the in-memory store; a batch size larger than the
/// results is one batch. Before: `count(for:)` trapped on `Int.min` and counted 35 of 30 rows
/// for an offset of -5; `fetchBatched` trapped on a batch size of `Int.max`.
@Suite struct HostileSession13LimitTests {
    static func request(offset: Int = 0, limit: Int = 0, batchSize: Int = 0) -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
        request.fetchOffset = offset
        request.fetchLimit = limit
        request.fetchBatchSize = batchSize
        return request
    }

    @Test(arguments: [(Int.min, 0), (-5, 0), (-5, -5), (0, Int.min), (Int.max, 0), (10, Int.max), (55, 10)])
    func everyResultTypeAgreesOnExtremeOffsetsAndLimits(offset: Int, limit: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _) = try FaultingTests.stack(directory)
        let request = Self.request(offset: offset, limit: limit)
        let start = min(60, max(0, offset))
        let expected = limit > 0 ? min(60 - start, limit) : 60 - start
        #expect(try context.count(for: request) == expected)
        #expect(try context.fetch(request).count == expected)
        #expect(try context.fetchObjectIDs(request).count == expected)
        #expect(try context.fetchBatched(request).count == expected)
        var dictionaries = request
        dictionaries.resultType = .dictionaries
        dictionaries.propertiesToFetch = ["serial"]
        #expect(try context.fetchDictionaries(dictionaries).count == expected)
        // With an unsaved change the context applies them itself: the same numbers.
        let first = try #require(try context.fetch(Self.request()).first)
        try first.setValue("changed", forKey: "name")
        #expect(try context.count(for: request) == expected)
        #expect(try context.fetch(request).count == expected)
    }

    @Test(arguments: [Int.max, Int.max - 1, 61, 60])
    func aBatchSizeLargerThanTheResultsIsOneBatch(size: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try FaultingTests.stack(directory)
        let batched = try context.fetchBatched(Self.request(batchSize: size))
        #expect(batched.count == 60 && batched.batchSize == 60)
        #expect(batched[59].stored("serial") as? Int64 == 59)
        #expect(store.counts.withLock { $0.rowBatches } == 1)
        let objects = try context.fetch(Self.request(batchSize: size))
        #expect(objects.count == 60)
        #expect(objects.map { $0.stored("serial") as? Int64 } == (0..<60).map { Int64($0) })
    }
}
