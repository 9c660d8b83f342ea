// The fingerprint every peer program prints and checks, so that no figure is compared on
// different work (WORKLOADS.md).

import Foundation

/// What a program found in the data set, computed with its own means (key-value coding,
/// `#Predicate`, plain closures…).
public struct PeerFingerprint: Equatable, Sendable {
    public var firstName: String
    public var firstAge: Int
    public var managerName: String
    public var sum: Double
    public var maximum: Double
    public var distinctPayees: Int
    public var sortedFirst: (lastName: String, age: Int)
    public var sortedLast: (lastName: String, age: Int)
    public var matches: Int

    public init(firstName: String, firstAge: Int, managerName: String, sum: Double, maximum: Double,
                distinctPayees: Int, sortedFirst: (lastName: String, age: Int),
                sortedLast: (lastName: String, age: Int), matches: Int) {
        self.firstName = firstName
        self.firstAge = firstAge
        self.managerName = managerName
        self.sum = sum
        self.maximum = maximum
        self.distinctPayees = distinctPayees
        self.sortedFirst = sortedFirst
        self.sortedLast = sortedLast
        self.matches = matches
    }

    /// The values WORKLOADS.md states for the data set.
    public static let expected = PeerFingerprint(
        firstName: "mallory", firstAge: 38, managerName: "Chris", sum: 5_007_573.31, maximum: 999.9,
        distinctPayees: 100, sortedFirst: ("Last000", 80), sortedLast: ("Last999", 18), matches: 31_873)

    /// The printed line, the same in every program (the Objective-C one included):
    /// `fingerprint first=mallory/38 manager=Chris sum=5007573.31 max=999.90 payees=100 sorted=Last000/80..Last999/18 matches=31873`.
    public var line: String {
        "fingerprint first=\(firstName)/\(firstAge) manager=\(managerName)"
            + " sum=\(String(format: "%.2f", sum)) max=\(String(format: "%.2f", maximum))"
            + " payees=\(distinctPayees)"
            + " sorted=\(sortedFirst.lastName)/\(sortedFirst.age)..\(sortedLast.lastName)/\(sortedLast.age)"
            + " matches=\(matches)"
    }

    public static func == (lhs: PeerFingerprint, rhs: PeerFingerprint) -> Bool { lhs.line == rhs.line }
}
