// Emptying the storage of a `ContiguousArray<Any?>` that one owner holds, its elements destroyed
// by their own types: how a managed object that goes away drops its slot values without
// `Optional<Any>`'s generic value witnesses.

/// Destroys the elements of `ContiguousArray<Any?>` storage that exactly one strong reference
/// holds, each by its stored type's witness, and leaves the storage empty, so that its release
/// destroys nothing more.
///
/// The storage's own `deinit` destroys its elements with `swift_arrayDestroy` through
/// `Optional<Any>`'s generic value witnesses (about 75 instructions an element, three times
/// the direct destruction). The facts read (Swift ABI, checked on Swift 6.3.1, verified once
/// per process by ``holds`` on a probe array): the storage is a native object whose elements
/// begin ``headerSize`` bytes after its address, with the element count in the word at
/// ``countOffset``; its reference count reads as ``StrongReferenceCount`` says; containers are
/// as ``AnyContainerMetadata`` reads them. Where a fact does not hold, ``emptyIfUnique(elements:)``
/// does nothing and the storage's release destroys the elements as usual.
///
/// Thread safety: the caller owns the one reference (a `deinit`); nothing else may read the
/// array meanwhile.
package enum AnyArrayStorage {
    /// The bytes from the storage's address to its first element.
    private static let headerSize = 4 * MemoryLayout<UInt>.size
    /// The byte offset of the element count in the storage (after the metadata and the
    /// reference counts).
    private static let countOffset = 2 * MemoryLayout<UInt>.size

    /// Whether the layout facts hold on this runtime (checked once, on a probe array).
    package static let holds: Bool = verify()

    /// Destroys the elements of the storage whose first element is at `elements` (an array's
    /// `withUnsafeBufferPointer` base address, read before the call so that no temporary
    /// reference is counted), when exactly one strong reference holds the storage, and sets
    /// its count to 0; otherwise (shared storage, the empty array's, or facts that do not hold)
    /// leaves it as it is.
    ///
    /// - Returns: Whether the elements were destroyed.
    @discardableResult
    package static func emptyIfUnique(elements: UnsafePointer<Any?>?) -> Bool {
        guard holds, let elements else { return false }
        return empty(elements)
    }

    /// ``emptyIfUnique(elements:)`` once the facts are known to hold.
    private static func empty(_ elements: UnsafePointer<Any?>) -> Bool {
        let storage = UnsafeMutableRawPointer(mutating: UnsafeRawPointer(elements) - headerSize)
        let count = storage.load(fromByteOffset: countOffset, as: Int.self)
        // The empty array's storage is shared by every empty array (and never written).
        guard count > 0, !StrongReferenceCount.mayHaveOtherOwners(UnsafeRawPointer(storage)) else { return false }
        for index in 0..<count {
            let container = UnsafeMutableRawPointer(mutating: UnsafeRawPointer(elements + index))
            // A `nil` holds nothing; a value is an `Any` (``RuntimeLayout/Fact/optionalAnyContainer``).
            guard AnyContainerMetadata.word(at: UnsafeRawPointer(container)) != 0 else { continue }
            container.withMemoryRebound(to: Any.self, capacity: 1) { _ = $0.deinitialize(count: 1) }
        }
        storage.storeBytes(of: 0, toByteOffset: countOffset, as: Int.self)
        return true
    }

    /// Checks the facts on a probe array: where the elements and the count lie, that a shared
    /// storage is left alone, and that emptying destroys each element once (a class instance
    /// among them is released) and leaves an empty array that works as one.
    private static func verify() -> Bool {
        guard AnyContainerMetadata.isReadable, StrongReferenceCount.inlineReadsHold,
              MemoryLayout<ContiguousArray<Any?>>.size == MemoryLayout<UInt>.size else { return false }
        var released = false
        var probe: ContiguousArray<Any?> = [ReleaseProbe { released = true }, 7, nil, "a string too long to be small"]
        return verify(&probe) { released }
    }

    /// ``verify()``'s checks on `probe` (four elements, the first a ``ReleaseProbe`` that
    /// `released` tells about).
    private static func verify(_ probe: inout ContiguousArray<Any?>, released: () -> Bool) -> Bool {
        // The array's one word is its storage's address.
        let storage = withUnsafeBytes(of: &probe) { $0.load(as: UnsafeRawPointer.self) }
        let elements = probe.withUnsafeBufferPointer { $0.baseAddress! }
        if UnsafeRawPointer(elements) - headerSize != storage { return false }
        if storage.load(fromByteOffset: countOffset, as: Int.self) != 4 { return false }
        // Held twice: left alone.
        let second = Unmanaged<AnyObject>.fromOpaque(storage).retain()
        let sharedLeftAlone = !empty(elements) && !released() && probe.count == 4
        second.release()
        if !sharedLeftAlone { return false }
        if !empty(elements) || !released() || !probe.isEmpty { return false }
        probe.append(1)
        return probe.count == 1 && probe[0] as? Int == 1
    }
}

/// Runs `onRelease` when released (``AnyArrayStorage``'s check).
private final class ReleaseProbe {
    let onRelease: () -> Void
    init(_ onRelease: @escaping () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}
