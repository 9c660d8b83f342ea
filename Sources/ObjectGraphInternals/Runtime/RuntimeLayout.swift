// A self-check of the runtime layout facts the package relies on, run on values whose layout
// is known, so that a toolchain that changes one fails a test naming it instead of corrupting
// memory.

/// The runtime layout facts that key-value coding and observing read memory by, each checked
/// on known values.
///
/// The facts (Swift ABI, checked on Swift 6.3.1):
/// - ``Fact/anyContainer``: an `Any` is three words of inline buffer followed by the stored
///   type's metadata; an `Int`, a word-aligned bitwise-takable value of up to three words, a
///   `String` (its two words first) and a class reference are stored inline. `loadInline(_:as:)` (KeyValueCoding's `ValueKind.swift`)
///   reads values this way.
/// - ``Fact/optionalAnyContainer``: an `Optional<Any>` has the same layout, with null metadata
///   for `nil`. `codableObject(in:)` (`KeyValuePath.swift`) reads objects this way.
/// - ``Fact/metadataKinds``: the word at a type metadata's address is its kind: 0x200 for a
///   struct, 0x201 for an enum, 0x202 for an optional, never one of these for a class.
///   `AnyContainerMetadata.isValueTypeWord(_:)`, behind key-value coding's `holdsExactly(_:_:)`,
///   takes a container's stored type for the value's dynamic type by it.
/// - ``Fact/fieldReflection``: the runtime's reflection entry points behind ``StoredField``
///   list a class's stored fields, superclass fields first, with their declared names (`_x` for
///   a property wrapper's storage), types, `let`/`var` and strong/weak ownership.
/// - ``Fact/fieldOffsets``: a field's reported offset is where its value lies in the instance,
///   for reading and writing (key-value coding's stored-property access).
/// - ``Fact/wrapperStorage``: a property wrapper's storage lies at its `_x` field's offset,
///   and the wrapped value at `MemoryLayout.offset(of:)` inside it (how `@Observed` reaches its
///   storage on the notifying path, and how key-value coding reads wrapped values).
///
/// Thread safety: ``verify()`` allocates its own probes; call it from any thread.
package enum RuntimeLayout {
    /// One layout fact.
    package enum Fact: String, CaseIterable, Sendable {
        case anyContainer = "Any container: three inline words, then the metadata"
        case optionalAnyContainer = "Optional<Any> container: as Any, with null metadata for nil"
        case metadataKinds = "metadata kinds: 0x200 struct, 0x201 enum, 0x202 optional at the metadata's address"
        case fieldReflection = "stored-field reflection: names, types, let/var, weak, superclass first"
        case fieldOffsets = "stored-field offsets: where the values lie in the instance"
        case wrapperStorage = "property-wrapper storage: the _x field's offset plus the wrapped value's offset"
    }

    /// Checks every fact on known values.
    ///
    /// - Returns: One line per broken fact detail, starting with the fact; empty when every
    ///   fact holds.
    /// - Complexity: O(1); it allocates a few probe objects.
    package static func verify() -> [String] {
        var problems: [String] = []
        func check(_ fact: Fact, _ condition: Bool, _ detail: @autoclosure () -> String) {
            if !condition { problems.append("\(fact.rawValue): \(detail())") }
        }
        verifyContainers(check)
        verifyFields(check)
        return problems
    }

    private typealias Check = (Fact, Bool, @autoclosure () -> String) -> Void

    // MARK: Existential containers

    private static let wordSize = MemoryLayout<UInt>.size

    /// The four words of an `Any` (or `Any?`) container.
    private static func words<T>(of container: T) -> [UInt] {
        withUnsafePointer(to: container) { pointer in
            (0..<4).map { UnsafeRawPointer(pointer).load(fromByteOffset: $0 * wordSize, as: UInt.self) }
        }
    }

    private static func metadata(_ type: Any.Type) -> UInt { AnyContainerMetadata.word(of: type) }

    private static func address(_ object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    private static func verifyContainers(_ check: Check) {
        check(.anyContainer, MemoryLayout<Any>.size == 4 * wordSize,
              "MemoryLayout<Any>.size is \(MemoryLayout<Any>.size), not \(4 * wordSize)")
        let integer: Any = 0x5A5A_1234
        let integerWords = words(of: integer)
        check(.anyContainer, integerWords[0] == 0x5A5A_1234, "an Int is not in the first inline word")
        check(.anyContainer, integerWords[3] == metadata(Int.self), "word 3 is not Int's metadata")

        let three: Any = ThreeWords(a: 11, b: 22, c: 33)
        let threeWords = words(of: three)
        check(.anyContainer, _isBitwiseTakable(ThreeWords.self), "a struct of three Ints is not bitwise-takable")
        check(.anyContainer, threeWords[0...2] == [11, 22, 33],
              "a three-word struct is not inline (words \(threeWords[0...2]))")
        check(.anyContainer, threeWords[3] == metadata(ThreeWords.self), "word 3 is not the struct's metadata")

        // A string is inline too: its two words first (ManagedObject's direct stores by key
        // write a string's container as memory and retain its storage).
        let text = String(repeating: "a heap string, not a small one ", count: 2)
        let textWords = withUnsafeBytes(of: text) { ($0.load(as: UInt.self), $0.load(fromByteOffset: wordSize, as: UInt.self)) }
        let boxedText: Any = text
        let boxedTextWords = words(of: boxedText)
        check(.anyContainer, boxedTextWords[0] == textWords.0 && boxedTextWords[1] == textWords.1,
              "a String is not inline in the first two words")
        check(.anyContainer, boxedTextWords[3] == metadata(String.self), "word 3 is not String's metadata")

        let object = LayoutBase()
        withExtendedLifetime(object) {
            let boxed: Any = object
            let objectWords = words(of: boxed)
            check(.anyContainer, objectWords[0] == address(object), "a class reference is not in the first word")
            check(.anyContainer, objectWords[3] == metadata(LayoutBase.self), "word 3 is not the class's metadata")

            check(.optionalAnyContainer, MemoryLayout<Any?>.size == MemoryLayout<Any>.size,
                  "MemoryLayout<Any?>.size is \(MemoryLayout<Any?>.size), not \(MemoryLayout<Any>.size)")
            let some: Any? = object
            let someWords = words(of: some)
            check(.optionalAnyContainer, someWords[0] == address(object) && someWords[3] == metadata(LayoutBase.self),
                  "a non-nil Optional<Any> is not laid out as an Any")
            let none: Any? = nil
            check(.optionalAnyContainer, words(of: none)[3] == 0, "nil does not have null metadata")
            // The in-place reads of AnyContainerMetadata, on the same containers.
            let pair: [Any?] = [some, none]
            let read = pair.withUnsafeBytes { buffer in
                (0..<2).map { AnyContainerMetadata.word(ofElement: $0, at: buffer.baseAddress!) }
            }
            check(.optionalAnyContainer, AnyContainerMetadata.isReadable && read == [metadata(LayoutBase.self), 0],
                  "AnyContainerMetadata reads \(read), not the class's metadata and 0")
        }
        verifyKinds(check)
    }

    private static func verifyKinds(_ check: Check) {
        func kind(_ type: Any.Type) -> UInt {
            UnsafeRawPointer(unsafeBitCast(type, to: UnsafeRawPointer.self)).load(as: UInt.self)
        }
        check(.metadataKinds, kind(Int.self) == 0x200 && kind(ThreeWords.self) == 0x200,
              "a struct's kind is \(kind(Int.self)), not 0x200")
        check(.metadataKinds, kind(Fact.self) == 0x201, "an enum's kind is \(kind(Fact.self)), not 0x201")
        check(.metadataKinds, kind(Int?.self) == 0x202, "an optional's kind is \(kind(Int?.self)), not 0x202")
        for type in [LayoutBase.self, LayoutProbe.self] as [AnyObject.Type] {
            check(.metadataKinds, kind(type) &- 0x200 > 2, "a class's kind word \(kind(type)) reads as a value type's")
        }
    }

    // MARK: Stored fields

    private static func verifyFields(_ check: Check) {
        let probe = LayoutProbe()
        let fields = StoredField.all(of: LayoutProbe.self)
        let expected: [(name: String, type: Any.Type, isVar: Bool, isStrong: Bool)] = [
            ("base", Int.self, true, true),
            ("constant", Int.self, false, true),
            ("weakReference", Optional<AnyObject>.self, true, false),
            ("text", String.self, true, true),
            ("_wrapped", LayoutWrapper<Int>.self, true, true),
        ]
        check(.fieldReflection, fields.map(\.name) == expected.map(\.name),
              "fields \(fields.map(\.name)), expected \(expected.map(\.name))")
        guard fields.count == expected.count else { return }
        for (field, want) in zip(fields, expected) {
            check(.fieldReflection, ObjectIdentifier(field.type) == ObjectIdentifier(want.type),
                  "'\(field.name)' has type \(field.type), expected \(want.type)")
            check(.fieldReflection, field.isVar == want.isVar, "'\(field.name)' isVar is \(field.isVar)")
            check(.fieldReflection, field.isStrong == want.isStrong, "'\(field.name)' isStrong is \(field.isStrong)")
        }
        withExtendedLifetime(probe) { verifyOffsets(of: probe, fields.map(\.offset), check) }
    }

    /// Reads only plain words until an offset is proven, and writes only through proven ones,
    /// so that a wrong offset is reported rather than crashing.
    private static func verifyOffsets(of probe: LayoutProbe, _ offsets: [Int], _ check: Check) {
        let base = Unmanaged.passUnretained(probe).toOpaque()
        let baseHolds = base.load(fromByteOffset: offsets[0], as: Int.self) == 101
        check(.fieldOffsets, baseHolds, "'base' does not hold 101 at offset \(offsets[0])")
        check(.fieldOffsets, base.load(fromByteOffset: offsets[1], as: Int.self) == 202,
              "'constant' does not hold 202 at offset \(offsets[1])")
        var text = probe.text
        let textWords = withUnsafeBytes(of: &text) { Array($0) }
        let storedWords = (0..<MemoryLayout<String>.size).map { base.load(fromByteOffset: offsets[3] + $0, as: UInt8.self) }
        check(.fieldOffsets, storedWords == textWords, "'text' is not at offset \(offsets[3])")
        if baseHolds {
            (base + offsets[0]).assumingMemoryBound(to: Int.self).pointee = 303
            check(.fieldOffsets, probe.base == 303, "a store at 'base''s offset did not change the property")
        }

        guard let valueOffset = MemoryLayout<LayoutWrapper<Int>>.offset(of: \LayoutWrapper<Int>.value) else {
            check(.wrapperStorage, false, "MemoryLayout.offset(of: \\.value) is nil for the wrapper's value")
            return
        }
        let wrappedOffset = offsets[4] + valueOffset
        let wrappedHolds = base.load(fromByteOffset: wrappedOffset, as: Int.self) == 404
        check(.wrapperStorage, wrappedHolds, "the wrapped value is not at offset \(offsets[4]) + \(valueOffset)")
        if wrappedHolds {
            (base + wrappedOffset).assumingMemoryBound(to: Int.self).pointee = 505
            check(.wrapperStorage, probe.wrapped == 505,
                  "a store at the wrapped value's offset (\(offsets[4]) + \(valueOffset)) did not change the property")
        }
    }
}

// MARK: Probes

private struct ThreeWords {
    var a: UInt
    var b: UInt
    var c: UInt
}

/// Shaped as `@Observed`'s storage: the value, then a reference.
@propertyWrapper
private struct LayoutWrapper<Value> {
    var value: Value
    var observers: AnyObject?

    init(wrappedValue: Value) {
        value = wrappedValue
        observers = nil
    }

    var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }
}

private class LayoutBase {
    var base = 101
}

private final class LayoutProbe: LayoutBase {
    let constant = 202
    weak var weakReference: AnyObject?
    var text = "text"
    @LayoutWrapper var wrapped = 404
}
