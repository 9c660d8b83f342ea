// Set mutations from any sequence of hashable values: `proxy.union(actors)`.
import Foundation

extension KeyValueMutableSet {
    /// Adds every element of `elements` (Apple: `unionSet:`), for any sequence of hashable
    /// values: `try movie.mutableSetValue(forKey: "actors").union(actors)`.
    public func union<Elements: Sequence>(_ elements: Elements) throws where Elements.Element: Hashable {
        try union(Set(elements.map { AnyHashable($0) }))
    }

    /// Removes every element of `elements` (Apple: `minusSet:`).
    public func subtract<Elements: Sequence>(_ elements: Elements) throws where Elements.Element: Hashable {
        try subtract(Set(elements.map { AnyHashable($0) }))
    }

    /// Keeps only the members also in `elements` (Apple: `intersectSet:`).
    public func formIntersection<Elements: Sequence>(_ elements: Elements) throws where Elements.Element: Hashable {
        try formIntersection(Set(elements.map { AnyHashable($0) }))
    }

    /// Replaces the members with the elements of `elements` (Apple: `setSet:`).
    public func replaceAll<Elements: Sequence>(with elements: Elements) throws where Elements.Element: Hashable {
        try replaceAll(with: Set(elements.map { AnyHashable($0) }))
    }
}
