// The metadata words validation compares a layout's slots with: which values are valid by
// their type alone, found with one comparison per slot.
import Foundation
import ObjectGraphInternals

/// For each slot of a layout (the first 64), the metadata word a value has when its type alone
/// makes it valid (``SlotTraits/isTriviallyValid(containerAt:)``), laid out for a tight loop:
/// validation compares each container's word with one word of a contiguous buffer instead of
/// reading the slot's traits.
///
/// ``validSlots(valuesAt:traits:)`` gives exactly the bits ``SlotTraits/isTriviallyValid(containerAt:)``
/// gives slot by slot: a slot whose word matches is valid (for a date attribute, once its
/// seconds are found finite), and every other slot (`nil`, another type, a relationship) is
/// asked to its traits.
package struct TrivialSlotWords: Sendable {
    /// Per slot below 64: the value type's metadata word of an attribute that accepts any value
    /// of its type (or any finite date), else `UInt.max` (the address of no metadata).
    private let words: ContiguousArray<UInt>
    /// The date slots among them: a matching value must still be finite.
    private let finiteDateSlots: UInt64
    /// One bit per slot of `words`.
    private let allSlots: UInt64

    init(_ traits: [SlotTraits]) {
        let count = Swift.min(traits.count, 64)
        var words = ContiguousArray<UInt>(repeating: .max, count: count)
        var dates: UInt64 = 0
        for slot in 0..<count where traits[slot].valueTypeMetadata != 0 {
            if traits[slot].acceptsAnyValueOfItsType { words[slot] = traits[slot].valueTypeMetadata }
            if traits[slot].acceptsAnyFiniteDate {
                words[slot] = traits[slot].valueTypeMetadata
                dates |= 1 << UInt64(slot)
            }
        }
        self.words = words
        finiteDateSlots = dates
        allSlots = count == 64 ? .max : (1 << UInt64(count)) - 1
    }

    /// The slots below 64 whose values are trivially valid, read in place from `base`, the
    /// start of an object's value array of `traits.count` `Optional<Any>` containers (only when
    /// ``AnyContainerMetadata/isReadable``).
    @inline(__always)
    package func validSlots(valuesAt base: UnsafeRawPointer, traits: [SlotTraits]) -> UInt64 {
        var bits: UInt64 = 0
        words.withUnsafeBufferPointer { words in
            // A running bit and container address: a load, a comparison and an `or` per slot.
            var bit: UInt64 = 1
            var container = base
            for word in words {
                if AnyContainerMetadata.word(at: container) == word { bits |= bit }
                bit &<<= 1
                container += MemoryLayout<Any?>.stride
            }
        }
        // A date of the attribute's type is valid when finite.
        var dates = bits & finiteDateSlots
        while dates != 0 {
            let slot = dates.trailingZeroBitCount
            dates &= dates &- 1
            let date = (base + slot * MemoryLayout<Any?>.stride).load(as: Date.self)
            if !date.timeIntervalSinceReferenceDate.isFinite { bits &= ~(1 &<< UInt64(slot)) }
        }
        // Every other slot (`nil`, another type, no rule-free attribute): its traits decide.
        var rest = allSlots & ~bits
        while rest != 0 {
            let slot = rest.trailingZeroBitCount
            rest &= rest &- 1
            if traits[slot].isTriviallyValid(containerAt: base + slot * MemoryLayout<Any?>.stride) { bits |= 1 &<< UInt64(slot) }
        }
        return bits
    }
}
