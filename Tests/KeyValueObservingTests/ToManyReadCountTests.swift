import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

/// A model whose to-many keys are computed properties that count how often they are read.
final class CountingShelf: KeyValueObservable {
    var storedItems: [Int] = [10, 20, 30, 40, 50]
    var storedTags: Set<String> = ["a", "b", "c"]
    private(set) var itemReads = 0
    private(set) var tagReads = 0

    var items: [Int] {
        get {
            itemReads += 1
            return storedItems
        }
        set { storedItems = newValue }
    }

    var tags: Set<String> {
        get {
            tagReads += 1
            return storedTags
        }
        set { storedTags = newValue }
    }

    class var computedKeys: [String: AnyKeyPath] {
        ["items": \CountingShelf.items, "tags": \CountingShelf.tags]
    }
}

private func integers(_ value: Any?) -> [Int]? {
    (value as? [Any])?.compactMap { $0 as? Int }
}

private func strings(_ value: Any?) -> Set<String>? {
    (value as? Set<AnyHashable>).map { Set($0.compactMap { $0 as? String }) }
}

/// One to-many edit through a key-value coding proxy, applied to a ``CountingShelf``.
enum ToManyEdit: CaseIterable, Sendable {
    case insertion, removal, replacement

    func apply(to shelf: CountingShelf) throws {
        let proxy = try shelf.mutableArrayValue(forKey: "items")
        switch self {
        case .insertion: try proxy.insert([1, 2], at: IndexSet([1, 3]))
        case .removal: try proxy.remove(at: IndexSet([0, 2]))
        case .replacement: try proxy.replace(at: IndexSet([1, 4]), with: [7, 8])
        }
    }
}

@Suite("To-many changes read the property once, and only when asked")
struct ToManyReadCountTests {
    /// The getter reads of one `edit` on a new shelf observed by `observers` registrations with
    /// `options`, with the records they received.
    private func reads(of edit: ToManyEdit, observers: Int, options: KeyValueObservingOptions)
        throws -> (reads: Int, records: [[KeyValueChange]]) {
        let shelf = CountingShelf()
        let recorders = (0..<observers).map { _ in Recorder() }
        let tokens = try recorders.map { recorder in
            try shelf.observe("items", options: options) { _, change in recorder.record(change) }
        }
        let before = shelf.itemReads
        try edit.apply(to: shelf)
        let count = shelf.itemReads - before
        tokens.forEach { $0.invalidate() }
        return (count, recorders.map(\.all))
    }

    @Test(arguments: ToManyEdit.allCases)
    func getterReadsDoNotGrowWithTheObserverCount(edit: ToManyEdit) throws {
        let options: KeyValueObservingOptions = [.old, .new, .prior]
        let one = try reads(of: edit, observers: 1, options: options)
        let three = try reads(of: edit, observers: 3, options: options)
        let unobserved = try reads(of: edit, observers: 0, options: options)
        #expect(three.reads == one.reads)
        // At most one read before the change (old elements) and one after (new elements).
        #expect(three.reads <= unobserved.reads + 2)
        // Every observer still gets the prior and the after notification, with the same values.
        for records in three.records {
            #expect(records.count == 2)
            #expect(records.map(\.isPrior) == [true, false])
            let after = try #require(records.last)
            switch edit {
            case .insertion:
                #expect(integers(after.newValue) == [1, 2])
                #expect(after.oldValue == nil)
            case .removal:
                #expect(integers(after.oldValue) == [10, 30])
                #expect(integers(records.first?.oldValue) == [10, 30])
                #expect(after.newValue == nil)
            case .replacement:
                #expect(integers(after.oldValue) == [20, 50])
                #expect(integers(after.newValue) == [7, 8])
            }
        }
    }

    @Test(arguments: ToManyEdit.allCases)
    func noValuesAreReadWhenNoObserverAsksForThem(edit: ToManyEdit) throws {
        let unobserved = try reads(of: edit, observers: 0, options: [])
        let observed = try reads(of: edit, observers: 3, options: [])
        let prior = try reads(of: edit, observers: 3, options: [.prior])
        #expect(observed.reads == unobserved.reads)
        #expect(prior.reads == unobserved.reads)
        for records in observed.records {
            let change = try #require(records.first)
            #expect(records.count == 1)
            #expect(change.oldValue == nil && change.newValue == nil)
            #expect(change.indexes != nil)
        }
    }

    @Test
    func onlyOldValuesAreReadBeforeTheChangeAndOnlyNewAfter() throws {
        let unobserved = try reads(of: .removal, observers: 0, options: [])
        // A removal has no new elements: observers asking only for new values read nothing.
        let newOnly = try reads(of: .removal, observers: 3, options: [.new])
        #expect(newOnly.reads == unobserved.reads)
        // An insertion has no old elements: observers asking only for old values read nothing.
        let baseInsert = try reads(of: .insertion, observers: 0, options: [])
        let oldOnly = try reads(of: .insertion, observers: 3, options: [.old])
        #expect(oldOnly.reads == baseInsert.reads)
    }

    @Test
    func setMutationsReadTheSetOnceAndOnlyWhenAsked() throws {
        func tagReads(observers: Int, options: KeyValueObservingOptions) throws -> (Int, [[KeyValueChange]]) {
            let shelf = CountingShelf()
            let recorders = (0..<observers).map { _ in Recorder() }
            let tokens = try recorders.map { recorder in
                try shelf.observe("tags", options: options) { _, change in recorder.record(change) }
            }
            let before = shelf.tagReads
            try shelf.mutableSetValue(forKey: "tags").subtract(["a", "z"])
            let count = shelf.tagReads - before
            tokens.forEach { $0.invalidate() }
            return (count, recorders.map(\.all))
        }
        let (unobserved, _) = try tagReads(observers: 0, options: [])
        let (silent, _) = try tagReads(observers: 3, options: [])
        let (one, _) = try tagReads(observers: 1, options: [.old, .new, .prior])
        let (three, records) = try tagReads(observers: 3, options: [.old, .new, .prior])
        #expect(silent == unobserved)
        #expect(three == one)
        #expect(three <= unobserved + 2)
        for observer in records {
            #expect(observer.count == 2)
            #expect(strings(observer.first?.oldValue) == ["a"])
            #expect(observer.last?.kind == .removal)
            #expect(strings(observer.last?.oldValue) == ["a"])
        }
    }

    @Test
    func elementsAtIndexesReportNilAsNullAndSkipMissingOnes() {
        // Apple's change records are NSArrays, which hold NSNull where a Swift array holds nil.
        let values: [Int?] = [1, nil, 3]
        let picked = elements(of: values, at: IndexSet([1, 2, 5]))
        #expect(picked.count == 2)
        #expect(picked.first is NSNull)
        #expect(picked.last as? Int == 3)
        #expect(elements(of: "not an array", at: IndexSet([0])).isEmpty)
        #expect(elements(of: nil, at: IndexSet([0])).isEmpty)
    }
}
