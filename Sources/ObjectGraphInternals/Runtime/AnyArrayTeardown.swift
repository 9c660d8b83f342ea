// Emptying an `Optional<Any>` array that is about to be freed, skipping the values that need no
// destruction: a managed object's value array, freed with the object, would otherwise destroy
// each of its values through the generic witnesses of `Optional` and `Any`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Empties a uniquely held `ContiguousArray<Any?>` before it is freed: values of a type whose
/// destruction does nothing (an integer, a double, a flag, a date: plain data stored inline in
/// the container), immortal strings and `nil`s are skipped, every other value is destroyed
/// through its type's witnesses as usual, and the storage's count is set to zero so that
/// freeing it destroys nothing more. Also copies arrays of plain values into storage of their
/// own (``plainDataCopy(of:)``).
///
/// The facts relied on (Swift ABI, checked once per process by ``holds`` on probe arrays; where
/// any fails, ``empty(_:)`` does nothing and the array is freed as usual):
/// - a `ContiguousArray` is one reference to its storage object, whose element count is the
///   word at byte 16 and whose elements start at byte 32;
/// - an `Optional<Any>` container is ``AnyContainerMetadata``'s four words, the stored type's
///   metadata last (0 for `nil`);
/// - the word before a type's metadata is its value witness table, whose flags (a 32-bit
///   word at byte 80) have bit 16 set when the type is not plain data and bit 17 when its
///   values are not stored inline in a container;
/// - a `String` is two words stored inline in a container, the second with its top bit set
///   when the string is immortal (small, or a literal): it holds no reference, and its
///   destruction does nothing (``isImmortalString(_:)``);
/// - an array's storage object keeps its capacity (shifted left by one, over a flag bit) in the
///   word at byte 24, and a storage made by the runtime's `swift_allocObject` (found by name)
///   with the class of another one, its count and capacity written, is an array
///   (``plainDataCopy(of:)``; checked only where the function is found).
///
/// Thread safety: ``empty(_:)`` mutates the caller's array, which only the caller holds.
package enum AnyArrayTeardown {
    /// The flags of a type that is not plain data, or is not stored inline.
    private static let needsDestructionFlags: UInt32 = 0x0001_0000 | 0x0002_0000
    /// Byte offsets in the array storage (its element count, its first element; ManagedObjects
    /// writes a uniquely held value array's slots at these offsets where ``holds``) and the
    /// value witness table.
    package static let countOffset = 16, elementsOffset = 32
    private static let capacityOffset = 24, flagsOffset = 80
    /// The bit of a string's second word that marks it immortal.
    private static let immortalStringBit: UInt = 1 << 63

    /// Whether the facts hold on this runtime (checked once).
    package static let holds: Bool = verify()

    /// The runtime's `swift_allocObject` (a C function: a class's metadata, a size and an
    /// alignment mask; a new object with one strong reference), found once by name; 0 where the
    /// facts do not hold, it is not found, or a storage it makes does not read as an array
    /// (then ``plainDataCopy(of:)`` reserves its storage as any array does).
    private static let checkedAllocObject: UInt = {
        guard holds, let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "swift_allocObject") else { return 0 }
        let address = UInt(bitPattern: symbol)
        return madeStorageHolds(allocate: address) ? address : 0
    }()
    /// Whether ``plainDataCopy(of:)`` allocates through the runtime's function directly.
    package static var copiesWithRuntimeAllocation: Bool { checkedAllocObject != 0 }
    private typealias AllocObject = @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer

    /// Empties `array` as described above when its storage is held by `array` alone;
    /// otherwise leaves it as it is. The array is empty afterwards in the first case only.
    package static func empty(_ array: inout ContiguousArray<Any?>) {
        let count = array.count
        guard count > 0, holds else { return }
        // The storage found from its elements (no copy of the array, no retain).
        let elements = array.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
        let storage = elements - elementsOffset
        guard !StrongReferenceCount.mayHaveOtherOwners(storage) else { return }
        let stringWord = AnyContainerMetadata.word(of: String.self)
        // Container by container to the end (no index to multiply and check for overflow).
        let end = elements + count &* MemoryLayout<Any?>.stride
        var container = elements
        repeat {
            let word = AnyContainerMetadata.word(at: container)
            if let metadata = UnsafeRawPointer(bitPattern: word), flags(ofMetadata: metadata) & needsDestructionFlags != 0,
               // A small or literal string (most short values) holds no reference either.
               word != stringWord || container.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) & immortalStringBit == 0 {
                // Not nil: the value is destroyed as an `Any` (one witness call fewer).
                container.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
            }
            container += MemoryLayout<Any?>.stride
        } while container != end
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
        guard count > 0 else { return nil }
        // Nonzero only where the facts hold.
        let allocate = checkedAllocObject
        guard allocate != 0 else { return holds ? reservedCopy(of: array) : nil }
        return array.withUnsafeBytes { source in
            // The source's storage object: its class (the word at its start) is the class of
            // every `ContiguousArray<Any?>` storage, its flag bit the one a new storage takes.
            let sourceStorage = UnsafeRawPointer(source.baseAddress!) - elementsOffset
            let storage = allocateStorage(like: sourceStorage, count: count, allocate)
            // The elements written as memory (the precondition: no value to retain).
            (storage + elementsOffset).copyMemory(from: source.baseAddress!, byteCount: source.count)
            return adopt(storage)
        }
    }

    /// ``plainDataCopy(of:)`` in storage reserved as any array reserves it (where the runtime's
    /// allocation is not found).
    private static func reservedCopy(of array: ContiguousArray<Any?>) -> ContiguousArray<Any?> {
        var copy = ContiguousArray<Any?>()
        copy.reserveCapacity(array.count)
        // The new storage's elements are written as memory, then counted. (Timed against
        // `init(unsafeUninitializedCapacity:initializingWith:)`: that one costs 70 % more
        // instructions per copy, looking the storage's class up at run time.)
        let storage = unsafeBitCast(copy, to: UnsafeMutableRawPointer.self)
        array.withUnsafeBytes { source in
            (storage + elementsOffset).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
        storage.storeBytes(of: array.count, toByteOffset: countOffset, as: Int.self)
        return copy
    }

    /// A new array storage of the class of `sourceStorage`, from the runtime's allocator
    /// directly (no capacity computation, no look-up of the class, no copy of an empty array's
    /// elements), counting `count` elements of which none is written yet, with room for
    /// exactly `count`. (Counted by callgrind: `reserveCapacity` on an empty array costs about
    /// 100 instructions more.)
    private static func allocateStorage(like sourceStorage: UnsafeRawPointer, count: Int, _ allocate: UInt) -> UnsafeMutableRawPointer {
        let metadata = sourceStorage.load(as: UnsafeRawPointer.self)
        let flag = sourceStorage.load(fromByteOffset: capacityOffset, as: UInt.self) & 1
        let allocObject = unsafeBitCast(UnsafeRawPointer(bitPattern: allocate).unsafelyUnwrapped, to: AllocObject.self)
        let storage = allocObject(metadata, elementsOffset + count * MemoryLayout<Any?>.stride, MemoryLayout<Any?>.alignment - 1)
        storage.storeBytes(of: count, toByteOffset: countOffset, as: Int.self)
        storage.storeBytes(of: UInt(bitPattern: count) << 1 | flag, toByteOffset: capacityOffset, as: UInt.self)
        return storage
    }

    /// The array of a storage made by ``allocateStorage(like:count:_:)``, taking its one
    /// reference.
    private static func adopt(_ storage: UnsafeMutableRawPointer) -> ContiguousArray<Any?> {
        let object = Unmanaged<AnyObject>.fromOpaque(storage).takeRetainedValue()
        return unsafeBitCast(object, to: ContiguousArray<Any?>.self)
    }

    /// Whether `string` is immortal (small, or a literal): its second word's top bit, read as
    /// ``empty(_:)`` reads it in a container.
    package static func isImmortalString(_ string: String) -> Bool {
        let container: Any? = string
        return withUnsafeBytes(of: container) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) } & immortalStringBit != 0
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
        guard unique, storage.load(fromByteOffset: capacityOffset, as: UInt.self) >> 1 == probe.capacity else { return false }
        return stringsHold()
    }

    /// Small and literal strings are immortal, a string made at run time in storage of its own
    /// is not.
    private static func stringsHold() -> Bool {
        let heap = String(repeating: "not immortal ", count: 3)
        return isImmortalString("ab") && isImmortalString("a literal longer than fifteen bytes")
            && !isImmortalString(heap) && !isImmortalString(heap + "x")
    }

    /// A storage made by ``allocateStorage(like:count:_:)`` with `allocate` (the address of the
    /// runtime's function), like a probe array's, reads as an array of its values, held once,
    /// with room for exactly them, and grows as any array.
    private static func madeStorageHolds(allocate: UInt) -> Bool {
        var probe = ContiguousArray<Any?>()
        probe.append(1)
        let made = probe.withUnsafeBytes { allocateStorage(like: UnsafeRawPointer($0.baseAddress!) - elementsOffset, count: 2, allocate) }
        let elements = (made + elementsOffset).assumingMemoryBound(to: Any?.self)
        elements.initialize(to: 5)
        (elements + 1).initialize(to: nil)
        var array = adopt(made)
        guard !StrongReferenceCount.mayHaveOtherOwners(made), array.count == 2, array.capacity == 2,
              array[0] as? Int == 5, array[1] == nil else { return false }
        array.append(6)
        return array.count == 3 && array[0] as? Int == 5 && array[2] as? Int == 6
    }
}
