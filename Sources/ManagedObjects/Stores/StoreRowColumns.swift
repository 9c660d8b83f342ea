// Packed store rows: attribute values in an order shared by every row of an entity, already
// as the attributes' Swift types, so that filling an object copies one array.
import Foundation
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

    /// A shape for `entity`'s stored attributes `names` (each one of its attributes).
    package init(entity: EntityDescription, names: [String]) {
        let keys = entity.allProperties.map(\.name)
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
    }
}

/// The attribute values of one packed row: as constants (what ``StoreRow/attributes`` shows)
/// and as the attributes' Swift types in slot order (what an object's slots hold), so that a
/// context fills an object by copying ``slotValues``.
///
/// `@unchecked Sendable`: `slotValues` is typed `Any?`, but a store puts only values of the
/// attribute types that are `Sendable` values (integers, `Double`, `Float`, `Bool`, `String`,
/// `Date`, `Decimal`, `Data`, `UUID`, `URL`) there, and nothing changes them after the row is
/// made (both arrays are `let`).
package struct StoreRowColumns: @unchecked Sendable {
    /// The shape shared by the entity's rows.
    package let shape: StoreRowShape
    /// One value per name of the shape; ``KeyValueConstant/null`` for NULL.
    package let constants: ContiguousArray<KeyValueConstant>
    /// One value per slot of the entity's objects: each stored attribute's value as the
    /// attribute's Swift type (`nil` for NULL), `nil` in the shape's other slots.
    package let slotValues: ContiguousArray<Any?>

    /// Packed values; `constants` in the shape's name order, `slotValues` in its slot order.
    package init(shape: StoreRowShape, constants: ContiguousArray<KeyValueConstant>, slotValues: ContiguousArray<Any?>) {
        self.shape = shape
        self.constants = constants
        self.slotValues = slotValues
    }

    /// The value of the attribute `name`; `nil` for NULL or a name the shape does not have.
    package func constant(named name: String) -> KeyValueConstant? {
        guard let position = shape.positions[name] else { return nil }
        let value = constants[position]
        if case .null = value { return nil }
        return value
    }

    /// The values by name, NULLs left out.
    package var attributeDictionary: [String: KeyValueConstant] {
        var result: [String: KeyValueConstant] = [:]
        result.reserveCapacity(constants.count)
        for (position, value) in constants.enumerated() {
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
