// The bug tracker's model: one entity, Bug.
import ObjectGraph

/// The model the tracker and its store share.
public enum BugTrackerModel {
    /// A new model (a coordinator freezes the model it uses): `Bug` with `number` (given by the
    /// store: the bug's key in the file), `title` and `isFixed`.
    ///
    /// - Throws: Never in practice; the model is fixed.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: BugFileStore.entityName, properties: [
                .attribute("number", .integer64),
                .attribute("title", .string, isOptional: false),
                .attribute("isFixed", .boolean, isOptional: false, defaultValue: false),
            ]),
        ])
    }
}
