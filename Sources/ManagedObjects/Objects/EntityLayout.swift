// How a managed object of one entity stores its values: a slot per property, and the key table
// that gives key-value coding (and so observing, predicates and sorting) the entity's keys.
import Foundation
import KeyValueCoding
import Synchronization

/// The storage plan of one entity's objects: every property (inherited ones first) has a slot
/// in the object's value array, and a key table of accessor properties reads and writes the
/// slots. One layout per entity per model, built on first use and kept by the model graph.
package final class EntityLayout: Sendable {
    /// The resolved entity.
    package let entity: EntityDescription
    /// The properties in slot order (the entity's `allProperties`).
    package let properties: [PropertyDescription]
    /// The slot of each property name.
    package let slotByName: [String: Int]
    /// The entity's keys for key-value coding.
    package let keyTable: KeyValueKeyTable

    /// The value of a slot with nothing in it: an empty collection for a to-many relationship
    /// (those are never `nil`), `nil` otherwise.
    package func emptyValue(_ slot: Int) -> Any? {
        guard case .relationship(let relationship) = properties[slot] else { return nil }
        switch relationship.cardinality {
        case .toOne: return nil
        case .toMany: return Set<ManagedObject>()
        case .orderedToMany: return [ManagedObject]()
        }
    }

    /// Every slot empty (see ``emptyValue(_:)``).
    package var emptyValues: ContiguousArray<Any?> {
        ContiguousArray(properties.indices.map(emptyValue))
    }

    package init(entity: EntityDescription) {
        self.entity = entity
        properties = entity.allProperties
        var slots: [String: Int] = [:]
        for (slot, property) in properties.enumerated() { slots[property.name] = slot }
        slotByName = slots
        keyTable = KeyValueKeyTable(properties: properties.enumerated().map { slot, property in
            Self.keyValueProperty(for: property, slot: slot)
        })
    }

    private static func keyValueProperty(for property: PropertyDescription, slot: Int) -> KeyValueProperty {
        switch property {
        case .attribute(let attribute):
            return attributeProperty(attribute, slot: slot)
        case .relationship(let relationship):
            switch relationship.cardinality {
            case .toOne: return slotProperty(relationship.name, ManagedObject?.self, slot: slot)
            case .toMany: return slotProperty(relationship.name, Set<ManagedObject>.self, slot: slot)
            case .orderedToMany: return slotProperty(relationship.name, [ManagedObject].self, slot: slot)
            }
        case .fetchedProperty(let fetched):
            return slotProperty(fetched.name, [ManagedObject].self, slot: slot, readOnly: true)
        }
    }

    private static func attributeProperty(_ attribute: AttributeDescription, slot: Int) -> KeyValueProperty {
        let name = attribute.name
        switch attribute.attributeType {
        case .integer16: return slotProperty(name, Int16?.self, slot: slot)
        case .integer32: return slotProperty(name, Int32?.self, slot: slot)
        case .integer64: return slotProperty(name, Int64?.self, slot: slot)
        case .decimal: return slotProperty(name, Decimal?.self, slot: slot)
        case .double: return slotProperty(name, Double?.self, slot: slot)
        case .float: return slotProperty(name, Float?.self, slot: slot)
        case .string: return slotProperty(name, String?.self, slot: slot)
        case .boolean: return slotProperty(name, Bool?.self, slot: slot)
        case .date: return slotProperty(name, Date?.self, slot: slot)
        case .binaryData: return slotProperty(name, Data?.self, slot: slot)
        case .uuid: return slotProperty(name, UUID?.self, slot: slot)
        case .uri: return slotProperty(name, URL?.self, slot: slot)
        case .objectID: return slotProperty(name, ManagedObjectID?.self, slot: slot)
        case .transformable, .composite, .undefined: return slotProperty(name, Any?.self, slot: slot)
        }
    }

    /// An optional-valued key reading and writing slot `slot`.
    private static func slotProperty<Wrapped>(_ key: String, _ type: Wrapped?.Type, slot: Int) -> KeyValueProperty {
        KeyValueProperty(key: key, type: Wrapped?.self,
                         get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Wrapped },
                         set: { object, value in
                             unsafeDowncast(object, to: ManagedObject.self).storeSlotValue(value.map { $0 as Any }, slot)
                         })
    }

    /// A collection-valued key (empty, never nil) reading and writing slot `slot`.
    private static func slotProperty<Value: ExpressibleByArrayLiteral & SendableMetatype>(_ key: String, _ type: Value.Type, slot: Int,
                                                                       readOnly: Bool = false) -> KeyValueProperty {
        let setter: @Sendable (AnyObject, Value) throws -> Void = { object, value in
            unsafeDowncast(object, to: ManagedObject.self).storeSlotValue(value, slot)
        }
        return KeyValueProperty(key: key, type: Value.self,
                                get: { object in unsafeDowncast(object, to: ManagedObject.self).slotValue(slot) as? Value ?? [] },
                                set: readOnly ? nil : setter)
    }
}

/// The layouts of a model graph's entities, built on first use.
package final class EntityLayoutCache: Sendable {
    private let layouts = Mutex<[String: EntityLayout]>([:])

    package init() {}

    /// The layout of `entity` (resolved in the graph that owns this cache).
    package func layout(of entity: EntityDescription) -> EntityLayout {
        layouts.withLock { layouts in
            if let existing = layouts[entity.name] { return existing }
            let layout = EntityLayout(entity: entity)
            layouts[entity.name] = layout
            return layout
        }
    }
}
