// Delete rules: what deleting an object does to the objects its relationships reach.
import Foundation
import KeyValueCoding

extension ManagedObjectContext {
    /// The objects `object`'s cascade relationships reach (deleted with it).
    package func cascadeTargets(of object: ManagedObject) -> [ManagedObject] {
        var targets: [ManagedObject] = []
        // Only the relationship slots (an entity without relationships has nothing to do; no
        // attribute's description is copied to be looked at).
        let layout = object.layout
        for slot in layout.relationshipSlots {
            guard case .relationship(let relationship) = layout.properties[slot], relationship.deleteRule == .cascade else { continue }
            targets += Self.members(object.slotValue(slot))
        }
        return targets
    }

    /// Takes a deleted object out of the inverses of the objects its cascade and nullify
    /// relationships reach; deny and no-action leave them (deny is checked at save).
    package func nullifyInverses(of object: ManagedObject) {
        let layout = object.layout
        for slot in layout.relationshipSlots {
            guard case .relationship(let relationship) = layout.properties[slot] else { continue }
            switch relationship.deleteRule {
            case .cascade, .nullify:
                nullify(relationship, of: object, related: Self.members(object.slotValue(slot)))
            case .deny, .noAction:
                break
            }
        }
    }

    /// Removes the deleted object from the inverse of each related object.
    private func nullify(_ relationship: RelationshipDescription, of object: ManagedObject, related: [ManagedObject]) {
        guard let inverseName = relationship.inverseName else { return }
        for target in related where target.managedObjectContext === self {
            maintenanceDepth += 1
            unlink(object, from: target, inverseName: inverseName)
            maintenanceDepth -= 1
        }
    }
}
