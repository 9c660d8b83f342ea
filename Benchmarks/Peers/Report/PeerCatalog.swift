// The programs and workloads of the peer comparison, in report order.

/// One program of the comparison: how the report names and colours it.
public struct PeerProgram: Sendable, Equatable {
    /// The id the program prints on its `peer` line (`objectgraph-observed`, `gnustep`…).
    public var id: String
    /// The name in the table and the chart's legend.
    public var label: String
    /// The bar colour in the chart.
    public var colour: String
    /// The name in the ratio table's headers.
    public var shortLabel: String {
        switch id {
        case "objectgraph-observed": "OG @Observed"
        case "objectgraph-plain": "OG plain"
        case "gnustep": "GNUstep"
        case "observation": "Observation"
        case "foundation": "#Predicate / KeyPathComparator"
        default: "plain Swift"
        }
    }

    /// Whether this is one of ObjectGraph's own programs (its figures get ratios to the peers).
    public var isObjectGraph: Bool

    public static let objectGraphObserved = PeerProgram(
        id: "objectgraph-observed", label: "ObjectGraph, @Observed models", colour: "#0072B2", isObjectGraph: true)
    public static let objectGraphPlain = PeerProgram(
        id: "objectgraph-plain", label: "ObjectGraph, plain properties", colour: "#56B4E9", isObjectGraph: true)
    public static let gnustep = PeerProgram(
        id: "gnustep", label: "GNUstep Foundation (Objective-C)", colour: "#D55E00", isObjectGraph: false)
    public static let observation = PeerProgram(
        id: "observation", label: "Swift Observation", colour: "#E69F00", isObjectGraph: false)
    public static let foundation = PeerProgram(
        id: "foundation", label: "swift-foundation #Predicate / KeyPathComparator", colour: "#009E73",
        isObjectGraph: false)
    public static let swift = PeerProgram(
        id: "swift", label: "plain Swift", colour: "#555555", isObjectGraph: false)

    /// Every program, in table and legend order.
    public static let all: [PeerProgram] = [objectGraphObserved, objectGraphPlain, gnustep, observation, foundation, swift]
}

/// One workload: its name (as the programs print it) and what one operation is.
public struct PeerWorkload: Sendable, Equatable {
    public var name: String
    public var operation: String

    /// Every workload, in report order (WORKLOADS.md, plus `property_get`).
    public static let all: [PeerWorkload] = [
        PeerWorkload(name: "property_get", operation: "read age through the property (no key)"),
        PeerWorkload(name: "kvc_get", operation: "value for key name"),
        PeerWorkload(name: "kvc_get_int", operation: "value for key age"),
        PeerWorkload(name: "kvc_set", operation: "set age by key (1,024 prepared boxed numbers)"),
        PeerWorkload(name: "kvc_keypath", operation: "value for key path department.manager.name"),
        PeerWorkload(name: "kvc_sum", operation: "@sum.amount over 10,000 transactions"),
        PeerWorkload(name: "kvc_avg", operation: "@avg.amount over 10,000 transactions"),
        PeerWorkload(name: "kvc_max", operation: "@max.amount over 10,000 transactions"),
        PeerWorkload(name: "kvc_distinctUnion", operation: "@distinctUnionOfObjects.payee over 10,000"),
        PeerWorkload(name: "kvo_set_unobserved", operation: "set age, nobody observing"),
        PeerWorkload(name: "kvo_notify_1", operation: "set age, 1 observer (old + new)"),
        PeerWorkload(name: "kvo_notify_10", operation: "set age, 10 observers (old + new)"),
        PeerWorkload(name: "kvo_register", operation: "add + remove an observer of age"),
        PeerWorkload(name: "kvo_register_kept", operation: "the same, a second observer kept"),
        PeerWorkload(name: "kvo_keypath_chain_leaf", operation: "observer of department.manager.name: set the name"),
        PeerWorkload(name: "kvo_keypath_chain_rewire", operation: "the same: replace the manager"),
        PeerWorkload(name: "undo_register", operation: "register one action in its own group"),
        PeerWorkload(name: "undo_undo", operation: "undo one group (1,000,000 in a row)"),
        PeerWorkload(name: "undo_redo", operation: "redo one group (1,000,000 in a row)"),
        PeerWorkload(name: "predicate_parse", operation: "parse the predicate string"),
        PeerWorkload(name: "predicate_eval", operation: "evaluate the predicate, per person"),
        PeerWorkload(name: "sort_100k", operation: "sort 100,000 persons (lastName, age desc.)"),
    ]
}
