import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Lightweight migration of SQLite stores (ours and Apple's), moving stores between SQLite and
/// the atomic file store, and destroying them.
@Suite struct SQLiteMigrationTests {
    static func v1() throws -> ManagedObjectModel { try LibraryMigrationModels.v1() }

    /// v1 with `pages` renamed `pageCount`, `read` added (required, default NO), entity
    /// `Magazine` added.
    static func v2() throws -> ManagedObjectModel { try LibraryMigrationModels.v2() }

    /// A v1 store: a shelf holding "B" (300 pages) then "A".
    static func v1Store(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Library.sqlite")
        let (_, context) = try openStack(try v1(), at: url)
        let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
        try shelf.setValue("Fiction", forKey: "label")
        var books: [ManagedObject] = []
        for (title, pages) in [("B", 300), ("A", nil)] as [(String, Int32?)] {
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue(title, forKey: "title")
            if let pages { try book.setValue(pages, forKey: "pages") }
            books.append(book)
        }
        try shelf.setValue(books, forKey: "books")
        try context.save()
        return url
    }

    static func migrating(_ url: URL) -> StoreDescription {
        var description = StoreDescription.sqlite(at: url)
        description.shouldMigrateStoreAutomatically = true
        description.shouldInferMappingModelAutomatically = true
        return description
    }

    /// Every file in the directory with its bytes.
    static func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            files[name] = try Data(contentsOf: directory.file(name))
        }
        return files
    }

    @Test func anSQLiteStoreMigratesInPlaceKeepingCoreDatasLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.v1Store(directory)
        let coordinator = PersistentStoreCoordinator(model: try Self.v2())
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v1()])
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        let books = try #require(try shelf.value(forKey: "books") as? [ManagedObject])
        #expect(try books.map { try $0.value(forKey: "title") as? String } == ["B", "A"], "ordered relationship kept")
        #expect(try books.map { try $0.value(forKey: "pageCount") as? Int32 } == [300, nil])
        #expect(try books.map { try $0.value(forKey: "read") as? Bool } == [false, false])
        let columns = try query(url, "SELECT name FROM pragma_table_info('ZBOOK') ORDER BY cid").map { "\($0[0])" }
        #expect(columns.contains { $0.contains("ZPAGECOUNT") } && columns.contains { $0.contains("ZREAD") })
        #expect(!columns.contains { $0.contains("ZPAGES") })
        #expect(try query(url, "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { "\($0[0])" }.count == 3)
        #expect(try coordinator.isStoreCompatible(at: url, type: "SQLite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }.isEmpty)
    }

    /// Data the new model's uniqueness constraint refuses fails the migration naming the
    /// user's store, not the hidden copy it was built in, nor an INSERT (trial13 T13).
    @Test func aUniquenessFailureDuringAMigrationNamesTheStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Self.v1(), at: url)
            for _ in 0..<2 { try context.insertNewObject(forEntityNamed: "Book").setValue("Same", forKey: "title") }
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: try LibraryMigrationModels.v2(unique: true))
        do {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v1()])
            Issue.record("the migration succeeded")
        } catch let error as SQLiteStoreError {
            #expect(error.path == url.path)
            #expect(error.sql == nil)
            let text = error.description
            #expect(!text.contains("migrating") && !text.contains("INSERT") && text.contains("title"), "\(text)")
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }.isEmpty)
    }

    @Test func aMigrationRemovesTheHiddenCopiesOfKilledMigrationsOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.v1Store(directory)
        let prefix = directory.url.path + "/.Library.sqlite.migrating-"
        let dead = try CreationLitterTests.deadProcessID()
        let killed = prefix + "\(dead)-" + UUID().uuidString
        let running = prefix + "\(ProcessInfo.processInfo.processIdentifier)-" + UUID().uuidString
        let folder = prefix + "\(dead)-" + UUID().uuidString
        for file in [killed, killed + "-wal", killed + "-shm", running] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data("half".utf8)))
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: folder + "/kept.txt", contents: Data("kept".utf8)))

        let coordinator = PersistentStoreCoordinator(model: try Self.v2())
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v1()])

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
        let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
        for gone in [killed, killed + "-wal", killed + "-shm"] { #expect(!left.contains(name(gone)), "\(gone)") }
        #expect(left.contains(name(running)), "a migration of a live process is left alone")
        #expect(FileManager.default.contents(atPath: folder + "/kept.txt") == Data("kept".utf8))
        #expect(left.filter { $0.contains("migrating") }.count == 2, "\(left)")
    }

    @Test func refusedMigrationsLeaveEveryFileByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.v1Store(directory)
        let before = try Self.snapshot(directory)
        var entities = try Self.v1().entities
        entities[1].properties.removeAll { $0.name == "pages" }
        entities[1].properties.append(.attribute("pages", .string))
        let coordinator = PersistentStoreCoordinator(model: try ManagedObjectModel(entities: entities))
        #expect(throws: StoreManagementError.cannotInferMapping(entity: "Book", property: "pages",
                                                                reason: "its type changed from Integer 32 to String")) {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v1()])
        }
        #expect(throws: StoreManagementError.incompatibleModel(store: url.path, entities: ["Book"])) {
            try coordinator.addStore(with: StoreDescription.sqlite(at: url), sourceModels: [try Self.v1()])
        }
        let after = try Self.snapshot(directory)
        #expect(after == before, "\(before.mapValues(\.count)) → \(after.mapValues(\.count))")
    }

    @Test func anSQLiteStoreMovesToTheFileStoreAndBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.v1Store(directory)
        let coordinator = PersistentStoreCoordinator(model: try Self.v1())
        let store = try coordinator.addStore(with: StoreDescription.sqlite(at: url))
        let file = try coordinator.migratePersistentStore(store, to: directory.file("Library.store"), type: AtomicFileStore.type)
        #expect(file.storeType == "Binary")
        let back = try coordinator.migratePersistentStore(file, to: directory.file("Back.sqlite"), type: SQLitePersistentStore.type)
        #expect(back.storeType == "SQLite")
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        #expect(try (shelf.value(forKey: "books") as? [ManagedObject])?.map { try $0.value(forKey: "title") as? String } == ["B", "A"])
        coordinator.removeStore(back)
        try PersistentStoreCoordinator.destroyPersistentStore(at: directory.file("Back.sqlite"), type: "SQLite")
        #expect(!FileManager.default.fileExists(atPath: directory.file("Back.sqlite").path))
        #expect(try PersistentStoreCoordinator.metadataForStore(at: directory.file("Back.sqlite"), type: "SQLite") == nil)
    }

    // MARK: Apple's stores

    static func coreDataPlusModel(_ version: String) throws -> ManagedObjectModel {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ManagedObjectsTests/Fixtures/models/coredataplus/SampleModel/SampleModel.xcdatamodeld")
        return try ManagedObjectModel(contentsOf: folder, versionNamed: version)
    }

    /// Each person's name with their cars' number plates, and the limited editions' plates:
    /// what every version of the model keeps.
    static func fingerprint(_ context: ManagedObjectContext, limitedEntity: String) throws -> [String] {
        var lines: [String] = []
        for person in try context.fetch(EntityFetchRequest(entityName: "Person")) {
            let name = "\(try person.value(forKey: "firstName") ?? "-") \(try person.value(forKey: "lastName") ?? "-")"
            let cars = try person.value(forKey: "cars") as? Set<ManagedObject> ?? []
            let plates = try cars.map { try $0.value(forKey: "numberPlate") as? String ?? "?" }.sorted()
            lines.append(name + ": " + plates.joined(separator: ","))
        }
        let limited = try context.fetch(EntityFetchRequest(entityName: limitedEntity))
            .map { "\(try $0.value(forKey: "numberPlate") ?? "?") \(try $0.value(forKey: "isLimitedEdition") ?? "-")" }
        return lines.sorted() + ["limited: " + limited.sorted().joined(separator: ",")]
    }

    @Test(arguments: ["SampleModel2", "SampleModel3"])
    func applesV1StoreMigratesToLaterVersionsWithItsData(target: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let versions = try ["SampleModel", "SampleModel2", "SampleModel3"].map(Self.coreDataPlusModel)
        let original = try Self.fingerprint(try openStack(versions[0], at: url).1, limitedEntity: "ExpensiveSportCar")
        #expect(original.count == 21)
        let coordinator = PersistentStoreCoordinator(model: try Self.coreDataPlusModel(target))
        try coordinator.addStore(with: Self.migrating(url), sourceModels: versions)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Car")) == 125)
        #expect(try Self.fingerprint(context, limitedEntity: "LuxuryCar") == original)
        #expect(try coordinator.isStoreCompatible(at: url, type: "SQLite"))
        // Keys are kept (Z_PK), and new objects continue after them.
        let bmw = try #require(try context.fetch(EntityFetchRequest(entityName: "LuxuryCar",
                                                                   predicate: try KeyValuePredicate(format: "numberPlate == '300'"))).first)
        #expect(bmw.objectID.referenceObject == .integer(87))
        let victoria = try #require(try context.fetch(EntityFetchRequest(entityName: "Person",
                                                                        predicate: try KeyValuePredicate(format: "firstName == 'Victoria'"))).first)
        #expect(victoria.objectID.referenceObject == .integer(1))
        let car = try context.insertNewObject(forEntityNamed: "Car")
        try car.setValue("NEW-1", forKey: "numberPlate")
        try context.save()
        let key = try #require(car.objectID.referenceObject.integerValue)
        #expect(key > 125, "after every kept key (a few reserved keys may be skipped)")
        #expect(try query(url, "SELECT MAX(Z_PK) FROM ZCAR") == [[.integer(key)]])
    }

    @Test func aStoreWrittenByALaterVersionIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V2.sqlite")
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: try Self.coreDataPlusModel("SampleModel"))
        #expect(throws: StoreManagementError.noSourceModel(store: url.path, entities: ["Car", "ExpensiveSportCar", "LuxuryCar", "Person", "SportCar"])) {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.coreDataPlusModel("SampleModel")])
        }
        #expect(try Data(contentsOf: url) == before)
    }

    static func departmentModel(_ version: String) throws -> ManagedObjectModel {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ManagedObjectsTests/Fixtures/models/mwkcoredata/MWKCoreDataTests.xcdatamodeld")
        return try ManagedObjectModel(contentsOf: folder, versionNamed: version)
    }

    @Test func applesEmployeeStoreGainsDepartments() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("mwkcoredata/MWKCoreDataTests.sqlite")
        let versions = try ["MWKCoreDataTests", "MWKCoreDataTests2", "MWKCoreDataTests3"].map(Self.departmentModel)
        func names(_ context: ManagedObjectContext) throws -> [String] {
            try context.fetch(EntityFetchRequest(entityName: "Employee")).map { try $0.value(forKey: "name") as? String ?? "-" }.sorted()
        }
        let original = try names(try openStack(versions[0], at: url).1)
        let coordinator = PersistentStoreCoordinator(model: versions[1])
        try coordinator.addStore(with: Self.migrating(url), sourceModels: versions)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try names(context) == original)
        #expect(!original.isEmpty)
        let employee = try #require(try context.fetch(EntityFetchRequest(entityName: "Employee")).first)
        #expect(try employee.value(forKey: "dept") == nil, "the new relationship starts empty")
    }

    @Test(arguments: ["MWKCoreDataTests.sqlite", "MWKCoreDataTests2.sqlite"])
    func newRequiredAttributesWithoutDefaultsAreRefusedAndTheStoreStays(store: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("mwkcoredata/" + store)
        let before = try Self.snapshot(directory)
        let versions = try ["MWKCoreDataTests", "MWKCoreDataTests2", "MWKCoreDataTests3"].map(Self.departmentModel)
        let coordinator = PersistentStoreCoordinator(model: versions[2])
        #expect(throws: StoreManagementError.cannotInferMapping(entity: "Employee", property: "firstName",
                                                                reason: "it is a new required attribute without a default value")) {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: versions)
        }
        #expect(try Self.snapshot(directory) == before)
    }

    @Test func applesVersion2StoreInRollbackJournalModeMigratesToVersion3() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V2.sqlite")
        let versions = try ["SampleModel", "SampleModel2", "SampleModel3"].map(Self.coreDataPlusModel)
        let original = try Self.fingerprint(try openStack(versions[1], at: url).1, limitedEntity: "LuxuryCar")
        let coordinator = PersistentStoreCoordinator(model: versions[2])
        try coordinator.addStore(with: Self.migrating(url), sourceModels: versions)
        #expect(try Self.fingerprint(ManagedObjectContext(coordinator: coordinator), limitedEntity: "LuxuryCar") == original)
    }

    @Test func changedDeleteAndValidationRulesOpenWithoutMigrating() throws {
        // The compatibility check below comes before any description registers the type.
        SQLitePersistentStore.registerStoreType()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.v1Store(directory)
        var entities = try Self.v1().entities
        entities[0].properties = entities[0].properties.map { property in
            guard case .relationship(var relationship) = property else { return property }
            relationship.deleteRule = .cascade
            return .relationship(relationship)
        }
        entities[1].properties = entities[1].properties.map { property in
            guard case .attribute(var attribute) = property, attribute.name == "title" else { return property }
            attribute.validationRules = [.maximumLength(80)]
            return .attribute(attribute)
        }
        let model = try ManagedObjectModel(entities: entities)
        let coordinator = PersistentStoreCoordinator(model: model)
        #expect(try coordinator.isStoreCompatible(at: url, type: "SQLite"), "rules are not part of the version hashes")
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v1()])
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelf = try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf")).first)
        context.delete(shelf)
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Book")) == 0, "the new delete rule applies")
    }

    @Test(arguments: [(0, 1), (0, 2), (1, 2)])
    func coreDataPlusSampleModel3VersionsMigrateStepByStep(from: Int, to: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ManagedObjectsTests/Fixtures/models/coredataplus/SampleModel3/SampleModel3.xcdatamodeld")
        let versions = try ManagedObjectModel.versions(contentsOf: folder)
        #expect(versions.count == 3)
        let url = directory.file("Users.sqlite")
        do {
            let (_, context) = try openStack(versions[from], at: url)
            for name in ["Ada", "Grace"] {
                let user = try context.insertNewObject(forEntityNamed: "User")
                try user.setValue(name, forKey: "name")
            }
            try context.save()
        }
        let coordinator = PersistentStoreCoordinator(model: versions[to])
        try coordinator.addStore(with: Self.migrating(url), sourceModels: versions)
        // The context is kept: a released context's objects cannot read their relationships.
        let context = ManagedObjectContext(coordinator: coordinator)
        let users = try context.fetch(EntityFetchRequest(entityName: "User"))
        #expect(try Set(users.map { try $0.value(forKey: "name") as? String }) == ["Ada", "Grace"])
        #expect(try users.allSatisfy { try $0.value(forKey: "pet") == nil })
    }
}
