import Foundation
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// Stores written by Apple's Core Data (Tests/ManagedObjectsTests/Fixtures/stores, copied to a
/// temporary directory first) open with the models that wrote them, rebuilt here in code. The
/// expected values were read with the sqlite3 command-line tool and Python's plistlib.
@Suite struct AppleStoreTests {
    static func attribute(_ name: String, _ type: AttributeDescription.AttributeType, optional: Bool = true) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: type, isOptional: optional))
    }

    /// CoreDataPlus SampleModel, version 1 or 2 (TestSupport).
    static func sampleModel(version2: Bool = false) throws -> ManagedObjectModel {
        try CoreDataPlusSampleModel.sampleModel(version2: version2)
    }

    /// MWKCoreData's second model (Dept ⇄ Employee), of MWKCoreDataTests2.sqlite.
    static func departmentModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Dept", properties: [
                attribute("name", .string),
                .relationship(RelationshipDescription(name: "employees", destination: "Employee", inverse: "dept", cardinality: .toMany)),
            ]),
            EntityDescription(name: "Employee", properties: [
                attribute("name", .string, optional: false),
                .relationship(RelationshipDescription(name: "dept", destination: "Dept", inverse: "employees")),
            ]),
        ])
    }

    @Test func sampleModelStoreReadsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let (store, context) = try openStack(try Self.sampleModel(), at: url)
        #expect(store.identifier == "753753D3-A961-4901-AB05-8CC48B1D3853")
        #expect(store.metadata["NSStoreUUID"] as? String == "753753D3-A961-4901-AB05-8CC48B1D3853")
        #expect(store.metadata["NSPersistenceFrameworkVersion"] as? Int == 1044)
        #expect(store.metadata["NSStoreModelVersionIdentifiers"] as? [any Sendable] != nil)

        #expect(try context.fetch(EntityFetchRequest(entityName: "Car")).count == 125)
        #expect(try context.fetch(EntityFetchRequest(entityName: "ExpensiveSportCar")).count == 5)
        let people = try context.fetch(EntityFetchRequest(entityName: "Person"))
        #expect(people.count == 20)
        let victoria = try #require(people.first { $0.objectID.referenceObject == .integer(1) })
        #expect(victoria.stored("firstName") as? String == "Victoria")
        #expect(victoria.stored("lastName") as? String == "Coster")
        #expect(victoria.stored("updatedAt") as? Date == Date(timeIntervalSinceReferenceDate: 639_503_569.638733))
        #expect(victoria.stored("id") as? UUID == UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115"))

        let bmw = try context.existingObject(with: ManagedObjectID(entityName: "ExpensiveSportCar",
                                                                  storeIdentifier: store.identifier, primaryKey: 87))
        #expect(bmw.stored("maker") as? String == "BMW")
        #expect(bmw.stored("model") as? String == "M6 Coupe")
        #expect(bmw.stored("numberPlate") as? String == "300")
        #expect(bmw.stored("isLimitedEdition") as? Bool == true)
        #expect((bmw.stored("owner") as? ManagedObject)?.objectID.referenceObject == .integer(9))
        let owner = try #require(people.first { $0.objectID.referenceObject == .integer(17) })
        #expect((owner.stored("cars") as? Set<ManagedObject>)?.count == 100)
    }

    @Test func aStoreLaidOutForTheSameModelHasApplesSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let apple = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let ours = directory.file("Ours.sqlite")
        _ = try openStack(try Self.sampleModel(), at: ours)
        let schema = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        #expect(try query(ours, schema) == query(apple, schema))
        let keys = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(try query(ours, keys) == query(apple, keys))
    }

    @Test func insertsIntoAnAppleStoreContinueItsKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        do {
            let (_, context) = try openStack(try Self.sampleModel(), at: url)
            let person = try context.insertNewObject(forEntityNamed: "Person")
            try person.setValue("Ada", forKey: "firstName")
            try person.setValue("Lovelace", forKey: "lastName")
            try person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
            try person.setValue(UUID(), forKey: "id")
            try context.save()
            #expect(person.objectID.referenceObject == .integer(21), "Z_MAX of Person was 20")
        }
        let (_, context) = try openStack(try Self.sampleModel(), at: url)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Person")).count == 21)
        #expect(try query(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == [[.integer(21)]])
    }

    @Test func departmentStoreReadsRelationshipsBothWays() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("mwkcoredata/MWKCoreDataTests2.sqlite")
        let (store, context) = try openStack(try Self.departmentModel(), at: url)
        #expect(store.identifier == "534C02E8-2ACC-4834-8BBE-E2E3231E4101")
        let departments = try context.fetch(EntityFetchRequest(entityName: "Dept"))
        let byName = Dictionary(uniqueKeysWithValues: departments.map { ($0.stored("name") as? String ?? "", $0) })
        let engineering = try #require(byName["Engineering"])
        let staff = engineering.stored("employees") as? Set<ManagedObject> ?? []
        #expect(staff.map { $0.stored("name") as? String } == ["Carla Jones"])
        let adam = try #require(try context.fetch(EntityFetchRequest(entityName: "Employee")).first { $0.stored("name") as? String == "Adam Smith" })
        #expect((adam.stored("dept") as? ManagedObject)?.stored("name") as? String == "Marketing")
    }

    @Test func anIncompatibleModelIsRefusedAndTheFileIsUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("mwkcoredata/MWKCoreDataTests.sqlite")
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: try Self.departmentModel())
        let error = #expect(throws: SQLiteStoreError.self) { try coordinator.addStore(SQLitePersistentStore(url: url)) }
        guard case .incompatibleModel(let why) = error?.code else {
            Issue.record("expected incompatibleModel, got \(String(describing: error))")
            return
        }
        #expect(why.contains("Dept"))
        #expect(error?.errorDescription?.contains(url.path) == true)
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func metadataKeepsUnknownKeysAcrossWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        do {
            let (store, _) = try openStack(try Self.sampleModel(), at: url)
            var metadata = store.metadata
            metadata["AppVersion"] = "2.1"
            metadata["NSStoreType"] = "Other"  // the store keeps its own
            try store.setMetadata(metadata)
        }
        let (store, _) = try openStack(try Self.sampleModel(), at: url)
        #expect(store.metadata["AppVersion"] as? String == "2.1")
        #expect(store.metadata["NSStoreType"] as? String == "SQLite")
        #expect(store.metadata["NSStoreModelVersionHashesDigest"] as? String
            == "fACvwxty0QWritKFX3/LTtXZvI64UnFcRtP6qcjW1Yl0owr+rH+SpCvzy/uDYRpknMXbgacd3srn9wmE2KkL8Q==")
        #expect(store.metadata["_NSAutoVacuumLevel"] as? String == "2")
    }

    @Test func aMigratedRollbackJournalStoreReadsBack() throws {
        // SampleModel_V2.sqlite: rollback journal mode, migrated by Core Data from version 1
        // (Z_PRIMARYKEY still says ExpensiveSportCar for the entity now named LuxuryCar).
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V2.sqlite")
        let (_, context) = try openStack(try Self.sampleModel(version2: true), at: url)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Car")).count == 125)
        let luxury = try context.fetch(EntityFetchRequest(entityName: "LuxuryCar"))
        #expect(luxury.count == 5)
        let mclaren = try #require(luxury.first { $0.objectID.referenceObject == .integer(14) })
        #expect(mclaren.stored("maker") as? String == "McLaren")
        #expect(mclaren.stored("model") as? String == "570GT")
        #expect(mclaren.stored("numberPlate") as? String == "303")
        #expect(mclaren.stored("isLimitedEdition") as? Bool == false)
        #expect(mclaren.stored("owner") == nil)
        let maserati = try #require(luxury.first { $0.objectID.referenceObject == .integer(53) })
        #expect((maserati.stored("owner") as? ManagedObject)?.objectID.referenceObject == .integer(11))
        #expect(try context.fetch(EntityFetchRequest(entityName: "Person")).count == 20)
    }

    @Test func rowsStillInTheWriteAheadLogAreRead() throws {
        // A store copied with its -wal file while the writer still has it open: the rows are only
        // in the -wal (wibosco's CoreDataMigration_Example_WAL.sqlite, LAYOUT.md §5).
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("Writer.sqlite")
        let (_, writer) = try openStack(try Models.library(), at: source)
        try writer.insertNewObject(forEntityNamed: "Item").setValue("in the log", forKey: "name")
        try writer.save()
        let copy = directory.file("Copy.sqlite")
        try FileManager.default.copyItem(at: source, to: copy)
        try FileManager.default.copyItem(atPath: source.path + "-wal", toPath: copy.path + "-wal")
        let (_, reader) = try openStack(try Models.library(), at: copy)
        #expect(try reader.fetch(EntityFetchRequest(entityName: "Item")).first?.stored("name") as? String == "in the log")
        withExtendedLifetime(writer) {}
    }
}
