// The typed managed objects of the fruit stand: Stand ⟶ Crate ⟶ Fruit (Apple, Orange).

import ManagedObjects

/// A stand: a name and its crates. Deleting a stand deletes its crates (and their fruit).
///
/// Bound to the `Stand` entity of `FruitStand.xcdatamodeld`. Not thread-safe: a stand belongs
/// to the context (and thread) that made or fetched it.
public final class Stand: ManagedObject {
    /// The stand's name: how commands name the stand, unique in a store.
    @Managed public var name: String
    /// The stand's crates (to-many, cascade).
    @Managed public var crates: Set<Crate>

    /// The crates ordered by number.
    public var cratesByNumber: [Crate] { crates.sorted { $0.number < $1.number } }
}

/// A crate of a stand, numbered from 1 within its stand; shown and named as `Stand/number`.
///
/// Deleting a crate deletes its fruit. Not thread-safe, as every managed object.
public final class Crate: ManagedObject {
    /// The crate's number within its stand: 1 for the first crate.
    @Managed public var number: Int16
    /// The stand holding the crate.
    @Managed public var stand: Stand?
    /// The fruit in the crate (to-many, cascade).
    @Managed public var fruit: Set<Fruit>

    /// The name commands use for the crate, such as `Corner/1`.
    public var label: String { "\(stand?.name ?? "?")/\(number)" }
}

/// A fruit in a crate: the abstract entity of ``Apple`` and ``Orange``.
///
/// Not thread-safe, as every managed object.
public class Fruit: ManagedObject {
    /// The radius (in centimetres, say); positive.
    @Managed public var radius: Double
    /// The crate holding the fruit.
    @Managed public var crate: Crate?

    /// The fruit's kind as commands name it: `apple` or `orange`.
    public var kind: String { entity.name.lowercased() }
}

/// An apple: a ``Fruit`` of the `Apple` subentity.
public final class Apple: Fruit {}

/// An orange: a ``Fruit`` of the `Orange` subentity.
public final class Orange: Fruit {}
