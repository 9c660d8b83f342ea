// Delete rules: what deleting an object does to the objects its relationships reach.
import Foundation
import KeyValueCoding

extension ManagedObjectContext {
    /// Applies `object`'s delete rules: cascade deletes related objects, nullify removes the
    /// object from their inverse; deny and no-action leave them (deny is checked at save).
    package func applyDeleteRules(to object: ManagedObject) {
        for (slot, property) in object.layout.properties.enumerated() {
            guard case .relationship(let relationship) = property else { continue }
            let related = Self.members(object.slotValue(slot))
            switch relationship.deleteRule {
            case .cascade:
                for target in related { delete(target) }
                nullify(relationship, of: object, related: related)
            case .nullify:
                nullify(relationship, of: object, related: related)
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
