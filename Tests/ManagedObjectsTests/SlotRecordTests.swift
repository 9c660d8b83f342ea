import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// A slot record keeps only the recorded values, in slot order, and an object's first change
/// makes one record that its committed and event-start records share. Whatever the layout,
/// each record must answer exactly the values recorded into it, and the two records of an
/// object must stay independent (Core Data: committed values are those of the last save,
/// event values those at the start of the current event).
@Suite struct SlotRecordTests {
    /// The values of a record as text by slot, for comparison.
    static func text(_ record: SlotRecord) -> [Int: String] {
        var result: [Int: String] = [:]
        for (slot, value) in record.entries { result[slot] = value.map { String(describing: $0) } ?? "nil" }
        return result
    }

    @Test func recordsOutOfOrderAnswerBySlot() {
        var record = SlotRecord()
        #expect(record.isEmpty)
        for slot in [5, 1, 70, 3, 65, 0, 63] { record.recordIfAbsent("v\(slot)", at: slot) }
        #expect(record.count == 7)
        #expect(record.slots == [0, 1, 3, 5, 63, 65, 70])
        for slot in [0, 1, 3, 5, 63, 65, 70] {
            #expect(record[slot].flatMap { $0 } as? String == "v\(slot)")
        }
        #expect(record[2] == nil && record[64] == nil && record[71] == nil)
        #expect(Self.text(record) == [0: "v0", 1: "v1", 3: "v3", 5: "v5", 63: "v63", 65: "v65", 70: "v70"])
        var seen: [Int] = []
        let differs = record.containsRecorded { slot, value in
            seen.append(slot)
            return value as? String != "v\(slot)"
        }
        #expect(!differs)
        #expect(seen == [0, 1, 3, 5, 63, 65, 70])
    }

    @Test func recordIfAbsentKeepsTheFirstValueAndRecordReplacesIt() {
        var record = SlotRecord()
        let first = record.recordIfAbsent(Int64(1), at: 4)
        let second = record.recordIfAbsent(Int64(2), at: 4)
        #expect(first && !second, "a second value of a slot is not recorded")
        #expect(record[4].flatMap { $0 } as? Int64 == 1)
        record.record(Int64(3), at: 4)
        record.record("x", at: 2)
        #expect(record[4].flatMap { $0 } as? Int64 == 3 && record[2].flatMap { $0 } as? String == "x")
        #expect(record.count == 2)
    }

    @Test func recordedNilsStayNilWhenValuesFollow() {
        var record = SlotRecord()
        record.recordIfAbsent(nil, at: 6)
        record.recordIfAbsent(nil, at: 2)
        #expect(Self.text(record) == [2: "nil", 6: "nil"])
        #expect(record[6].map { $0 == nil } == true, "a recorded nil is .some(nil)")
        record.recordIfAbsent("four", at: 4)
        record.recordIfAbsent(nil, at: 9)
        record.recordIfAbsent("one", at: 1)
        #expect(Self.text(record) == [1: "one", 2: "nil", 4: "four", 6: "nil", 9: "nil"])
        #expect(SlotRecord(recorded: [3: nil, 8: "eight"]).slots == [3, 8])
    }

    @Test func copiesAreIndependent() {
        let first = SlotRecord.recordingFirst("old", at: 3)
        var committed = first
        var event = first
        committed.recordIfAbsent("c", at: 1)
        event.record("e", at: 3)
        #expect(Self.text(first) == [3: "old"])
        #expect(Self.text(committed) == [1: "c", 3: "old"])
        #expect(Self.text(event) == [3: "e"])
    }

    /// Changes a saved record over two events, checking what each record answers; `watched`
    /// makes every change take the full way (the change seam) instead of the short one.
    static func twoEvents(watched: Bool) throws -> [String] {
        let context = try QuietKeyValueChangeTests.context()
        let record = try context.insertNewObject(forEntityNamed: "Record")
        try record.setValue("alpha", forKey: "name")
        try record.setValue(1.5, forKey: "score")
        try context.save()
        let recorder = ChangeRecorder()
        if watched { try QuietKeyValueChangeTests.watch(record, recorder) }
        var seen: [String] = []
        func note() {
            let snapshot = QuietKeyValueChangeTests.Snapshot(record)
            func text(_ values: [String: String]) -> String {
                values.sorted(by: <).map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
            seen.append("\(text(snapshot.changed)) | \(text(snapshot.changedThisEvent)) | \(text(snapshot.committed))")
        }
        // First change: one record shared by the committed and event-start values.
        try record.setValue("beta", forKey: "name")
        note()
        // The same event, another slot: both records grow.
        try record.setValue(Int64(9), forKey: "count")
        note()
        context.processPendingChanges()
        note()
        // A later event: only the event-start record takes the current value.
        try record.setValue("gamma", forKey: "name")
        try record.setValue(2.5, forKey: "score")
        note()
        context.rollback()
        note()
        seen.append("\(try record.value(forKey: "name") ?? "nil") \(try record.value(forKey: "count") ?? "nil") \(try record.value(forKey: "score") ?? "nil")")
        return seen
    }

    @Test func firstChangeSharesItsRecordUntilTheRecordsDiverge() throws {
        let quiet = try Self.twoEvents(watched: false)
        let full = try Self.twoEvents(watched: true)
        #expect(quiet == full)
        let committed = "count=5,name=alpha,score=1.5"
        #expect(quiet == [
            "name=beta | name=alpha | " + committed,
            "count=9,name=beta | count=5,name=alpha | " + committed,
            "count=9,name=beta |  | " + committed,
            "count=9,name=gamma,score=2.5 | name=beta,score=1.5 | " + committed,
            " |  | " + committed,
            "alpha 5 1.5",
        ])
    }
}
