// Stores by key that go straight to the slot: a value of exactly an attribute's Swift type, into
// an object whose change nothing but its own hooks would hear (a new object's stores, an object
// outside any context).
import Foundation
import KeyValueCoding
import ObjectGraphInternals

extension EntityLayout {
    /// How `setValue(_:forKey:)` may store a value into one slot without the key's property
    /// (``ManagedObject/directStoreRoute(_:slot:key:)``): when the value is of exactly the
    /// attribute's Swift type, which the property would keep as given.
    package struct DirectStore: Sendable {
        /// How the value is copied into the slot's container.
        package enum Copy: UInt8, Sendable {
            /// Through the value witnesses (`values[slot] = value`).
            case generic
            /// As memory: a value with no references (numbers, flags, dates).
            case bitwise
            /// As memory, then the string's storage retained.
            case string
        }

        /// The metadata word of the attribute's Swift type (what an `Any?` container holding a
        /// value of exactly that type holds); 0: the slot takes the key's property.
        package let word: UInt
        /// How a value is copied in.
        package let copy: Copy
        /// Whether the value is a date, which must be a finite number of seconds.
        package let isDate: Bool

        /// No direct store: the key's property stores.
        static let none = DirectStore(word: 0, copy: .generic, isDate: false)

        /// The direct store of `property` in slot `slot`: attributes of plain value types kept in
        /// the value array (``EntityLayout/valueSlotProperty(_:_:slot:field:notifies:)`` and
        /// ``EntityLayout/dateSlotProperty(_:slot:notifies:)`` store such values as given).
        static func of(_ property: PropertyDescription, field: ManagedLayoutField?) -> DirectStore {
            guard field == nil, AnyContainerMetadata.isReadable, case .attribute(let attribute) = property else { return .none }
            let type = attribute.attributeType
            var copy: Copy
            switch type {
            case .integer16, .integer32, .integer64, .double, .float, .boolean, .date: copy = .bitwise
            case .string: copy = .string
            case .decimal, .binaryData, .uuid, .uri: copy = .generic
            case .objectID, .transformable, .composite, .undefined: return .none
            }
            // A copy as memory writes into the value array's storage at the offsets
            // `writeArraySlot` keeps as literals: only where AnyArrayTeardown's checked facts
            // hold and name the same offsets.
            if !AnyArrayTeardown.holds || !ManagedObject.arrayOffsetsAreTeardowns { copy = .generic }
            return DirectStore(word: AnyContainerMetadata.word(of: type.valueType), copy: copy, isDate: type == .date)
        }
    }
}

extension EntityLayout {
    /// The direct store of `slot` (the position of its key in ``keyTable``); none past the
    /// slots.
    @inline(__always)
    func directStore(_ slot: Int) -> DirectStore {
        directStores.withUnsafeBufferPointer { slot < $0.count ? $0[slot] : .none }
    }
}

extension ManagedObject {
    /// How a store by key goes (``directStoreRoute(_:slot:key:)``).
    enum DirectStoreRoute {
        /// Through the key's property.
        case property
        /// Straight into the slot, with no call of the change hooks.
        case silent
        /// Straight into the slot, between calls of the change hooks.
        case hooked
    }

    /// Whether `value` goes into `slot` (the position of `key` in the entity's key table) the
    /// short way, when that is all the key's property would do: the slot keeps values of
    /// exactly the value's type as given (``EntityLayout/DirectStore``), the object's values are
    /// loaded, and either the context has recorded the slot's change already
    /// (``storesQuietly(slot:)``: a new object's stores in the event of its insert; the
    /// object's change hooks still run, so Swift's Observation hears) or the change reaches
    /// nobody (``changesReachNobody``). The caller then writes the value with
    /// ``writeArraySlot(_:_:_:)``.
    ///
    /// - Returns: ``DirectStoreRoute/property`` (nothing done) sends the store through the
    ///   key's property: a conversion, `nil`, a refused value, observers, an undo manager, a
    ///   first change to record…
    @inline(__always)
    func directStoreRoute(_ value: borrowing Any?, slot: Int, key: String) -> (route: DirectStoreRoute, direct: EntityLayout.DirectStore) {
        // First what the object alone tells: a store that cannot be quiet into an object that
        // was ever registered (an undo manager, observers, a first change to record) leaves at
        // once, for a few loads.
        let mayBeQuiet = slot < 64 && quietSlots & (1 &<< UInt64(truncatingIfNeeded: slot)) != 0
        guard mayBeQuiet || registrationSequence == 0, AnyContainerMetadata.isReadable,
              !faultFlag, faultedRelationshipSlots == 0 else { return (.property, .none) }
        let direct = layout.directStore(slot)
        guard direct.word != 0 else { return (.property, .none) }
        let fits = withUnsafePointer(to: value) { container -> Bool in
            let raw = UnsafeRawPointer(container)
            guard AnyContainerMetadata.word(at: raw) == direct.word else { return false }
            // A date that is not a finite number of seconds is refused by the property.
            return !direct.isDate || raw.load(as: Date.self).timeIntervalSinceReferenceDate.isFinite
        }
        guard fits else { return (.property, .none) }
        if mayBeQuiet, quietStoreIsAdmitted {
            // The hooks of the generic class tell only Swift's Observation, which has nothing to
            // hear before the object's first typed read made its registrar: no call, no event.
            // (The layout's class is the object's: an object is made with the layout of its
            // class.)
            return (layout.isGenericClass && observationTracking == nil ? .silent : .hooked, direct)
        }
        return (changesReachNobody ? .silent : .property, direct)
    }

    /// Where an array's storage keeps its element count and its first element: the facts
    /// ``AnyArrayTeardown/holds`` checks (``AnyArrayTeardown/countOffset``,
    /// ``AnyArrayTeardown/elementsOffset``), as literals: the getters of another module are
    /// calls here, one per store.
    private static var arrayCountOffset: Int { 16 }
    private static var arrayElementsOffset: Int { 32 }
    /// Whether the literals above are ``AnyArrayTeardown``'s offsets (read once per layout).
    fileprivate static var arrayOffsetsAreTeardowns: Bool {
        arrayCountOffset == AnyArrayTeardown.countOffset && arrayElementsOffset == AnyArrayTeardown.elementsOffset
    }

    /// Writes `value` (of exactly the type `direct` names) into value-array slot `slot`,
    /// taking it (the caller's value ends here: no copy, no retain of a string's storage):
    /// as memory when the value has no references or is a string and the slot holds `nil` or
    /// a value without references (nothing to release), else through the value witnesses.
    @inline(__always)
    func writeArraySlot(_ value: consuming Any?, _ slot: Int, _ direct: EntityLayout.DirectStore) {
        if direct.copy != .generic {
            // The object's own storage: read in place when the array alone holds it (a new
            // object's array after its insert; `copy` is not generic only where the layout facts
            // hold), else made unique. Nothing changes the array until the write below, so the
            // address stays valid.
            let base: UnsafeMutablePointer<Any?>
            // The storage object, from the array's one word (no retain); held by the array
            // alone, its elements are written in place (the shared empty array is immortal:
            // never read as unique).
            let storage = withUnsafeMutablePointer(to: &values) { UnsafeRawPointer($0).load(as: UnsafeMutableRawPointer.self) }
            if !StrongReferenceCount.mayHaveOtherOwners(storage),
               slot < storage.load(fromByteOffset: Self.arrayCountOffset, as: Int.self) {
                base = (storage + Self.arrayElementsOffset).assumingMemoryBound(to: Any?.self)
            } else {
                base = values.withUnsafeMutableBufferPointer { $0.baseAddress! }
            }
            let target = base + slot
            let old = AnyContainerMetadata.word(at: UnsafeRawPointer(target))
            if old == 0 || (old == direct.word && direct.copy == .bitwise) {
                // The old value (nil or plain data) needs no destruction: the new one moves in.
                target.initialize(to: consume value)
                return
            }
        }
        values[slot] = value
    }
}
