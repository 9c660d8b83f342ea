// The type metadata word of an `Optional<Any>` container, read in place: how the hot paths of
// managed objects tell a slot's value type without a dynamic cast or a copy of the value.

/// Reads the type metadata word of `Optional<Any>` containers in place, by the layout
/// ``RuntimeLayout`` checks (``RuntimeLayout/Fact/anyContainer``,
/// ``RuntimeLayout/Fact/optionalAnyContainer``): three words of inline buffer, then the
/// metadata address of the stored value's type, 0 for `nil`.
///
/// A caller checks ``isReadable`` first and takes its ordinary (casting) path when it is
/// `false`; the word of a value of exactly type `T` equals ``word(of:)`` of `T`.
///
/// Thread safety: stateless; reading a container is as safe as reading the memory it is in.
@usableFromInline
package enum AnyContainerMetadata {
    /// Whether `Optional<Any>` containers have the four-word layout the reads assume (a
    /// constant the compiler folds).
    @inlinable @inline(__always)
    package static var isReadable: Bool {
        MemoryLayout<Any?>.size == 4 * MemoryLayout<UInt>.size && MemoryLayout<Any?>.stride == MemoryLayout<Any?>.size
    }

    /// The byte offset of the metadata word in a container.
    @inlinable @inline(__always)
    package static var offset: Int { 3 * MemoryLayout<UInt>.size }

    /// The metadata word a container holds for a value of exactly `type`.
    @inlinable @inline(__always)
    package static func word(of type: any Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    }

    /// Whether `word` (a container's metadata word, not 0) is a struct's, an enum's or an
    /// optional's metadata (kinds 0x200–0x202, the word at the metadata's address;
    /// ``RuntimeLayout/Fact/metadataKinds``). A container holding such a type holds exactly
    /// that type; a class reference is boxed as its static type, so its word says less.
    @inlinable @inline(__always)
    package static func isValueTypeWord(_ word: UInt) -> Bool {
        guard let metadata = UnsafeRawPointer(bitPattern: word) else { return false }
        return metadata.load(as: UInt.self) &- 0x200 <= 2
    }

    /// The metadata word of the container at `container` (0: `nil`). Only when
    /// ``isReadable``.
    @inlinable @inline(__always)
    package static func word(at container: UnsafeRawPointer) -> UInt {
        container.load(fromByteOffset: offset, as: UInt.self)
    }

    /// A copy of the `Optional<Any>` at `container`: `nil` when its metadata word is 0, else
    /// its `Any` copied by the stored type's own witness. An ordinary copy of an `Any?` goes
    /// through `Optional`'s generic value witnesses (its case read through the payload's
    /// witness, then the existential's copy): about three times the instructions. Where the
    /// layout is not ``isReadable``, the ordinary copy.
    @inlinable @inline(__always)
    package static func copy(at container: UnsafePointer<Any?>) -> Any? {
        guard isReadable else { return container.pointee }
        let raw = UnsafeRawPointer(container)
        if word(at: raw) == 0 { return nil }
        // A non-nil container is laid out as an `Any` (``RuntimeLayout/Fact/optionalAnyContainer``).
        let value: Any = raw.withMemoryRebound(to: Any.self, capacity: 1) { $0.pointee }
        return value
    }

    /// The metadata word of element `index` of contiguous `Optional<Any>` storage starting at
    /// `base` (an array's buffer). Only when ``isReadable``.
    @inlinable @inline(__always)
    package static func word(ofElement index: Int, at base: UnsafeRawPointer) -> UInt {
        base.load(fromByteOffset: index * MemoryLayout<Any?>.stride + offset, as: UInt.self)
    }
}
