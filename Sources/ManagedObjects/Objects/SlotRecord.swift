// Values of some slots of one object, recorded once each: the committed values of the slots
// changed since the last save, or the values at the start of the current user event.

/// Recorded values of an object's slots, kept on the object itself
/// (``ManagedObject/committedRecord``, ``ManagedObject/eventRecord``): a bit per recorded slot
/// and the recorded values alone, in ascending slot order, so recording and looking up a slot
/// is a bit test and a population count, not a hash.
///
/// Sparse: the first change of an object records one value, not one per slot (a record of one
/// value is one small array; the committed and the event-start record of a first change share
/// it until one of them changes, see ``recordingFirst(_:at:)``).
///
/// - Important: Thread safety: as the object (confined to its context's thread).
package struct SlotRecord {
    /// The recorded values, in ascending slot order (meaningful for the recorded slots only);
    /// empty while every recorded value is `nil` (a new object's first changes record nothing
    /// but `nil`: no array is made for them).
    private var values: ContiguousArray<Any?> = []
    /// The recorded slots below 64, one bit each.
    private var low: UInt64 = 0
    /// The recorded slots from 64 on (entities with more than 64 properties).
    private var high: Set<Int> = []
    /// How many slots have a recorded value.
    package private(set) var count = 0

    /// An empty record.
    package init() {}

    /// A record holding `recorded` (values by slot).
    package init(recorded: [Int: Any?]) {
        for (slot, value) in recorded { record(value, at: slot) }
    }

    /// A record of every slot's value (`values`, one per slot from 0, at most 64): an object's
    /// values when it is inserted, shared with the object (copy on write), not copied.
    package init(allSlots values: ContiguousArray<Any?>) {
        precondition(values.count <= 64, "a record of every slot holds at most 64 slots")
        self.values = values
        low = values.count == 64 ? .max : (1 << UInt64(values.count)) &- 1
        count = values.count
    }

    /// A record of `value` for `slot` alone (an object's first change).
    @inline(__always)
    package static func recordingFirst(_ value: Any?, at slot: Int) -> SlotRecord {
        var record = SlotRecord()
        record.recordIfAbsent(value, at: slot)
        return record
    }

    /// Whether no slot has a recorded value.
    package var isEmpty: Bool { count == 0 }

    /// Whether `slot` has a recorded value.
    @inline(__always)
    package func contains(_ slot: Int) -> Bool {
        slot < 64 ? low & (1 << UInt64(slot)) != 0 : high.contains(slot)
    }

    /// The recorded value of `slot`: `nil` when none is recorded, `.some(nil)` for a recorded
    /// `nil`.
    package subscript(slot: Int) -> Any?? { contains(slot) ? .some(value(at: slot)) : nil }

    /// The position of `slot`'s value among the recorded values: how many recorded slots are
    /// below it.
    @inline(__always)
    private func position(of slot: Int) -> Int {
        if slot < 64 { return (low & ((1 << UInt64(slot)) &- 1)).nonzeroBitCount }
        return low.nonzeroBitCount + high.reduce(0) { $0 + ($1 < slot ? 1 : 0) }
    }

    /// The value kept for the recorded `slot` (`nil` while no value but `nil` is recorded).
    @inline(__always)
    private func value(at slot: Int) -> Any? { values.isEmpty ? nil : values[position(of: slot)] }

    /// Keeps `value` for `slot`, just marked as recorded (`isNew`) or recorded before, making
    /// the array of values for the first value that is not `nil`.
    @inline(__always)
    private mutating func keep(_ value: Any?, at slot: Int, isNew: Bool) {
        if values.isEmpty {
            guard case .some = value else { return }
            // Until now every recorded value was nil: they are written out now.
            values = ContiguousArray(repeating: nil, count: count)
            values[position(of: slot)] = value
            return
        }
        if isNew {
            values.insert(value, at: position(of: slot))
        } else {
            values[position(of: slot)] = value
        }
    }

    /// Records `value` for `slot` unless a value is recorded already; returns whether it was
    /// recorded now.
    @discardableResult @inline(__always)
    package mutating func recordIfAbsent(_ value: Any?, at slot: Int) -> Bool {
        guard !contains(slot) else { return false }
        mark(slot)
        keep(value, at: slot, isNew: true)
        return true
    }

    /// Records `value` for `slot`, replacing a recorded one.
    package mutating func record(_ value: Any?, at slot: Int) {
        let isNew = !contains(slot)
        if isNew { mark(slot) }
        keep(value, at: slot, isNew: isNew)
    }

    @inline(__always)
    private mutating func mark(_ slot: Int) {
        if slot < 64 { low |= 1 << UInt64(slot) } else { high.insert(slot) }
        count += 1
    }

    /// The slots with a recorded value, ascending.
    package var slots: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        var bits = low
        while bits != 0 {
            result.append(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        if !high.isEmpty { result.append(contentsOf: high.sorted()) }
        return result
    }

    /// Whether `predicate` holds for a recorded slot and its value; the slots are tried in
    /// ascending order, up to the first that answers `true` (no array of slots is made for
    /// objects of fewer than 64 slots).
    package func containsRecorded(where predicate: (_ slot: Int, _ value: Any?) -> Bool) -> Bool {
        guard high.isEmpty else { return entries.contains { predicate($0.slot, $0.value) } }
        var bits = low
        var position = 0
        while bits != 0 {
            let slot = bits.trailingZeroBitCount
            bits &= bits &- 1
            if predicate(slot, values.isEmpty ? nil : values[position]) { return true }
            position += 1
        }
        return false
    }

    /// The slots with a recorded value, as a set.
    package var slotSet: Set<Int> { Set(slots) }

    /// The recorded slots below 64, one bit each (bit *n* for slot *n*).
    package var lowSlotBits: UInt64 { low }

    /// Whether a slot from 64 on has a recorded value.
    package var hasHighSlots: Bool { !high.isEmpty }

    /// The recorded values by slot, ascending by slot.
    package var entries: [(slot: Int, value: Any?)] {
        slots.enumerated().map { ($0.element, values.isEmpty ? nil : values[$0.offset]) }
    }
}
