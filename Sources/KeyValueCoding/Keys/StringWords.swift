// A string's two words, compared bit for bit, and a small table of keys by their words.

/// The two words of a `String` value, compared bit for bit: equal words are the same string
/// (the same small-string bytes, or the same storage and count), so equal words mean equal
/// strings. Unequal words say nothing (equal text may be stored apart, or in another
/// canonically equivalent form): the caller then compares the strings.
///
/// Only where ``isAvailable``: a `String` of another size (a 32-bit platform) gives zero words,
/// which no caller compares.
struct StringWords: Equatable {
    let first: UInt64
    let second: UInt64

    /// Whether a `String` is exactly two 64-bit words (every 64-bit platform), so that the
    /// words are the whole value (a constant the compiler folds).
    @inline(__always)
    static var isAvailable: Bool {
        MemoryLayout<String>.size == MemoryLayout<StringWords>.size && MemoryLayout<StringWords>.size == 16
    }

    init(_ string: String) {
        guard Self.isAvailable else {
            first = 0
            second = 0
            return
        }
        self = unsafeBitCast(string, to: StringWords.self)
    }
}

/// The positions of up to 16 keys by a hash of their ``StringWords``, in 32 slots: a key whose
/// words are a key's is found with one probe (a multiplication, a shift, a load), where the scan
/// of every key's words takes a comparison per key before it. Two keys in one slot leave the
/// slot empty: their look-ups take the scan.
///
/// A slot only suggests a position: the caller compares the key's words with that key's.
struct StringWordSlots: Sendable {
    /// Per slot, the position of the one key whose words hash there; -1 for none or several.
    private let slots: [Int8]
    /// How many bits of the hash pick the slot.
    private static let bits = 5

    /// The slots of `words` (keys in position order); none (every look-up scans) for more than
    /// 16 keys or without ``StringWords/isAvailable``.
    init(_ words: [StringWords]) {
        guard StringWords.isAvailable, words.count <= 16 else {
            slots = []
            return
        }
        var slots = [Int8](repeating: -1, count: 1 << Self.bits)
        var taken = [Bool](repeating: false, count: 1 << Self.bits)
        for (position, key) in words.enumerated() {
            let slot = Self.slot(of: key)
            // A second key in a slot: neither is found by the slot.
            slots[slot] = taken[slot] ? -1 : Int8(position)
            taken[slot] = true
        }
        self.slots = slots
    }

    /// The position the slot of `words` suggests, or `nil`.
    @inline(__always)
    func position(of words: StringWords) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            guard !slots.isEmpty else { return nil }
            let position = slots[Self.slot(of: words)]
            return position < 0 ? nil : Int(position)
        }
    }

    /// The slot of `words`: both words mixed by multiplication, the top bits.
    @inline(__always)
    private static func slot(of words: StringWords) -> Int {
        let mixed = (words.first &+ words.second &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - bits))
    }
}
