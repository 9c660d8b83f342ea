// Stores that take the rows of saved objects packed (StoreRowColumns) from a saving context.
import Foundation

/// A store that takes the inserted and updated rows of a save packed (``StoreRowColumns``),
/// in a shape it names per entity, when the saving context can make them.
///
/// A context hands a store that does not conform dictionary rows, as always; one that
/// conforms gets packed rows for the objects of entities whose shape it names and whose saved
/// attributes are all of types whose constants give back exactly the value (strings,
/// integers, doubles, booleans, dates), and dictionary rows for the rest. Such a store must
/// read every row through ``StoreRow/attributes`` or ``StoreRow/attributeValue(named:)`` or,
/// for a row of its own shape, by position.
///
/// - Important: Thread safety: called from the saving context's thread; the store answers
///   under its own lock.
package protocol PackedRowStore: PersistentStore {
    /// The shape of the packed rows of the entity named `entityName` the store takes (the same
    /// instance each time, so that the store can recognise its rows by identity), or `nil`
    /// when it takes dictionary rows for that entity.
    ///
    /// - Parameter entityName: An entity of the store's model.
    /// - Returns: The shape, or `nil`.
    func packedRowShape(forEntityNamed entityName: String) -> StoreRowShape?
}
