// Validation of a managed object: the model's rules for its values, and delete rules.
import Foundation
import KeyValueCoding
import ObjectGraphInternals

extension ManagedObject {
    /// The current values of every property, by key (faults are loaded).
    package var currentValues: [String: Any?] {
        var values: [String: Any?] = [:]
        for (slot, property) in layout.properties.enumerated() { values[property.name] = slotValue(slot) }
        return values
    }

    /// Checks the object's values against its entity's rules: mandatory properties, value and
    /// length bounds, patterns, relationship counts (Apple: the property checks of
    /// `validateForInsert()` and `validateForUpdate()`).
    ///
    /// - Throws: ``ManagedObjectValidationError`` naming the object, entity and key; several
    ///   failures come as one ``ManagedObjectValidationError/Code/multipleErrors`` error.
    package func validateModelRules() throws(ManagedObjectValidationError) {
        // The rules of `EntityDescription.validationErrors(forValues:)`, read from the slots
        // (the layout holds the entity's properties in the same order) without building a
        // dictionary of values per object.
        // The slots (below 64) whose values are seen valid by their type alone, in place.
        let trivial = triviallyValidSlotsInPlace()
        let count = layout.slotTraits.count
        // Every value trivially valid (the usual case): nothing to check.
        if count < 64 && faultedRelationshipSlots == 0 && trivial == (1 << UInt64(count)) - 1 { return }
        var errors: [ManagedObjectValidationError] = []
        for slot in layout.slotTraits.indices {
            if slot < 64 && trivial & (1 << UInt64(slot)) != 0 { continue }
            // A relationship fault is unchanged since the store had it: not loaded to be checked.
            if _slowPath(faultedRelationshipSlots != 0) && isRelationshipFaulted(slot: slot) { continue }
            // A value of exactly the attribute's type with no rules to check cannot fail
            // (validationErrors would find nothing): no description copied, no conversion.
            if layout.slotTraits[slot].isTriviallyValid(slotValue(slot)) { continue }
            switch layout.properties[slot] {
            case .attribute(let attribute):
                errors += attribute.validationErrors(for: slotValue(slot), entity: entity.name)
            case .relationship(let relationship):
                let count = RelationshipDescription.count(of: slotValue(slot))
                if let error = relationship.validationError(count: count, entity: entity.name) { errors.append(error) }
            case .fetchedProperty:
                break
            }
        }
        if let error = ManagedObjectValidationError.combining(errors) {
            throw error.attributed(toObject: objectID.description)
        }
    }

    /// The slots below 64 whose values are trivially valid
    /// (``SlotTraits/isTriviallyValid(containerAt:)``), read in place from the value array (the
    /// `Any?` layout `RuntimeLayout` checks) by the layout's ``TrivialSlotWords``; 0 for an
    /// object with `@Managed` fields or a fault.
    private func triviallyValidSlotsInPlace() -> UInt64 {
        guard !layout.hasFields, !faultFlag, AnyContainerMetadata.isReadable else { return 0 }
        let layout = layout
        return values.withUnsafeBufferPointer { buffer -> UInt64 in
            guard buffer.count == layout.slotTraits.count, let base = buffer.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
            return layout.trivialSlotWords.validSlots(valuesAt: base, traits: layout.slotTraits)
        }
    }

    /// Checks that deleting the object is allowed: no related objects through a relationship
    /// whose delete rule is deny, except objects deleted with it (Apple: the delete rule part of
    /// `validateForDelete()`).
    ///
    /// - Throws: ``ManagedObjectValidationError/Code/relationshipDeniedDelete`` (1600).
    package func validateDeleteRules() throws(ManagedObjectValidationError) {
        // Only the relationship slots: an entity without relationships has no rule to check.
        guard !layout.relationshipSlots.isEmpty else { return }
        // A bit test per related object (no set of the context's deleted objects made).
        let context = managedObjectContext
        func isDeletedWithIt(_ object: ManagedObject) -> Bool {
            guard let context, context.deleted.contains(object) else { return false }
            return object.managedObjectContext === context
        }
        var errors: [ManagedObjectValidationError] = []
        for slot in layout.relationshipSlots {
            guard case .relationship(let relationship) = layout.properties[slot], relationship.deleteRule == .deny else { continue }
            let blocking = ManagedObjectContext.members(slotValue(slot)).filter { !isDeletedWithIt($0) }
            do {
                try relationship.validateForDelete(relatedCount: blocking.count, entity: entity.name)
            } catch {
                errors.append(error)
            }
        }
        if let error = ManagedObjectValidationError.combining(errors) {
            throw error.attributed(toObject: objectID.description)
        }
    }

    /// Computes the derived attributes from their expressions (at save).
    package func computeDerivedAttributes() throws {
        for slot in layout.derivedSlots {
            guard case .attribute(let attribute) = layout.properties[slot], attribute.isDerived else { continue }
            storeLoadedSlotValue(try attribute.derivedValue(for: self), slot)
        }
    }
}

extension ManagedObject {
    /// Checks a value ``setPrimitiveValue(_:forKey:)`` would store in a relationship: the shape
    /// of the relationship's kind and members of its destination entity (or a subentity);
    /// `nil` passes (a to-many slot then stores its empty collection).
    ///
    /// - Throws: ``KeyValueCodingError/typeMismatch(key:type:expected:actual:)`` or, for an
    ///   ordered relationship holding an object twice,
    ///   ``KeyValueCodingError/validationFailed(key:type:reason:)``.
    func checkPrimitiveRelationshipValue(_ value: Any?, for relationship: RelationshipDescription) throws {
        let members: [ManagedObject]
        let expected: String
        switch relationship.cardinality {
        case .toOne:
            expected = relationship.destinationEntityName
            guard let value else { return }
            guard let object = value as? ManagedObject else { throw primitiveMismatch(relationship, expected, value) }
            members = [object]
        case .toMany:
            expected = "Set<ManagedObject> of \(relationship.destinationEntityName)"
            guard let value else { return }
            guard let set = value as? Set<ManagedObject> else { throw primitiveMismatch(relationship, expected, value) }
            members = Array(set)
        case .orderedToMany:
            expected = "[ManagedObject] of \(relationship.destinationEntityName)"
            guard let value else { return }
            guard let array = value as? [ManagedObject] else { throw primitiveMismatch(relationship, expected, value) }
            guard Set(array.map(ObjectIdentifier.init)).count == array.count else {
                throw KeyValueCodingError.validationFailed(key: relationship.name, type: entity.name,
                                                           reason: "an ordered relationship holds each object once")
            }
            members = array
        }
        let graph = managedObjectModel.graph
        for member in members where !graph.isKind(member.entity.name, of: relationship.destinationEntityName) {
            throw KeyValueCodingError.typeMismatch(key: relationship.name, type: entity.name,
                                                   expected: relationship.destinationEntityName, actual: member.entity.name)
        }
    }

    private func primitiveMismatch(_ relationship: RelationshipDescription, _ expected: String, _ value: Any?) -> KeyValueCodingError {
        .typeMismatch(key: relationship.name, type: entity.name, expected: expected,
                      actual: value.map { String(describing: type(of: $0)) } ?? "nil")
    }
}
