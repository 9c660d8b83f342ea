import Foundation
import Testing
import TestSupport
@testable import ManagedObjects

/// Version hashes equal to the `NSStoreModelVersionHashes` that Apple's Core Data wrote into
/// real stores. The expected values were read once with Python (`sqlite3` + `plistlib`) from
/// `Z_METADATA.Z_PLIST` of the stores under Fixtures/stores (and, for netusage, of
/// ../shared/data/coredata/stores/plaso-ios/netusage.sqlite); the models are rebuilt here in
/// code from the paired model files under Fixtures/models.
@Suite struct VersionHashAppleStoreTests {
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    static func attribute(_ name: String, _ type: AttributeDescription.AttributeType, optional: Bool = true,
                          transient: Bool = false) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: type, isOptional: optional, isTransient: transient))
    }

    /// CoreDataPlus SampleModel, version 1 or 2 (TestSupport).
    static func sampleModel(version2: Bool = false) throws -> ManagedObjectModel {
        try CoreDataPlusSampleModel.sampleModel(version2: version2)
    }

    @Test func sampleModelVersion1MatchesItsStore() throws {
        // Fixtures/stores/coredataplus/SampleModel_V1.sqlite (Core Data framework 1044).
        let hashes = try Self.sampleModel(version2: false).entityVersionHashesByName.mapValues(Self.hex)
        #expect(hashes == [
            "Car": "9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f",
            "ExpensiveSportCar": "3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480",
            "Person": "164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b",
            "SportCar": "514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313",
        ])
    }

    @Test func sampleModelVersion2MatchesItsStore() throws {
        // Fixtures/stores/coredataplus/SampleModel_V2.sqlite (Core Data framework 1044).
        let hashes = try Self.sampleModel(version2: true).entityVersionHashesByName.mapValues(Self.hex)
        #expect(hashes == [
            "Car": "7e503efbf4b63cd93ff729e9675e21c63c65262d85a9889f59a2440af6481b93",
            "LuxuryCar": "a873c5590010e4ea3f7bdf846786dfbf5cb095526b86aa0de2c569c4bb121886",
            "Person": "067ae62e1bd1014cb6559d990803ae58f354dd1b7ba7b7722a361c0c39f2134e",
            "SportCar": "722a55b5bbcd51d74876a4dd8f8f7bbde57ddc61cb65a577ec5b0fbe978d7b8c",
        ])
    }

    @Test func mwkVersion1MatchesItsStore() throws {
        // Fixtures/stores/mwkcoredata/MWKCoreDataTests.sqlite (Core Data framework 519, iOS 5 era).
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Employee", properties: [Self.attribute("name", .string, optional: false)]),
        ])
        #expect(model.entityVersionHashesByName.mapValues(Self.hex) == [
            "Employee": "625fd6087f308fd314a7eaced84c78a322937d2dcfd46c56431677f1b0152b2a",
        ])
    }

    @Test func mwkVersion2MatchesItsStore() throws {
        // Fixtures/stores/mwkcoredata/MWKCoreDataTests2.sqlite (Core Data framework 519).
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Dept", properties: [
                Self.attribute("name", .string),
                .relationship(RelationshipDescription(name: "employees", destination: "Employee", inverse: "dept",
                                                      cardinality: .toMany)),
            ]),
            EntityDescription(name: "Employee", properties: [
                Self.attribute("name", .string, optional: false),
                .relationship(RelationshipDescription(name: "dept", destination: "Dept", inverse: "employees")),
            ]),
        ])
        #expect(model.entityVersionHashesByName.mapValues(Self.hex) == [
            "Dept": "eae8b58e19d497ad3269f51933146a013e9cfac1b071f61399d441229a433d23",
            "Employee": "4b5510b044344d7929cb64b208ec3a90837cd6cbe9646f1986b6268dc393fdc7",
        ])
    }

    /// Process and App of iOS's netusage store (an ordered to-many relationship, inheritance,
    /// transient relationships with counts), rebuilt from the store's model cache. Entity hashes
    /// depend on destination names only, so the destinations are stubs.
    @Test func netusageProcessAndAppMatchTheirStore() throws {
        func rel(_ name: String, _ destination: String, _ inverse: String, _ cardinality: RelationshipDescription.Cardinality,
                 transient: Bool = false) -> PropertyDescription {
            var r = RelationshipDescription(name: name, destination: destination, inverse: inverse, cardinality: cardinality)
            if transient {
                r.isTransient = true
                r.minCount = 1
            }
            return .relationship(r)
        }
        let process = EntityDescription(name: "Process", properties: [
            Self.attribute("bundleName", .string), Self.attribute("firstTimeStamp", .date),
            rel("hasLiveUsage", "LiveUsage", "hasProcess", .toMany),
            rel("hintLiveUsage", "LiveUsage", "hintedBy", .toOne, transient: true),
            Self.attribute("procName", .string), Self.attribute("timeStamp", .date),
        ])
        let app = EntityDescription(name: "App", parent: "Process", properties: [
            rel("hasAppDomainUsage", "AppDomainUsage", "hasApp", .toMany),
            rel("hasAppExperience", "AppExperience", "hasApp", .toMany),
            rel("hasAppRun", "AppRun", "hasApp", .toMany),
            rel("hasCalendarUsage", "AppCalendarUsage", "hasApp", .toMany),
            rel("hasTypicalUsage", "AppTypicalUsage", "hasApp", .orderedToMany),
            rel("hintCalendarUsage", "AppCalendarUsage", "hintedBy", .toOne, transient: true),
        ])
        let destinations = [
            EntityDescription(name: "LiveUsage", properties: [rel("hasProcess", "Process", "hasLiveUsage", .toOne),
                                                              rel("hintedBy", "Process", "hintLiveUsage", .toOne)]),
            EntityDescription(name: "AppCalendarUsage", properties: [rel("hasApp", "App", "hasCalendarUsage", .toOne),
                                                                     rel("hintedBy", "App", "hintCalendarUsage", .toOne)]),
        ] + [("AppDomainUsage", "hasAppDomainUsage"), ("AppExperience", "hasAppExperience"), ("AppRun", "hasAppRun"),
             ("AppTypicalUsage", "hasTypicalUsage")].map { name, back in
            EntityDescription(name: name, properties: [rel("hasApp", "App", back, .toOne)])
        }
        let model = try ManagedObjectModel(entities: [process, app] + destinations)
        let hashes = model.entityVersionHashesByName.mapValues(Self.hex)
        #expect(hashes["Process"] == "a54a1524d3abe30d2d56a87a9ac2ae06b05e9952043ea42d839b5f186be6fa85")
        #expect(hashes["App"] == "4ee8cdcc68b9d5747520f76324ea37f63613b3d70c13bd31a31a19984adaab42")
    }

    @Test func storeMetadataOfTheMatchingModelIsCompatible() throws {
        let v1 = try Self.sampleModel(version2: false)
        let v2 = try Self.sampleModel(version2: true)
        let metadata: [String: Any] = [
            StoreMetadataKey.modelVersionHashes: v1.entityVersionHashesByName,
            StoreMetadataKey.modelVersionHashesVersion: 3,
        ]
        #expect(v1.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
        #expect(!v2.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
    }
}
