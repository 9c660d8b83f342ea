// Every version of a versioned model, for migration.
import Foundation

extension ManagedObjectModel {
    /// Every version of a versioned model folder (`.xcdatamodeld`), in version-name order:
    /// the source models a migration picks from.
    ///
    /// ```swift
    /// let versions = try ManagedObjectModel.versions(contentsOf: folder)
    /// try coordinator.addStore(with: description, sourceModels: versions)
    /// ```
    ///
    /// - Parameter url: A `.xcdatamodeld` folder.
    /// - Returns: One model per version.
    /// - Throws: ``ManagedObjectModelError`` as ``versionNames(in:)`` and
    ///   ``init(contentsOf:versionNamed:)`` throw it.
    public static func versions(contentsOf url: URL) throws(ManagedObjectModelError) -> [ManagedObjectModel] {
        var models: [ManagedObjectModel] = []
        for name in try versionNames(in: url) { models.append(try ManagedObjectModel(contentsOf: url, versionNamed: name)) }
        return models
    }
}
