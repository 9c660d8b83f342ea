// A section of a fetched results controller, and the (section, row) index path into the sections.
import Foundation

/// A position in a fetched results controller's sections: a section number and a row inside it
/// (Apple: the `IndexPath` a controller hands to a table view, with `section` and `row`).
///
/// Index paths order by section, then by row.
///
/// - Important: Thread safety: a `Sendable` value.
public struct FetchedResultsIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section number, from 0.
    public var section: Int
    /// The row inside the section, from 0.
    public var row: Int

    /// Creates an index path.
    ///
    /// - Parameters:
    ///   - row: The row inside the section.
    ///   - section: The section number.
    public init(row: Int, section: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then by row.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, as Foundation prints an index path.
    public var description: String { "[\(section), \(row)]" }
}

/// One section of a fetched results controller's results: the objects that share a value of the
/// section key path, in the fetch request's order (Apple: `NSFetchedResultsSectionInfo`).
///
/// A section is a value taken from the controller: it does not change when the controller's
/// results change; ask the controller again after a change.
///
/// - Important: Thread safety: not `Sendable` (it holds managed objects); use it on the thread of
///   the controller's context.
public struct FetchedResultsSection {
    /// The section's name: the description of the section key path's value its objects share,
    /// `""` for `nil` (and the one section's name when there is no section key path).
    public let name: String
    /// The section's title in a section index, or `nil` (from the delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)``;
    /// by default the capitalised first letter of the name).
    public let indexTitle: String?
    /// The section's objects, in the fetch request's order.
    public let objects: [ManagedObject]

    /// The number of objects in the section (Apple: `numberOfObjects`).
    public var numberOfObjects: Int { objects.count }

    package init(name: String, indexTitle: String?, objects: [ManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        self.objects = objects
    }
}

/// The state of one section inside the controller (objects kept in order, changed in place).
struct SectionState {
    var name: String
    var objects: [ManagedObject]

    /// The row of `object`, looked for by identity.
    ///
    /// - Complexity: O(*n*) in the section's size.
    func row(of object: ManagedObject) -> Int? {
        objects.firstIndex { $0 === object }
    }
}
