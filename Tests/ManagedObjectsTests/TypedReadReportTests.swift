import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
@testable import ManagedObjects

/// What a typed read reports: to Observation (the object's first read makes its registrar and
/// reports at once; later ones go straight to the registrar) and to a key-path probe (through
/// the flag the probe sets on the object it reads).
@Suite struct TypedReadReportTests {
    @Test func anObjectsFirstTypedReadInsideTrackingIsSeen() throws {
        let context = ManagedObjectContext(model: try TypedFixtures.model())
        let crate = try context.insertNewObject(TypedCrate.self)
        let other = try context.insertNewObject(TypedCrate.self)
        #expect(crate.observationTracking == nil, "no typed read yet")
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        #expect(crate.observationTracking != nil)
        other.capacity = 2
        #expect(fired.count == 0)
        crate.capacity = 3
        #expect(fired.count == 1)
    }

    @Test func laterTypedReadsInsideTrackingAreSeen() throws {
        let context = ManagedObjectContext(model: try TypedFixtures.model())
        let crate = try context.insertNewObject(TypedCrate.self)
        let stand = try context.insertNewObject(TypedStand.self)
        _ = crate.capacity
        _ = crate.stand
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.stand } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.capacity = 5                      // not read while tracking
        #expect(fired.count == 0)
        crate.stand = stand
        #expect(fired.count == 1)
        withObservationTracking { _ = crate.fruit } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        crate.fruit = [try context.insertNewObject(TypedApple.self)]
        #expect(fired.count == 2)
    }

    @Test func aClassThatReportsNoReadsStillNamesItsKeysToAProbe() throws {
        let model = TypedFixtures.unboundModel()
        try model.setManagedObjectClass(UntrackedStand.self, forEntityNamed: "Stand")
        let stand = try UntrackedStand(in: model)
        var names: [String] = []
        let token = try stand.observe(\.name, options: [.new]) { _, change in
            if let name = change.newValue { names.append(name) }
        }
        stand.name = "Corner"
        #expect(names == ["Corner"])
        #expect(stand.observationTracking == nil, "its reads never reported to Observation")
        token.invalidate()
    }

    @Test func theProbeFlagsOnlyTheObjectItReadsAndOnlyWhileItReads() throws {
        let context = ManagedObjectContext(model: try TypedFixtures.model())
        let apple = try context.insertNewObject(TypedApple.self)
        let crate = try context.insertNewObject(TypedCrate.self)
        apple.crate = crate
        var radii: [Double] = []
        // Named by a probe unless another test named `\TypedApple.radius` first (names are
        // cached per process); the failing probe below runs every time.
        let token = try apple.observe(\.radius, options: [.new]) { _, change in radii.append(change.newValue ?? -1) }
        #expect(!apple.isReadByKeyPathProbe && !crate.isReadByKeyPathProbe)
        apple.radius = 1.5
        #expect(radii == [1.5])
        // A key path that reads a typed property of another object names nothing.
        #expect(throws: KeyValueObservingError.self) {
            _ = try apple.observe(\.crateCapacityForProbe) { _, _ in }
        }
        #expect(!apple.isReadByKeyPathProbe && !crate.isReadByKeyPathProbe)
        token.invalidate()
    }
}

extension TypedApple {
    /// A computed property whose only typed read is of another object (the apple's crate).
    var crateCapacityForProbe: Int16 {
        get { crateReadForProbe?.capacity ?? 0 }
        set { crateReadForProbe?.capacity = newValue }
    }

    /// The crate, read without a typed read of the apple (so the probe sees only the crate's).
    private var crateReadForProbe: TypedCrate? {
        try? value(forKey: "crate") as? TypedCrate
    }
}
