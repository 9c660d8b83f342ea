// swift-tools-version:6.0
// ObjectGraph: key-value coding, key-value observing, undo, predicates and a managed-object
// stack for Swift on Linux. Layering and names: Docs/Architecture.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ObjectGraph",
    // Mutex and Atomic (Synchronization) need these Apple platform versions.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "benchmarks", targets: ["Benchmarks"]),
        .executable(name: "accelerometer-filter", targets: ["accelerometer-filter"]),
        .executable(name: "theater", targets: ["theater"]),
        // The peer comparison (issue 20): `Benchmarks/Peers/run.sh` builds and runs them.
        .executable(name: "peers", targets: ["peers"]),
        .executable(name: "peer-objectgraph", targets: ["peer-objectgraph"]),
        .executable(name: "peer-swift", targets: ["peer-swift"]),
    ],
    targets: [
        // Layers, bottom up (see Docs/Architecture.md). ObjectGraphInternals is the shared
        // internal layer: `package` declarations only, not a product.
        .target(name: "ObjectGraphInternals", path: "Sources/ObjectGraphInternals", swiftSettings: strict),
        .target(name: "KeyValueCoding", dependencies: ["ObjectGraphInternals"],
                path: "Sources/KeyValueCoding", swiftSettings: strict),
        .target(name: "KeyValueObserving", dependencies: ["KeyValueCoding", "ObjectGraphInternals"],
                path: "Sources/KeyValueObserving", swiftSettings: strict),
        .target(name: "UndoManagement", dependencies: ["KeyValueObserving", "ObjectGraphInternals"],
                path: "Sources/UndoManagement", swiftSettings: strict),
        .target(name: "Predicates", dependencies: ["KeyValueCoding"],
                path: "Sources/Predicates", swiftSettings: strict),
        .target(name: "ManagedObjects",
                dependencies: ["KeyValueCoding", "KeyValueObserving", "UndoManagement", "Predicates",
                               "ObjectGraphInternals"],
                path: "Sources/ManagedObjects", swiftSettings: strict),
        // The system SQLite library (libsqlite3-dev on Linux; .ci/run installs it when missing).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteStore", dependencies: ["ManagedObjects", "Predicates", "CSQLite", "ObjectGraphInternals"],
                path: "Sources/SQLiteStore", swiftSettings: strict),
        .target(name: "ObjectGraph",
                dependencies: ["KeyValueCoding", "KeyValueObserving", "UndoManagement", "Predicates",
                               "ManagedObjects", "SQLiteStore"],
                path: "Sources/ObjectGraph", swiftSettings: strict),

        // Benchmarks: one executable, `swift run -c release benchmarks`.
        .executableTarget(name: "Benchmarks", dependencies: ["ObjectGraph"],
                          path: "Benchmarks", exclude: ["Peers"], swiftSettings: strict),

        // The peer comparison (issue 20, Benchmarks/Peers/README.md): one data set and one set
        // of workloads on ObjectGraph, GNUstep (GNUstep/peer-gnustep.m, built by run.sh), Swift's
        // Observation module, swift-foundation's #Predicate and KeyPathComparator, plain Swift.
        .target(name: "PeerSupport", path: "Benchmarks/Peers/Support", swiftSettings: strict),
        .executableTarget(name: "peer-objectgraph", dependencies: ["ObjectGraph", "PeerSupport"],
                          path: "Benchmarks/Peers/ObjectGraphPeer", swiftSettings: strict),
        .executableTarget(name: "peer-swift", dependencies: ["PeerSupport"],
                          path: "Benchmarks/Peers/SwiftPeer", swiftSettings: strict),
        .target(name: "PeerReport", dependencies: ["PeerSupport"],
                path: "Benchmarks/Peers/Report", swiftSettings: strict),
        .executableTarget(name: "peers", dependencies: ["PeerReport"],
                          path: "Benchmarks/Peers/Runner", swiftSettings: strict),

        // Test-only helpers (change recorder, lifetime tracker, labelled combinatorial loops),
        // used by every test target. Not a product.
        .target(name: "TestSupport", dependencies: ["KeyValueCoding", "KeyValueObserving", "ManagedObjects"],
                path: "Tests/TestSupport", swiftSettings: strict),

        // Tests: one target per layer.
        .testTarget(name: "KeyValueCodingTests", dependencies: ["KeyValueCoding", "ObjectGraphInternals", "TestSupport"],
                    path: "Tests/KeyValueCodingTests", swiftSettings: strict),
        .testTarget(name: "KeyValueObservingTests", dependencies: ["KeyValueObserving", "ObjectGraphInternals", "TestSupport"],
                    path: "Tests/KeyValueObservingTests", swiftSettings: strict),
        .testTarget(name: "UndoManagementTests", dependencies: ["UndoManagement", "ObjectGraphInternals", "TestSupport"],
                    path: "Tests/UndoManagementTests", swiftSettings: strict),
        .testTarget(name: "ManagedObjectsTests", dependencies: ["ManagedObjects", "ObjectGraphInternals", "TestSupport"],
                    path: "Tests/ManagedObjectsTests", exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "SQLiteStoreTests",
                    dependencies: ["SQLiteStore", "ManagedObjects", "TestSupport", "sqlite-store-crash-helper"],
                    path: "Tests/SQLiteStoreTests", exclude: ["Fixtures", "CrashHelper"], swiftSettings: strict),
        // The child process of the SQLite store's crash and two-writer tests (a dependency of
        // SQLiteStoreTests, so that `swift test` builds it).
        .executableTarget(name: "sqlite-store-crash-helper", dependencies: ["SQLiteStore", "ManagedObjects"],
                          path: "Tests/SQLiteStoreTests/CrashHelper", swiftSettings: strict),
        .testTarget(name: "PredicatesTests", dependencies: ["Predicates", "ObjectGraphInternals", "TestSupport"],
                    path: "Tests/PredicatesTests", swiftSettings: strict),

        // Samples (issue 6): each sample is an executable whose logic lives in a library target.
        .target(name: "AccelerometerFilter", dependencies: ["KeyValueCoding", "KeyValueObserving"],
                path: "Samples/AccelerometerFilter", swiftSettings: strict),
        .executableTarget(name: "accelerometer-filter", dependencies: ["AccelerometerFilter"],
                          path: "Samples/accelerometer-filter", swiftSettings: strict),
        .testTarget(name: "AccelerometerFilterTests", dependencies: ["AccelerometerFilter", "TestSupport"],
                    path: "Tests/AccelerometerFilterTests", swiftSettings: strict),
        .target(name: "Theater",
                dependencies: ["KeyValueCoding", "KeyValueObserving", "UndoManagement", "Predicates"],
                path: "Samples/Theater", swiftSettings: strict),
        .executableTarget(name: "theater", dependencies: ["Theater"],
                          path: "Samples/theater", swiftSettings: strict),
        .testTarget(name: "TheaterTests", dependencies: ["Theater", "TestSupport"],
                    path: "Tests/TheaterTests", swiftSettings: strict),
        // Runs the peer comparison in quick mode on the debug executables (they are
        // dependencies so that `swift test` builds them).
        .testTarget(name: "PeersTests", dependencies: ["PeerReport", "PeerSupport", "peer-objectgraph", "peer-swift"],
                    path: "Tests/PeersTests", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
