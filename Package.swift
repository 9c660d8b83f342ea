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
        .executable(name: "fruit-stand", targets: ["fruit-stand"]),
        .executable(name: "bug-tracker", targets: ["bug-tracker"]),
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
        // One predicate compiler for the SQL stores, parameterised by a dialect (SQLite,
        // PostgreSQL): package declarations only, not a product.
        .target(name: "SQLCompiling", dependencies: ["ManagedObjects", "Predicates"],
                path: "Sources/SQLCompiling", swiftSettings: strict),
        // The system SQLite library (libsqlite3-dev on Linux; .ci/run installs it when missing).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteStore", dependencies: ["ManagedObjects", "Predicates", "SQLCompiling", "CSQLite", "ObjectGraphInternals"],
                path: "Sources/SQLiteStore", swiftSettings: strict),
        // The system libpq (libpq-dev on Linux; .ci/run installs it when missing).
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(name: "PostgreSQLStore", dependencies: ["ManagedObjects", "Predicates", "SQLCompiling", "CLibPQ", "ObjectGraphInternals"],
                path: "Sources/PostgreSQLStore", swiftSettings: strict),
        .target(name: "ObjectGraph",
                dependencies: ["KeyValueCoding", "KeyValueObserving", "UndoManagement", "Predicates",
                               "ManagedObjects", "SQLiteStore", "PostgreSQLStore"],
                path: "Sources/ObjectGraph", swiftSettings: strict),

        // Benchmarks: one executable, `swift run -c release benchmarks`.
        .executableTarget(name: "Benchmarks", dependencies: ["ObjectGraph", "CLibPQ"],
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
        .target(name: "TestSupport", dependencies: ["KeyValueCoding", "KeyValueObserving", "Predicates", "ManagedObjects", "ObjectGraphInternals", "UndoManagement"],
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
                    dependencies: ["SQLiteStore", "PostgreSQLStore", "ManagedObjects", "TestSupport", "sqlite-store-crash-helper"],
                    path: "Tests/SQLiteStoreTests", exclude: ["Fixtures", "CrashHelper"], swiftSettings: strict),
        // The child process of the SQLite store's crash and two-writer tests (a dependency of
        // SQLiteStoreTests, so that `swift test` builds it).
        .executableTarget(name: "sqlite-store-crash-helper", dependencies: ["SQLiteStore", "ManagedObjects"],
                          path: "Tests/SQLiteStoreTests/CrashHelper", swiftSettings: strict),
        // Runs against the server of OBJECTGRAPH_POSTGRES_URL, or starts one with
        // Scripts/with-postgres.sh --serve.
        .testTarget(name: "PostgreSQLStoreTests",
                    dependencies: ["PostgreSQLStore", "SQLCompiling", "ManagedObjects", "TestSupport", "FanOutSupport",
                                   "postgresql-store-stress-helper", "pg-fanout-helper"],
                    path: "Tests/PostgreSQLStoreTests", exclude: ["StressHelper"], swiftSettings: strict),
        // The child processes of the PostgreSQL store's many-process test (a dependency of
        // PostgreSQLStoreTests, so that `swift test` builds it).
        .executableTarget(name: "postgresql-store-stress-helper", dependencies: ["PostgreSQLStore", "ManagedObjects"],
                          path: "Tests/PostgreSQLStoreTests/StressHelper", swiftSettings: strict),
        // The other process of the fan-out tests (a dependency of PostgreSQLStoreTests, so that
        // `swift test` builds it).
        .executableTarget(name: "pg-fanout-helper", dependencies: ["PostgreSQLStore", "ManagedObjects", "Predicates", "FanOutSupport"],
                          path: "Tests/PostgreSQLFanOutHelper", swiftSettings: strict),
        // What the fan-out tests and their child process share (a model, a history follower);
        // no Testing, so that the child process can link it.
        .target(name: "FanOutSupport", dependencies: ["ManagedObjects"], path: "Tests/FanOutSupport", swiftSettings: strict),
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
                dependencies: ["KeyValueCoding", "UndoManagement", "Predicates", "ManagedObjects", "SQLiteStore",
                               "PostgreSQLStore"],
                path: "Samples/Theater", resources: [.copy("Resources/Theater.xcdatamodeld")],
                swiftSettings: strict),
        .executableTarget(name: "theater", dependencies: ["Theater"],
                          path: "Samples/theater", swiftSettings: strict),
        .testTarget(name: "TheaterTests", dependencies: ["Theater", "theater", "ManagedObjects", "PostgreSQLStore", "TestSupport"],
                    path: "Tests/TheaterTests", swiftSettings: strict),
        // The fruit stand (issue 18): undo and redo on a persisted graph. Its model is an Xcode
        // data model file, copied unchanged into the library's resource bundle. The tests run the
        // executable (a dependency, so that `swift build --build-tests` builds it).
        .target(name: "FruitStand",
                dependencies: ["KeyValueCoding", "UndoManagement", "Predicates", "ManagedObjects", "SQLiteStore"],
                path: "Samples/FruitStand", resources: [.copy("Resources/FruitStand.xcdatamodeld")],
                swiftSettings: strict),
        .executableTarget(name: "fruit-stand", dependencies: ["FruitStand"],
                          path: "Samples/fruit-stand", swiftSettings: strict),
        .testTarget(name: "FruitStandTests", dependencies: ["FruitStand", "fruit-stand", "ManagedObjects", "SQLiteStore", "CSQLite"],
                    path: "Tests/FruitStandTests", swiftSettings: strict),
        // The bug tracker (issue 17): a custom incremental store on a text file, written
        // against the public interface only (`import ObjectGraph`).
        .target(name: "BugTracker", dependencies: ["ObjectGraph"],
                path: "Samples/BugTracker", swiftSettings: strict),
        .executableTarget(name: "bug-tracker", dependencies: ["BugTracker"],
                          path: "Samples/bug-tracker", swiftSettings: strict),
        .testTarget(name: "BugTrackerTests", dependencies: ["BugTracker", "TestSupport"],
                    path: "Tests/BugTrackerTests", swiftSettings: strict),
        // Runs the peer comparison in quick mode on the debug executables (they are
        // dependencies so that `swift test` builds them).
        .testTarget(name: "PeersTests", dependencies: ["PeerReport", "PeerSupport", "peer-objectgraph", "peer-swift"],
                    path: "Tests/PeersTests", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
