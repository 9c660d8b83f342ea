// Fetch indexes: named, possibly compound indexes a store creates for an entity.
import Foundation

/// An index a store builds over some of an entity's properties, for faster fetches
/// (Apple: `NSFetchIndexDescription`).
///
/// - Important: Thread safety: a `Sendable` value.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One indexed property, in index order (Apple: `NSFetchIndexElementDescription`).
    public struct Element: Sendable, Hashable {
        /// How the property is indexed.
        public enum Kind: String, Sendable, Hashable {
            /// A B-tree index (the default).
            case binary = "Binary"
            /// An R-tree index (spatial queries over numbers).
            case rTree = "RTree"
        }
        /// The indexed property's name.
        public var propertyName: String
        /// The index kind.
        public var kind: Kind
        /// Whether the index is ascending (default `true`).
        public var isAscending: Bool

        /// Creates an index element.
        ///
        /// - Parameters:
        ///   - propertyName: The indexed property.
        ///   - kind: B-tree (default) or R-tree.
        ///   - isAscending: The order (default ascending).
        public init(propertyName: String, kind: Kind = .binary, isAscending: Bool = true) {
            self.propertyName = propertyName
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name (unique in the model).
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]
    /// A predicate limiting the index to some rows (a partial index), as format text, or `nil`.
    public var partialIndexPredicate: String?

    /// Creates a fetch index.
    ///
    /// - Parameters:
    ///   - name: The index name.
    ///   - elements: The indexed properties, in order.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
        self.partialIndexPredicate = nil
    }
}
