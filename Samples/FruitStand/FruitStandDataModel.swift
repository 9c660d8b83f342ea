// The sample's data model: an Xcode data model file shipped as a resource, read at start.

import Foundation
import ManagedObjects

/// Where the fruit stand's data model lives, and how it is loaded and bound to the typed classes.
///
/// The model is `Resources/FruitStand.xcdatamodeld`, written in the XML of Xcode's model
/// editor and copied unchanged into the target's resource bundle: Stand (name) ⟶ Crate
/// (number) ⟶ Fruit (radius), Fruit abstract with the subentities Apple and Orange, each
/// relationship with its inverse, cascading from a stand to its crates and from a crate to its
/// fruit.
public enum FruitStandDataModel {
    /// The model folder in the resource bundle, or nil if the bundle lacks it.
    public static var url: URL? {
        Bundle.module.url(forResource: "FruitStand", withExtension: "xcdatamodeld")
    }

    /// Loads the model and binds ``Stand``, ``Crate``, ``Fruit``, ``Apple`` and ``Orange`` to
    /// their entities.
    ///
    /// A new model each call: a coordinator makes the model it uses read-only.
    ///
    /// - Returns: The bound model.
    /// - Throws: ``FruitStandError/unreadableModel(_:)`` when the file is missing, does not
    ///   load, or does not fit the classes.
    public static func load() throws(FruitStandError) -> ManagedObjectModel {
        guard let url else { throw .unreadableModel("FruitStand.xcdatamodeld is not in the resource bundle") }
        do {
            let model = try ManagedObjectModel(contentsOf: url)
            try model.setManagedObjectClasses([Stand.self, Crate.self, Fruit.self, Apple.self, Orange.self])
            return model
        } catch {
            throw .unreadableModel("\(error)")
        }
    }
}
