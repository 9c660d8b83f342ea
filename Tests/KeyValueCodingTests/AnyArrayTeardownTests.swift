import Foundation
import ObjectGraphInternals
import Synchronization
import Testing

/// `AnyArrayTeardown` empties a uniquely held `[Any?]` before it is freed: every value that
/// needs destruction is destroyed exactly once, plain values are skipped, and a shared array is
/// left alone.
@Suite struct AnyArrayTeardownTests {
    /// Counts the deinitialisations of one test's objects (tests run in parallel).
    private final class Counter: Sendable {
        let freed = Atomic<Int>(0)
    }

    /// Counts its deinitialisation.
    private final class Counted {
        let tag: Int
        let counter: Counter
        init(_ tag: Int, _ counter: Counter) { self.tag = tag; self.counter = counter }
        deinit { counter.freed.add(1, ordering: .relaxed) }
    }

    /// A value stored out of line in its container, holding a reference.
    private struct Wide { var a = 1, b = 2, c = 3; var object: Counted }

    @Test func theFactsHoldOnThisToolchain() {
        #expect(AnyArrayTeardown.holds)
        // The runtime's allocation is found and makes storage that reads as an array.
        #expect(AnyArrayTeardown.copiesWithRuntimeAllocation)
    }

    /// Runs `body` with a counter and returns how many of its `Counted` objects were freed.
    private func freed(during body: (Counter) -> Void) -> Int {
        let counter = Counter()
        body(counter)
        return counter.freed.load(ordering: .relaxed)
    }

    private func mixedValues(_ first: Counted, _ second: Counted) -> ContiguousArray<Any?> {
        var values = ContiguousArray<Any?>()
        values.append(Int64(7))
        values.append(nil)
        values.append(String(repeating: "heap string ", count: 4))
        values.append(first)
        values.append(Date(timeIntervalSinceReferenceDate: 1))
        values.append(Wide(object: second))
        values.append(true)
        values.append(2.5)
        return values
    }

    @Test func aUniqueArrayIsEmptiedAndEveryReferenceFreedOnce() {
        let count = freed { counter in
            var values = mixedValues(Counted(1, counter), Counted(2, counter))
            AnyArrayTeardown.empty(&values)
            #expect(values.isEmpty)
            // The emptied array is usable as any empty array.
            values.append("again")
            #expect(values.count == 1 && values[0] as? String == "again")
        }
        #expect(count == 2)
    }

    @Test func aSharedArrayIsLeftAsItIs() {
        let count = freed { counter in
            var values = mixedValues(Counted(3, counter), Counted(4, counter))
            let copy = values
            AnyArrayTeardown.empty(&values)
            #expect(values.count == 8 && copy.count == 8)
            #expect(values[2] as? String == String(repeating: "heap string ", count: 4))
            #expect((values[3] as? Counted)?.tag == 3 && (values[5] as? Wide)?.object.tag == 4)
            #expect(values[4] as? Date == Date(timeIntervalSinceReferenceDate: 1))
        }
        #expect(count == 2)
    }

    @Test func anEmptyArrayStaysEmpty() {
        var values = ContiguousArray<Any?>()
        AnyArrayTeardown.empty(&values)
        #expect(values.isEmpty)
    }

    @Test func aPlainDataCopyHoldsTheSameValuesInStorageOfItsOwn() throws {
        var original = ContiguousArray<Any?>()
        original.append(Int64(7))
        original.append(nil)
        original.append(2.5)
        original.append(Date(timeIntervalSinceReferenceDate: 3))
        original.append(true)
        original.append(Int32(-4))
        var copy = try #require(AnyArrayTeardown.plainDataCopy(of: original))
        #expect(copy.count == 6)
        #expect(copy[0] as? Int64 == 7 && copy[1] == nil && copy[2] as? Double == 2.5)
        #expect(copy[3] as? Date == Date(timeIntervalSinceReferenceDate: 3) && copy[4] as? Bool == true)
        #expect(copy[5] as? Int32 == -4)
        let sameStorage = copy.withUnsafeBufferPointer { mine in original.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
        #expect(!sameStorage)
        // Changed and grown on its own: the original keeps its values.
        copy[0] = "changed"
        copy.append(9)
        #expect(original.count == 6 && original[0] as? Int64 == 7)
        #expect(copy.count == 7 && copy[0] as? String == "changed" && copy[6] as? Int == 9)
    }

    @Test func aPlainDataCopyIsItsOwnStorageSizedToItsValues() throws {
        // A source with room to spare: the copy holds its values, is held once, and
        // grows, changes and goes away as any array does.
        var original = ContiguousArray<Any?>()
        original.reserveCapacity(40)
        for index in 0..<5 { original.append(Int64(index)) }
        for round in 0..<1_000 {
            var copy = try #require(AnyArrayTeardown.plainDataCopy(of: original))
            #expect(copy.capacity >= 5 && copy.count == 5)
            // Held once: a write keeps its storage (no copy made).
            let before = copy.withUnsafeBufferPointer { $0.baseAddress }
            copy[round % 5] = Double(round)
            #expect(copy.withUnsafeBufferPointer { $0.baseAddress } == before)
            copy.append("grown \(round)")
            #expect(copy.count == 6 && copy[round % 5] as? Double == Double(round) && copy[5] as? String == "grown \(round)")
        }
        #expect(original.map { $0 as? Int64 } == [0, 1, 2, 3, 4])
        // A copy of a copy (storage made by the copy itself) reads the same.
        let first = try #require(AnyArrayTeardown.plainDataCopy(of: original))
        let second = try #require(AnyArrayTeardown.plainDataCopy(of: first))
        #expect(second.map { $0 as? Int64 } == [0, 1, 2, 3, 4])
    }

    @Test func smallAndLiteralStringsAreImmortalAndStringsOfTheirOwnStorageAreNot() {
        #expect(AnyArrayTeardown.isImmortalString(""))
        #expect(AnyArrayTeardown.isImmortalString("a12345"))
        #expect(AnyArrayTeardown.isImmortalString("b\(7)"))
        #expect(AnyArrayTeardown.isImmortalString("a literal longer than fifteen bytes"))
        #expect(!AnyArrayTeardown.isImmortalString(String(repeating: "heap ", count: 5)))
        #expect(!AnyArrayTeardown.isImmortalString("made at run time: \(Int.random(in: 1_000...9_999))"))
    }

    /// The storage object of a string of its own storage (its second word without the flags).
    private func storageAddress(of string: String) -> UnsafeRawPointer {
        let container: Any? = string
        let word = withUnsafeBytes(of: container) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
        return UnsafeRawPointer(bitPattern: word & 0x00FF_FFFF_FFFF_FFFF)!
    }

    @Test func immortalStringsAreSkippedAndStringsOfTheirOwnStorageReleased() {
        let kept = String(repeating: "kept heap string ", count: 3)
        let keptStorage = storageAddress(of: kept)
        var values = ContiguousArray<Any?>()
        values.append("small")
        values.append("a literal longer than fifteen bytes")
        values.append(kept)
        values.append("n\(42)")
        values.append(String(repeating: "freed with the array ", count: 2))
        // Held here and by the array.
        #expect(StrongReferenceCount.mayHaveOtherOwners(keptStorage))
        AnyArrayTeardown.empty(&values)
        #expect(values.isEmpty)
        // The array's reference was released; the string held here reads as before.
        #expect(!StrongReferenceCount.mayHaveOtherOwners(keptStorage))
        #expect(kept == String(repeating: "kept heap string ", count: 3))
    }

    @Test func aPlainDataCopyHasRoomForItsValuesExactly() throws {
        var original = ContiguousArray<Any?>()
        original.reserveCapacity(16)
        for index in 0..<3 { original.append(Int32(index)) }
        var copy = try #require(AnyArrayTeardown.plainDataCopy(of: original))
        #expect(copy.count == 3 && copy.capacity == 3)
        // Full: the next append moves the values to a larger storage of the array's own.
        copy.append(nil)
        #expect(copy.count == 4 && copy.capacity >= 4 && copy.map { $0 as? Int32 } == [0, 1, 2, nil])
    }

    @Test func anEmptyArrayHasNoPlainDataCopy() {
        #expect(AnyArrayTeardown.plainDataCopy(of: []) == nil)
    }
}
