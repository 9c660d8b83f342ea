// Packed store rows: attribute values in an order shared by every row of an entity, already
// as the attributes' Swift types, so that filling an object copies one array.
import Foundation
import ObjectGraphInternals
import Predicates

/// The order of the attribute values of an entity's packed rows, shared by all of them: the
/// stored attributes by name, and the slot (the position in the entity's `allProperties`)
/// each one fills in a managed object.
///
/// - Important: Thread safety: `Sendable` (immutable).
package final class StoreRowShape: Sendable {
    /// The stored attributes' names, in the order of ``StoreRowColumns/constants``.
    package let names: [String]
    /// The position of each name in ``names``.
    package let positions: [String: Int]
    /// The names of the entity's properties (`allProperties`, inherited ones first): the slots
    /// of its objects, the order of ``StoreRowColumns/slotValues``.
    package let slotKeys: [String]
    /// For each name, its slot.
    package let slots: [Int]
    /// The slots that hold no stored attribute (relationships, transient attributes, fetched
    /// properties).
    package let otherSlots: [Int]
    /// For each name, its attribute's type, when every name is an attribute with a slot and a
    /// type whose constants give back exactly their values
    /// (`AttributeValueConversion.hasExactConstants`): rows of the shape may then keep their
    /// slot values alone (``StoreRowColumns/init(shape:exactSlotValues:)``), the constants
    /// made from them when asked for. `nil` otherwise.
    package let exactTypes: [AttributeDescription.AttributeType]?

    /// A shape for `entity`'s stored attributes `names` (each one of its attributes).
    package init(entity: EntityDescription, names: [String]) {
        let properties = entity.allProperties
        let keys = properties.map(\.name)
        var slotByName: [String: Int] = [:]
        for (slot, key) in keys.enumerated() where slotByName[key] == nil { slotByName[key] = slot }
        self.names = names
        self.slotKeys = keys
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() { positions[name] = position }
        self.positions = positions
        self.slots = names.map { slotByName[$0] ?? -1 }
        let filled = Set(slots)
        otherSlots = keys.indices.filter { !filled.contains($0) }
        var types: [AttributeDescription.AttributeType]? = []
        for slot in slots {
            guard slot >= 0, let type = properties[slot].attribute?.attributeType,
                  AttributeValueConversion.hasExactConstants(type) else {
                types = nil
                break
            }
            types?.append(type)
        }
        exactTypes = types
        // The metadata word a container of a value of exactly the type holds.
        exactMetadata = types.map { $0.map { AnyContainerMetadata.word(of: $0.valueType) } } ?? []
        slotsInOrder = slots == Array(keys.indices)
    }

    /// For each name, the address of the metadata of its attribute's Swift type (the type
    /// ``exactTypes`` names); empty when ``exactTypes`` is `nil`.
    private let exactMetadata: [UInt]
    /// Whether the names are the slots in order, every slot named (``slots`` is `0..<n` for
    /// `n` slots): a name's position is then its slot.
    private let slotsInOrder: Bool

    /// Whether every named slot of `values` (an object's slot values) is `nil` or a value of
    /// exactly its attribute's Swift type, so that the values can be a row's slot values
    /// alone (``StoreRowColumns/init(shape:exactSlotValues:)``); `false` for a shape without
    /// ``exactTypes``.
    ///
    /// Reads each `Any?` container's type metadata word in place (the container layout
    /// `RuntimeLayout` checks: three inline words, then the metadata, null for `nil`): no
    /// dynamic cast, no copy of a value.
    package func holdsExactValues(_ values: ContiguousArray<Any?>) -> Bool {
        guard exactTypes != nil, exactMetadata.count == slots.count, AnyContainerMetadata.isReadable else { return false }
        return values.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress.map(UnsafeRawPointer.init) else { return slots.isEmpty }
            // Every slot named, in order (the in-memory store's shapes): position and slot are
            // one, and every position is within `buffer` (its count checked here once).
            if slotsInOrder {
                guard buffer.count >= exactMetadata.count else { return false }
                return exactMetadata.withUnsafeBufferPointer { expected in
                    for position in 0..<expected.count {
                        let metadata = AnyContainerMetadata.word(ofElement: position, at: base)
                        if metadata != 0 && metadata != expected[position] { return false }
                    }
                    return true
                }
            }
            // Read through buffers (the counts are equal, checked above): no bounds check or
            // array access per slot.
            return slots.withUnsafeBufferPointer { slots in
                exactMetadata.withUnsafeBufferPointer { expected in
                    for position in 0..<slots.count {
                        let slot = slots[position]
                        guard slot >= 0, slot < buffer.count else { return false }
                        let metadata = AnyContainerMetadata.word(ofElement: slot, at: base)
                        if metadata != 0 && metadata != expected[position] { return false }
                    }
                    return true
                }
            }
        }
    }
}

/// The attribute values of one packed row: as constants (what ``StoreRow/attributes`` shows)
/// and as the attributes' Swift types in slot order (what an object's slots hold), so that a
/// context fills an object by copying ``slotValues``.
///
/// A row read by a store may keep its slot values alone (``init(shape:exactSlotValues:)``,
/// one array per row instead of two): its constants are then made from the slot values when
/// asked for, and are exactly the constants the values were read from.
///
/// `@unchecked Sendable`: `slotValues` is typed `Any?`, but a store puts only values of the
/// attribute types that are `Sendable` values (integers, `Double`, `Float`, `Bool`, `String`,
/// `Date`, `Decimal`, `Data`, `UUID`, `URL`) there, and only the row's owner changes them
/// (``replaceSlotValues(_:from:)``, a mutation of the value like any other: copy on write).
@usableFromInline package struct StoreRowColumns: @unchecked Sendable {
    /// The shape shared by the entity's rows.
    package let shape: StoreRowShape
    /// The constants given to ``init(shape:constants:slotValues:)``; `nil` for a row made
    /// from its slot values alone.
    private let storedConstants: ContiguousArray<KeyValueConstant>?
    /// One value per slot of the entity's objects: each stored attribute's value as the
    /// attribute's Swift type (`nil` for NULL), `nil` in the shape's other slots.
    package private(set) var slotValues: ContiguousArray<Any?>

    /// Packed values; `constants` in the shape's name order, `slotValues` in its slot order.
    package init(shape: StoreRowShape, constants: ContiguousArray<KeyValueConstant>, slotValues: ContiguousArray<Any?>) {
        self.shape = shape
        self.storedConstants = constants
        self.slotValues = slotValues
    }

    /// Packed values kept as slot values alone, for a shape with ``StoreRowShape/exactTypes``:
    /// each value in a named slot is `nil` (NULL) or exactly of its attribute's Swift type,
    /// so its constant is made from it when asked for (`AttributeValueConversion`'s exact
    /// constants: the constant gives back the value, and the value gives back the constant).
    ///
    /// - Precondition: `shape.exactTypes` is not `nil`.
    package init(shape: StoreRowShape, exactSlotValues slotValues: ContiguousArray<Any?>) {
        precondition(shape.exactTypes != nil, "a row shape without exact types keeps its constants")
        self.shape = shape
        self.storedConstants = nil
        self.slotValues = slotValues
    }

    /// Replaces the values of the slots in `slots` (bit *n* for slot *n*) with those of
    /// `other`, a row of the same shape, in place when nothing else holds this row's values.
    /// Both rows must keep their slot values alone (the constants follow the values).
    ///
    /// - Returns: `false`, nothing changed, for rows of other shapes or forms, or a slot
    ///   outside the shape.
    package mutating func replaceSlotValues(_ slots: UInt64, from other: StoreRowColumns) -> Bool {
        let count = slotValues.count
        guard storedConstants == nil, other.storedConstants == nil, other.shape === shape, other.slotValues.count == count,
              count >= 64 || slots >> UInt64(count) == 0 else { return false }
        var bits = slots
        while bits != 0 {
            let slot = bits.trailingZeroBitCount
            bits &= bits &- 1
            slotValues[slot] = other.slotValues[slot]
        }
        return true
    }

    /// One value per name of the shape; ``KeyValueConstant/null`` for NULL.
    ///
    /// - Complexity: O(1) for a row made with its constants; O(*n*) in the number of names for
    ///   a row made from its slot values (the constants are made each time).
    package var constants: ContiguousArray<KeyValueConstant> {
        if let storedConstants { return storedConstants }
        var result = ContiguousArray<KeyValueConstant>()
        result.reserveCapacity(shape.slots.count)
        for position in shape.slots.indices { result.append(derivedConstant(at: position)) }
        return result
    }

    /// The value of the name at `position` (``KeyValueConstant/null`` for NULL), without the
    /// array of every constant for a row made from its slot values.
    package func constant(at position: Int) -> KeyValueConstant {
        storedConstants?[position] ?? derivedConstant(at: position)
    }

    /// The constant of the name at `position` of a row made from its slot values.
    private func derivedConstant(at position: Int) -> KeyValueConstant {
        guard let value = slotValues[shape.slots[position]], let types = shape.exactTypes else { return .null }
        return AttributeValueConversion.exactConstant(of: value, type: types[position]) ?? .null
    }

    /// The value of the attribute `name`; `nil` for NULL or a name the shape does not have.
    package func constant(named name: String) -> KeyValueConstant? {
        guard let position = shape.positions[name] else { return nil }
        let value = storedConstants?[position] ?? derivedConstant(at: position)
        if case .null = value { return nil }
        return value
    }

    /// The values by name, NULLs left out.
    package var attributeDictionary: [String: KeyValueConstant] {
        var result: [String: KeyValueConstant] = [:]
        result.reserveCapacity(shape.names.count)
        for position in shape.names.indices {
            let value = storedConstants?[position] ?? derivedConstant(at: position)
            if case .null = value { continue }
            result[shape.names[position]] = value
        }
        return result
    }
}

extension AttributeDescription {
    /// The Swift value a stored constant gives this attribute's slot (what a context puts in an
    /// object it fills): `nil` for none or a constant that does not fit the type.
    package func slotValue(from constant: KeyValueConstant) -> Any? {
        typedValue(from: constant) ?? nil
    }
}

extension StoreRow {
    /// Replaces the values of the slots in `slots` with those of `other`, the packed values of
    /// a row of the same shape, both kept as slot values alone
    /// (``StoreRowColumns/replaceSlotValues(_:from:)``): in place when nothing else holds this
    /// row's values. Version and relationships are left as they are.
    ///
    /// - Returns: `false`, nothing changed, for a row of another shape or form.
    package mutating func replaceSlotValues(_ slots: UInt64, from other: StoreRowColumns) -> Bool {
        columns?.replaceSlotValues(slots, from: other) ?? false
    }
}
