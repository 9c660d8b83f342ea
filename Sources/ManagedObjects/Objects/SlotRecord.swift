// Values of some slots of one object, recorded once each: the committed values of the slots
// changed since the last save, or the values at the start of the current user event.

/// Recorded values of an object's slots, kept on the object itself
/// (``ManagedObject/committedRecord``, ``ManagedObject/eventRecord``): an array with one
/// entry per slot and a bit per recorded slot, so recording and looking up a slot is an index
/// and a bit test, not a hash.
///
/// - Important: Thread safety: as the object (confined to its context's thread).
package struct SlotRecord {
    /// Per slot: the recorded value (meaningful where the slot is recorded); empty while every
    /// recorded value is `nil` (a new object's first changes record nothing but `nil`: no
    /// array is made for them).
    private var values: ContiguousArray<Any?> = []
    /// How many slots the object has.
    private let slotCount: Int
    /// The recorded slots below 64, one bit each.
    private var low: UInt64 = 0
    /// The recorded slots from 64 on (entities with more than 64 properties).
    private var high: Set<Int> = []
    /// How many slots have a recorded value.
    package private(set) var count = 0

    /// An empty record for an object of `slotCount` slots.
    package init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// A record holding `recorded` (slots of an object of `slotCount` slots).
    package init(slotCount: Int, recorded: [Int: Any?]) {
        self.init(slotCount: slotCount)
        for (slot, value) in recorded { record(value, at: slot) }
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

    /// The value kept for `slot` (`nil` while no value but `nil` is recorded).
    @inline(__always)
    private func value(at slot: Int) -> Any? { values.isEmpty ? nil : values[slot] }

    /// Keeps `value` for `slot`, making the array of values for the first value that is not
    /// `nil`.
    @inline(__always)
    private mutating func keep(_ value: Any?, at slot: Int) {
        if values.isEmpty {
            guard case .some = value else { return }
            values = ContiguousArray(repeating: nil, count: slotCount)
        }
        values[slot] = value
    }

    /// Records `value` for `slot` unless a value is recorded already; returns whether it was
    /// recorded now.
    @discardableResult @inline(__always)
    package mutating func recordIfAbsent(_ value: Any?, at slot: Int) -> Bool {
        guard !contains(slot) else { return false }
        mark(slot)
        keep(value, at: slot)
        return true
    }

    /// Records `value` for `slot`, replacing a recorded one.
    package mutating func record(_ value: Any?, at slot: Int) {
        if !contains(slot) { mark(slot) }
        keep(value, at: slot)
    }

    @inline(__always)
    private mutating func mark(_ slot: Int) {
        if slot < 64 { low |= 1 << UInt64(slot) } else { high.insert(slot) }
        count += 1
    }

    /// The slots with a recorded value, ascending.
    package var slots: [Int] { (0..<slotCount).filter(contains) }

    /// Whether `predicate` holds for a recorded slot and its value; the slots are tried in
    /// ascending order, up to the first that answers `true` (no array of slots is made for
    /// objects of fewer than 64 slots).
    package func containsRecorded(where predicate: (_ slot: Int, _ value: Any?) -> Bool) -> Bool {
        guard high.isEmpty else { return slots.contains { predicate($0, value(at: $0)) } }
        var bits = low
        while bits != 0 {
            let slot = bits.trailingZeroBitCount
            bits &= bits - 1
            if predicate(slot, value(at: slot)) { return true }
        }
        return false
    }

    /// The slots with a recorded value, as a set.
    package var slotSet: Set<Int> { Set(slots) }

    /// The recorded values by slot, ascending by slot.
    package var entries: [(slot: Int, value: Any?)] {
        slots.map { ($0, value(at: $0)) }
    }
}
