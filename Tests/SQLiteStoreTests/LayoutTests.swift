import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// The layout of new stores follows what Apple's stores show (LAYOUT.md of the shared Core
/// Data data set): entity numbers, table and column names, join tables, indexes, pragmas and
/// metadata.
@Suite struct LayoutTests {
    static func attribute(_ name: String, _ type: AttributeDescription.AttributeType) -> PropertyDescription {
        .attribute(name, type)
    }

    static func many(_ name: String, _ destination: String, _ inverse: String?) -> PropertyDescription {
        .toMany(name, destination, inverse: inverse)
    }

    static func one(_ name: String, _ destination: String, _ inverse: String?) -> PropertyDescription {
        .toOne(name, destination, inverse: inverse)
    }

    @Test func entitiesAreNumberedDepthFirstWithCaseInsensitiveNames() throws {
        // The entity names of iOS's netusage store, whose Z_PRIMARYKEY numbers them so.
        let names = ["AppCalendarUsage", "AppDomainUsage", "AppExperience", "AppRun", "AppTypicalUsage",
                     "DiagnosticCaseStorage", "DiagnosticCaseUsage", "Flow", "LiveFlowPerf", "LiveRoutePerf", "LiveUsage",
                     "NetworkAttachment", "NWActivityFragment", "NWActivityMetricData", "Process", "App", "ProvisioningData",
                     "TrackerDomain"]
        let entities = names.reversed().map { name in
            EntityDescription(name: name, parent: name == "App" ? "Process" : nil)
        }
        let numbers = SQLiteSchema.entityNumbers(for: try ManagedObjectModel(entities: entities))
        #expect(names.map { numbers[$0] } == (1...18).map { Int64($0) })
    }

    /// The accounts store of iOS (Accounts3.sqlite): seven entities, four many-to-many
    /// relationships between them, one-to-many ones.
    static func accountsModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "AccessOptionsKey", properties: [
                attribute("name", .string), many("owningAccountTypes", "AccountType", "accessKeys"),
            ]),
            EntityDescription(name: "Account", properties: [
                attribute("active", .boolean), attribute("authenticated", .boolean),
                attribute("supportsAuthentication", .boolean), attribute("visible", .boolean),
                one("accountType", "AccountType", "accounts"), one("parentAccount", "Account", "childAccounts"),
                many("childAccounts", "Account", "parentAccount"),
                attribute("date", .date), attribute("lastCredentialRenewalRejectionDate", .date),
                attribute("accountDescription", .string), attribute("authenticationType", .string),
                attribute("credentialType", .string), attribute("identifier", .string), attribute("owningBundleID", .string),
                attribute("username", .string), attribute("dataclassProperties", .binaryData),
                many("enabledDataclasses", "Dataclass", "enabledAccounts"),
                many("provisionedDataclasses", "Dataclass", "provisionedAccounts"),
                many("customProperties", "AccountProperty", "owner"),
            ]),
            EntityDescription(name: "AccountProperty", properties: [
                one("owner", "Account", "customProperties"), attribute("key", .string), attribute("value", .binaryData),
            ]),
            EntityDescription(name: "AccountType", properties: [
                attribute("encryptAccountProperties", .boolean), attribute("obsolete", .boolean),
                attribute("supportsAuthentication", .boolean), attribute("supportsMultipleAccounts", .boolean),
                attribute("visibility", .integer16), attribute("accountTypeDescription", .string),
                attribute("credentialProtectionPolicy", .string), attribute("credentialType", .string),
                attribute("identifier", .string), attribute("owningBundleID", .string),
                many("accessKeys", "AccessOptionsKey", "owningAccountTypes"), many("accounts", "Account", "accountType"),
                many("authorizations", "Authorization", "accountType"),
                many("supportedDataclasses", "Dataclass", "supportedTypes"),
                many("syncableDataclasses", "Dataclass", "syncableTypes"),
            ]),
            EntityDescription(name: "Authorization", properties: [
                one("accountType", "AccountType", "authorizations"), attribute("bundleID", .string),
                attribute("grantedPermissions", .string), attribute("options", .binaryData),
            ]),
            EntityDescription(name: "CredentialItem", properties: [
                attribute("persistent", .boolean), attribute("expirationDate", .date),
                attribute("accountIdentifier", .string), attribute("serviceName", .string),
            ]),
            EntityDescription(name: "Dataclass", properties: [
                attribute("name", .binaryData),
                many("enabledAccounts", "Account", "enabledDataclasses"),
                many("provisionedAccounts", "Account", "provisionedDataclasses"),
                many("supportedTypes", "AccountType", "supportedDataclasses"),
                many("syncableTypes", "AccountType", "syncableDataclasses"),
            ]),
        ])
    }

    @Test func joinTablesColumnsAndIndexesMatchTheAccountsStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ours = directory.file("Accounts.sqlite")
        _ = try openStack(try Self.accountsModel(), at: ours)
        let apple = try directory.copyOfFixture("plaso-ios/Accounts3.sqlite", inSQLiteStoreTests: true)
        let schema = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        let appleSchema = try SQLiteConnection(path: "file:\(apple.path)?mode=ro&immutable=1", mode: .readOnly, uri: true).rows(schema)
        #expect(try query(ours, schema) == appleSchema)
    }

    @Test func columnNameClashesGetSuffixesAndPolymorphicKeysAnEntityColumn() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Folder", properties: [.toMany("memos", "Memo", inverse: "folder")]),
            EntityDescription(name: "Subfolder", parent: "Folder"),
            EntityDescription(name: "Note", isAbstract: true),
            EntityDescription(name: "Memo", parent: "Note", properties: [
                .attribute("account", .string), .toOne("folder", "Folder", inverse: "memos"),
            ]),
            EntityDescription(name: "Sketch", parent: "Note", properties: [
                .attribute("account", .integer32), .toOne("folder", "Folder", inverse: nil),
            ]),
        ])
        let schema = try SQLiteSchema(model: model, path: "test")
        #expect(schema.entities.mapValues(\.number) == ["Folder": 1, "Subfolder": 2, "Note": 3, "Memo": 4, "Sketch": 5])
        let note = try #require(schema.tables.first { $0.name == "ZNOTE" })
        // Folder 1, Subfolder 2, Note 3, Memo 4, Sketch 5.
        // Entity by entity (Memo, then Sketch), integers and keys before text; the later
        // entity's clashing names get the suffix, in the entity column too.
        #expect(note.columns.map(\.name) == ["ZFOLDER", "Z1_FOLDER", "ZACCOUNT1", "ZFOLDER1", "Z1_FOLDER1", "ZACCOUNT"])
        #expect(note.columns.map(\.type) == ["INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "VARCHAR"])
        #expect(note.hasSubentities)
        #expect(schema.creationStatements.contains("CREATE INDEX ZNOTE_Z_ENT_INDEX ON ZNOTE (Z_ENT)"))
        #expect(schema.creationStatements.contains("CREATE INDEX ZNOTE_ZFOLDER1_INDEX ON ZNOTE (ZFOLDER1)"))
    }

    @Test func aNewStoreHasCoreDatasBookkeepingPragmasAndMetadata() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let model = try Models.library()
        let (store, _) = try openStack(model, at: url)
        let bookkeeping = try query(url, "SELECT sql FROM sqlite_master WHERE name IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE') ORDER BY rootpage")
        #expect(bookkeeping == SQLiteSchema.bookkeepingStatements.map { [.text($0)] })
        #expect(try query(url, "PRAGMA auto_vacuum") == [[.integer(2)]])
        #expect(try query(url, "PRAGMA journal_mode") == [[.text("wal")]])
        let metadataRow = try #require(try query(url, "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA").first)
        #expect(metadataRow[0] == .integer(1))
        #expect(metadataRow[1] == .text(store.identifier))
        guard case .blob(let plist) = metadataRow[2] else {
            Issue.record("Z_PLIST is not a blob")
            return
        }
        #expect(plist.prefix(8) == Data("bplist00".utf8))
        let decoded = try SQLiteStoreMetadata.decode(plist)
        #expect(decoded["NSStoreUUID"] == nil, "the UUID lives in Z_UUID")
        #expect(decoded["NSStoreType"] as? String == "SQLite")
        #expect(decoded["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(decoded["_NSAutoVacuumLevel"] as? String == "2")
        #expect(decoded["NSPersistenceFrameworkVersion"] as? Int == SQLiteStoreMetadata.frameworkVersion)
        #expect((decoded["NSStoreModelVersionIdentifiers"] as? [any Sendable])?.isEmpty == true)
        let hashes = (decoded["NSStoreModelVersionHashes"] as? [String: any Sendable])?.compactMapValues { $0 as? Data }
        #expect(hashes == model.entityVersionHashesByName)
        // Book 1, Novel 2 (its subentity), Item 3, Shelf 4, Tag 5.
        #expect(try query(url, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.integer(1), .text("Book"), .integer(0), .integer(0)], [.integer(2), .text("Novel"), .integer(1), .integer(0)],
            [.integer(3), .text("Item"), .integer(0), .integer(0)], [.integer(4), .text("Shelf"), .integer(0), .integer(0)],
            [.integer(5), .text("Tag"), .integer(0), .integer(0)],
        ])
        let tables = try query(url, "SELECT sql FROM sqlite_master WHERE name IN ('ZBOOK', 'Z_1TAGS', 'ZTAG') ORDER BY name")
        #expect(tables == [
            [.text("CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, Z_FOK_SHELF INTEGER, ZTITLE VARCHAR, ZGENRE VARCHAR )")],
            [.text("CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVOURITE INTEGER, Z1_FAVOURITE INTEGER, ZNAME VARCHAR )")],
            [.text("CREATE TABLE Z_1TAGS ( Z_1BOOKS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_1BOOKS, Z_5TAGS) )")],
        ])
    }

    @Test func orderedToManyKeepsItsOrderColumnNextToTheInverseKey() throws {
        // iOS's netusage store (LAYOUT.md §3): App (16, a subentity of Process 15) has the
        // ordered to-many hasTypicalUsage whose inverse AppTypicalUsage.hasApp (5) is a to-one.
        // The expected statement is the store's own, read with the sqlite3 tool.
        let metrics = ["wifi", "wired", "wwan"].flatMap { medium in
            ["in", "out"].flatMap { direction in
                ["", "_m2", "_mean", "_var"].map { medium + direction + $0 }
            } + [medium + "samplecount"]
        }
        let usage = EntityDescription(name: "AppTypicalUsage", properties: [
            .attribute("intervalType", .integer16), .attribute("firstTimeStamp", .date), .attribute("timeStamp", .date),
            .toOne("hasApp", "App", inverse: "hasTypicalUsage"),
        ] + metrics.map { .attribute($0, .double) })
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Process", properties: [.attribute("procName", .string)]),
            EntityDescription(name: "App", parent: "Process", properties: [
                .toMany("hasTypicalUsage", "AppTypicalUsage", inverse: "hasApp", ordered: true),
            ]),
            usage,
        ])
        let schema = try SQLiteSchema(model: model, numbers: ["AppTypicalUsage": 5, "Process": 15, "App": 16], path: "test")
        let statement = try #require(schema.creationStatements.first { $0.hasPrefix("CREATE TABLE ZAPPTYPICALUSAGE ") })
        #expect(statement == "CREATE TABLE ZAPPTYPICALUSAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINTERVALTYPE INTEGER, ZHASAPP INTEGER, Z_FOK_HASAPP INTEGER, ZFIRSTTIMESTAMP TIMESTAMP, ZTIMESTAMP TIMESTAMP, ZWIFIIN FLOAT, ZWIFIIN_M2 FLOAT, ZWIFIIN_MEAN FLOAT, ZWIFIIN_VAR FLOAT, ZWIFIOUT FLOAT, ZWIFIOUT_M2 FLOAT, ZWIFIOUT_MEAN FLOAT, ZWIFIOUT_VAR FLOAT, ZWIFISAMPLECOUNT FLOAT, ZWIREDIN FLOAT, ZWIREDIN_M2 FLOAT, ZWIREDIN_MEAN FLOAT, ZWIREDIN_VAR FLOAT, ZWIREDOUT FLOAT, ZWIREDOUT_M2 FLOAT, ZWIREDOUT_MEAN FLOAT, ZWIREDOUT_VAR FLOAT, ZWIREDSAMPLECOUNT FLOAT, ZWWANIN FLOAT, ZWWANIN_M2 FLOAT, ZWWANIN_MEAN FLOAT, ZWWANIN_VAR FLOAT, ZWWANOUT FLOAT, ZWWANOUT_M2 FLOAT, ZWWANOUT_MEAN FLOAT, ZWWANOUT_VAR FLOAT, ZWWANSAMPLECOUNT FLOAT )")
        #expect(schema.creationStatements.contains("CREATE INDEX ZAPPTYPICALUSAGE_ZHASAPP_INDEX ON ZAPPTYPICALUSAGE (ZHASAPP)"))
    }
}
