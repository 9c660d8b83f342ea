import KeyValueCoding
import ObjectGraphInternals

/// Per class, where its `@Observed` properties keep their observer lists: a way to find the
/// list of such a key on an object without the observation table (its lock, hashing and weak
/// reference check).
///
/// Used when registering: a key whose list is attached to the property was checked when the list
/// was made, so a new registration for it needs neither the key path parse nor the check. Classes
/// whose instances supply their own key tables are not described (their keys are found the
/// general way).
///
/// Thread safety: entries are immutable and live as long as the process; reading a property's
/// list is as safe as the property's own setter reading it (see ``Observed``).
final class ObservedSlots: TypeCacheEntry {
    /// One `@Observed` property: its key, the byte offset of its storage, and its wrapper type.
    ///
    /// `@unchecked Sendable`: immutable; the wrapper type is a metatype used only to call its
    /// static accessors, which touch nothing but the object's own storage.
    struct Slot: @unchecked Sendable {
        var key: String
        var offset: Int
        var storage: any ObservedStorage.Type
    }

    let type: Any.Type
    @usableFromInline package var cachedType: Any.Type { type }
    let slots: [Slot]

    init(type: Any.Type) {
        self.type = type
        guard let codable = type as? any KeyValueCodable.Type, !(type is any KeyValueKeyTableProviding.Type) else {
            slots = []
            return
        }
        slots = KeyValueKeyTable.of(codable).properties.compactMap { property in
            guard case .wrapped(let offset, let wrapperType) = property.storage,
                  let observed = wrapperType as? any ObservedStorage.Type else { return nil }
            return Slot(key: property.key, offset: offset, storage: observed)
        }
    }

    /// The observer list attached to the `@Observed` property `key` of `object`, if the class
    /// has such a property and someone observed it before.
    ///
    /// - Complexity: O(*p*) string comparisons for *p* `@Observed` properties of the class.
    @inline(__always)
    static func attachedList(of object: AnyObject, key: String) -> KeyObservers? {
        cache.unmanagedEntry(for: Swift.type(of: object)) { ObservedSlots(type: $0) }
            ._withUnsafeGuaranteedRef { entry -> KeyObservers? in
                for slot in entry.slots where slot.key == key {
                    let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + slot.offset
                    return slot.storage.attachedObservers(at: address)
                }
                return nil
            }
    }

    private static let cache = TypeCache<ObservedSlots>()
}
