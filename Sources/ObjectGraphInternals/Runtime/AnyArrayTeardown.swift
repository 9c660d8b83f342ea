// Emptying an `Optional<Any>` array that is about to be freed, skipping the values that need no
// destruction: a managed object's value array, freed with the object, would otherwise destroy
// each of its values through the generic witnesses of `Optional` and `Any`.

/// Empties a uniquely held `ContiguousArray<Any?>` before it is freed: values of a type whose
/// destruction does nothing (an integer, a double, a flag, a date: plain data stored inline in
/// the container) and `nil`s are skipped, every other value is destroyed through its type's
/// witnesses as usual, and the storage's count is set to zero so that freeing it destroys
/// nothing more.
///
/// The facts relied on (Swift ABI, checked once per process by ``holds`` on probe arrays; where
/// any fails, ``empty(_:)`` does nothing and the array is freed as usual):
/// - a `ContiguousArray` is one reference to its storage object, whose element count is the
///   word at byte 16 and whose elements start at byte 32;
/// - an `Optional<Any>` container is ``AnyContainerMetadata``'s four words, the stored type's
///   metadata last (0 for `nil`);
/// - the word before a type's metadata is its value witness table, whose flags (a 32-bit
///   word at byte 80) have bit 16 set when the type is not plain data and bit 17 when its
///   values are not stored inline in a container.
///
/// Thread safety: ``empty(_:)`` mutates the caller's array, which only the caller holds.
package enum AnyArrayTeardown {
    /// The flags of a type that is not plain data, or is not stored inline.
    private static let needsDestructionFlags: UInt32 = 0x0001_0000 | 0x0002_0000
    /// Byte offsets in the array storage (its element count, its first element; ManagedObjects
    /// writes a uniquely held value array's slots at these offsets where ``holds``) and the
    /// value witness table.
    package static let countOffset = 16, elementsOffset = 32
    private static let flagsOffset = 80

    /// Whether the facts hold on this runtime (checked once).
    package static let holds: Bool = verify()

    /// Empties `array` as described above when its storage is held by `array` alone;
    /// otherwise leaves it as it is. The array is empty afterwards in the first case only.
    package static func empty(_ array: inout ContiguousArray<Any?>) {
        let count = array.count
        guard count > 0, holds else { return }
        // The storage found from its elements (no copy of the array, no retain).
        let elements = array.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
        let storage = elements - elementsOffset
        guard !StrongReferenceCount.mayHaveOtherOwners(storage) else { return }
        for index in 0..<count {
            let container = elements + index * MemoryLayout<Any?>.stride
            let word = AnyContainerMetadata.word(at: container)
            guard let metadata = UnsafeRawPointer(bitPattern: word) else { continue }
            if flags(ofMetadata: metadata) & needsDestructionFlags == 0 { continue }
            // Not nil: the value is destroyed as an `Any` (one witness call fewer).
            container.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
        }
        storage.storeBytes(of: 0, toByteOffset: countOffset, as: Int.self)
    }

    /// A copy of `array` in storage of its own, made by copying the elements' memory at once
    /// (no value copied through the witnesses of `Optional` and `Any`); `nil` when the facts
    /// do not hold or `array` is empty.
    ///
    /// - Precondition: Every value of `array` is `nil` or plain data stored inline (the
    ///   caller knows it by the values' types): a memory copy of any other value would share
    ///   it without retaining it.
    package static func plainDataCopy(of array: ContiguousArray<Any?>) -> ContiguousArray<Any?>? {
        let count = array.count
        guard count > 0, holds else { return nil }
        var copy = ContiguousArray<Any?>()
        copy.reserveCapacity(count)
        // The new storage's elements are written as memory, then counted. (Timed against
        // `init(unsafeUninitializedCapacity:initializingWith:)`: that one costs 70 % more
        // instructions per copy, looking the storage's class up at run time.)
        let storage = unsafeBitCast(copy, to: UnsafeMutableRawPointer.self)
        array.withUnsafeBytes { source in
            (storage + elementsOffset).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
        storage.storeBytes(of: count, toByteOffset: countOffset, as: Int.self)
        return copy
    }

    /// The value witness flags of the type whose metadata is at `metadata`.
    private static func flags(ofMetadata metadata: UnsafeRawPointer) -> UInt32 {
        let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        return witnesses.load(fromByteOffset: flagsOffset, as: UInt32.self)
    }

    private static func flags(of type: any Any.Type) -> UInt32 {
        flags(ofMetadata: UnsafeRawPointer(bitPattern: AnyContainerMetadata.word(of: type))!)
    }

    /// A value stored out of line in a container (more than three words).
    private struct Wide { var a = 0, b = 0, c = 0, d = 0 }
    /// A class, for the flags of a reference.
    private final class Probe {}

    /// Checks the facts on probe arrays and types.
    private static func verify() -> Bool {
        guard AnyContainerMetadata.isReadable, StrongReferenceCount.inlineReadsHold,
              MemoryLayout<ContiguousArray<Any?>>.size == MemoryLayout<UInt>.size,
              MemoryLayout<Any?>.stride == 4 * MemoryLayout<UInt>.size else { return false }
        // Plain inline types: neither flag; a string, a reference: not plain data; a wide
        // value: not inline.
        for type in [Int.self, Int64.self, Int32.self, Double.self, Bool.self] as [any Any.Type]
            where flags(of: type) & needsDestructionFlags != 0 { return false }
        guard flags(of: String.self) & 0x0001_0000 != 0, flags(of: Probe.self) & 0x0001_0000 != 0,
              flags(of: Wide.self) & 0x0002_0000 != 0 else { return false }
        // The storage's count word and the elements' place.
        var probe = ContiguousArray<Any?>()
        probe.reserveCapacity(4)
        probe.append(1)
        probe.append(nil)
        probe.append("probe")
        let storage = unsafeBitCast(probe, to: UnsafeRawPointer.self)
        let base = probe.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
        guard base == storage + elementsOffset, storage.load(fromByteOffset: countOffset, as: Int.self) == 3,
              AnyContainerMetadata.word(at: base) == AnyContainerMetadata.word(of: Int.self),
              AnyContainerMetadata.word(at: base + MemoryLayout<Any?>.stride) == 0 else { return false }
        // Held once, the storage (a native object: StrongReferenceCount's reads hold for it)
        // reads as unique. (A second owner made here for the check would be optimised away.)
        let unique = !StrongReferenceCount.mayHaveOtherOwners(storage)
        withExtendedLifetime(probe) {}
        return unique
    }
}
