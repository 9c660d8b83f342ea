// Saving: an updated row's changed columns alone (as Core Data writes only the changed
// attributes), with its version checked.
import Foundation
import ManagedObjects

extension SQLiteStoreEngine.EntityWriter {
    /// Each attribute's slot (in ``names`` order), and each to-one relationship kept in the row
    /// with its index in the entity's relationships and its slot.
    typealias SlotMap = (attributes: [Int], foreignKeys: [(relationship: Int, slot: Int)])

    /// Where each attribute and each to-one relationship of `entity` lies in its objects'
    /// slots (its row shape's slots); `nil` when the entity has no row shape or a property
    /// has no slot.
    static func slotMap(of entity: SQLiteSchema.Entity) -> SlotMap? {
        guard let shape = entity.rowShape, shape.slots.count == entity.attributes.count,
              shape.slotKeys.count <= 64, shape.slots.allSatisfy({ $0 >= 0 && $0 < 64 }) else { return nil }
        var foreignKeys: [(relationship: Int, slot: Int)] = []
        for index in entity.relationships.indices {
            guard case .foreignKey = entity.relationships[index].storage else { continue }
            guard let slot = shape.slotKeys.firstIndex(of: entity.relationships[index].relationship.name) else { return nil }
            foreignKeys.append((index, slot))
        }
        return (shape.slots, foreignKeys)
    }

    /// `UPDATE … SET Z_OPT = ?, <the columns of the slots in mask> WHERE Z_PK = ? AND Z_ENT = ?
    /// AND Z_OPT = ?`, the columns in the order of ``SQLiteStoreEngine/bindColumnValues(of:writer:to:from:)``.
    func changedColumnsUpdate(_ mask: UInt64, slotMap: SlotMap,
                              connection: SQLiteConnection) throws -> SQLiteStatement {
        // A save's rows mostly change the same columns: the last statement is kept at hand.
        if let last = lastChangedColumnsUpdate, last.mask == mask { return last.statement }
        if let made = changedColumnUpdates[mask] {
            lastChangedColumnsUpdate = (mask, made)
            return made
        }
        var assignments = ["Z_OPT = ?"]
        for position in slotMap.attributes.indices where mask & (1 << UInt64(slotMap.attributes[position])) != 0 {
            assignments.append("\(entity.attributes[position].column) = ?")
        }
        for (index, slot) in slotMap.foreignKeys where mask & (1 << UInt64(slot)) != 0 {
            guard case .foreignKey(let column, let entityColumn, _) = entity.relationships[index].storage else { continue }
            assignments.append("\(column) = ?")
            if let entityColumn { assignments.append("\(entityColumn) = ?") }
        }
        let statement = try connection.statement("UPDATE \(table) SET \(assignments.joined(separator: ", ")) "
                                                 + "WHERE Z_PK = ? AND Z_ENT = ? AND Z_OPT = ?")
        changedColumnUpdates[mask] = statement
        lastChangedColumnsUpdate = (mask, statement)
        return statement
    }
}

extension SQLiteStoreEngine {
    /// Writes the columns of the slots in `mask` of an updated row, and its new `version`,
    /// when the row is still at the version it carries (`StoreSaveChanges.updatedSlotMasks`:
    /// the other columns hold the object's values already at that version).
    ///
    /// - Returns: Whether exactly the row changed (`false`: not at its version); `nil`, having
    ///   written nothing, when the row is written whole instead (every column asked for, a row
    ///   not packed in the entity's shape, or an entity without a slot map).
    func writeChangedColumns(of row: StoreRow, mask: UInt64, version: Int64, writer: EntityWriter) throws -> Bool? {
        guard mask != .max, let slotMap = writer.slotMap, let shape = writer.entity.rowShape,
              row.columns?.shape === shape, let columns = row.columns else { return nil }
        let entity = writer.entity
        let update = try writer.changedColumnsUpdate(mask, slotMap: slotMap, connection: connection)
        update.start()
        try update.bind(integer: version, at: 1)
        var index = 2
        for position in slotMap.attributes.indices where mask & (1 << UInt64(slotMap.attributes[position])) != 0 {
            try bind(columns.constant(at: position), type: writer.types[position], position: position, entity: entity,
                     to: update, at: index)
            index += 1
        }
        for (relationshipIndex, slot) in slotMap.foreignKeys where mask & (1 << UInt64(slot)) != 0 {
            index = try bindForeignKey(of: row, relationship: relationshipIndex, entity: entity, to: update, at: index)
        }
        try update.bind(integer: try key(of: row.objectID), at: index)
        try update.bind(integer: writer.number, at: index + 1)
        try update.bind(integer: row.version, at: index + 2)
        return try update.runBoundCountingChanges() == 1
    }
}
