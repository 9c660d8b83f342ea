// How each part of Xcode's model XML maps onto the model's descriptions, and how model folders
// and versions are found.
import Foundation
import Predicates
import Testing
@testable import ManagedObjects

@Suite struct ModelLoadingTests {
    // MARK: Files and folders

    static let oneEntity = modelXML(#"<entity name="Item"><attribute name="title" attributeType="String"/></entity>"#)

    @Test func loadsABareContentsFileAndAnXcdatamodelFolder() throws {
        let temp = try TemporaryFolder()
        let contents = try temp.write(Self.oneEntity, to: "Plain.xcdatamodel/contents")
        let fromFile = try ManagedObjectModel(contentsOf: contents)
        let fromFolder = try ManagedObjectModel(contentsOf: contents.deletingLastPathComponent())
        #expect(fromFile.entities.map(\.name) == ["Item"])
        #expect(fromFolder.entities == fromFile.entities)
    }

    @Test func loadsTheCurrentVersionOfAnXcdatamodeld() throws {
        let temp = try TemporaryFolder()
        try temp.write(modelXML(#"<entity name="Old"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try temp.write(modelXML(#"<entity name="New"/>"#), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        try temp.write(currentVersionPlist("M 2.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        let folder = temp.url.appendingPathComponent("M.xcdatamodeld")
        #expect(try ManagedObjectModel(contentsOf: folder).entities.map(\.name) == ["New"])
        #expect(try ManagedObjectModel.currentVersionName(in: folder) == "M 2")
        #expect(try ManagedObjectModel.versionNames(in: folder) == ["M", "M 2"])
        #expect(try ManagedObjectModel(contentsOf: folder, versionNamed: "M").entities.map(\.name) == ["Old"])
        #expect(try ManagedObjectModel(contentsOf: folder, versionNamed: "M.xcdatamodel").entities.map(\.name) == ["Old"])
    }

    @Test func aSingleVersionNeedsNoCurrentVersionFile() throws {
        let temp = try TemporaryFolder()
        try temp.write(Self.oneEntity, to: "M.xcdatamodeld/Only.xcdatamodel/contents")
        let folder = temp.url.appendingPathComponent("M.xcdatamodeld")
        #expect(try ManagedObjectModel.currentVersionName(in: folder) == "Only")
        #expect(try ManagedObjectModel(contentsOf: folder).entities.map(\.name) == ["Item"])
    }

    @Test func theFileNameGivenForMemoryIsTheFileOfWarnings() throws {
        let model = try loadModel(modelXML(#"<entity name="Item" color="red"/>"#), fileName: "Embedded.xcdatamodel")
        #expect(model.warnings.map(\.file) == ["Embedded.xcdatamodel"])
    }

    // MARK: Entities

    @Test func entityFacts() throws {
        let model = try loadModel(modelXML("""
            <entity name="Base" representedClassName="BaseMO" isAbstract="YES" versionHashModifier="v2" elementID="OldBase" codeGenerationType="class" syncable="YES">
                <attribute name="id" attributeType="UUID"/>
                <userInfo>
                    <entry key="a" value="1"/>
                    <entry key="b"/>
                </userInfo>
            </entity>
            <entity name="Leaf" representedClassName="NSManagedObject" parentEntity="Base" renamingIdentifier="OldLeaf"/>
            """))
        let base = try #require(model.entity(named: "Base"))
        #expect(base.managedObjectClassName == "BaseMO" && base.isAbstract)
        #expect(base.versionHashModifier == "v2" && base.renamingIdentifier == "OldBase")
        #expect(base.userInfo == ["a": "1", "b": ""])
        let leaf = try #require(model.entity(named: "Leaf"))
        #expect(leaf.managedObjectClassName == nil && !leaf.isAbstract && leaf.parentName == "Base")
        #expect(leaf.renamingIdentifier == "OldLeaf")
        #expect(leaf.allProperties.map(\.name) == ["id"])
        #expect(model.warnings.isEmpty)
    }

    @Test func uniquenessConstraintsAndFetchIndexes() throws {
        let model = try loadModel(modelXML("""
            <entity name="Place">
                <attribute name="x" attributeType="Double"/>
                <attribute name="y" attributeType="Double"/>
                <attribute name="code" attributeType="String"/>
                <fetchIndex name="byArea">
                    <fetchIndexElement property="x" type="RTree"/>
                    <fetchIndexElement property="y" type="RTree" order="descending"/>
                </fetchIndex>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="code"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="x"/><constraint value="y"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """))
        let place = try #require(model.entity(named: "Place"))
        #expect(place.uniquenessConstraints == [["code"], ["x", "y"]])
        #expect(place.indexes == [FetchIndexDescription(name: "byArea", elements: [
            .init(propertyName: "x", kind: .rTree, isAscending: true),
            .init(propertyName: "y", kind: .rTree, isAscending: false),
        ])])
    }

    // MARK: Attributes

    static let defaults: [(type: String, text: String, expected: KeyValueConstant?)] = [
        ("Integer 16", "-12", .integer(-12)),
        ("Integer 32", "70000", .integer(70000)),
        ("Integer 64", "9000000000", .integer(9_000_000_000)),
        ("Double", "2.5", .double(2.5)),
        ("Float", "0.25", .double(0.25)),
        ("Decimal", "12.50", .decimal(Decimal(1250) / 100)),
        ("Boolean", "YES", .bool(true)),
        ("Boolean", "NO", .bool(false)),
        ("String", "hello", .string("hello")),
        ("String", "", .string("")),
        ("Date", "86400", .date(Date(timeIntervalSinceReferenceDate: 86400))),
        ("UUID", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        ("URI", "https://example.com/a", KeyValueConstant(URL(string: "https://example.com/a")!)),
        ("UUID", "", nil),
        ("Integer 16", "", nil),
    ]

    @Test(arguments: defaults)
    func defaultValueIsReadAsTheTypeSays(type: String, text: String, expected: KeyValueConstant?) throws {
        let model = try loadModel(modelXML(
            #"<entity name="E"><attribute name="a" attributeType="\#(type)" defaultValueString="\#(text)"/></entity>"#))
        #expect(model.attribute("E", "a")?.defaultValue == expected)
    }

    @Test func dateDefaultsAndBoundsAreSecondsSinceTheReferenceDate() throws {
        let model = try loadModel(modelXML("""
            <entity name="E">
                <attribute name="d" attributeType="Date" defaultDateTimeInterval="631152000" minDateTimeInterval="0" maxDateTimeInterval="1000000000" defaultValueString="now"/>
            </entity>
            """))
        let d = try #require(model.attribute("E", "d"))
        #expect(d.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 631_152_000)))
        #expect(d.validationRules == [.minimumValue(.date(Date(timeIntervalSinceReferenceDate: 0))),
                                      .maximumValue(.date(Date(timeIntervalSinceReferenceDate: 1_000_000_000)))])
    }

    @Test func boundsAreValuesForNumbersAndLengthsForStringsAndData() throws {
        let model = try loadModel(modelXML("""
            <entity name="E">
                <attribute name="n" attributeType="Double" minValueString="-1.5" maxValueString="99"/>
                <attribute name="i" attributeType="Integer 32" maxValueString="10"/>
                <attribute name="s" attributeType="String" minValueString="2" maxValueString="8" regularExpressionString="[a-z]+"/>
                <attribute name="b" attributeType="Binary" maxValueString="1024"/>
            </entity>
            """))
        #expect(model.attribute("E", "n")?.validationRules == [.minimumValue(.double(-1.5)), .maximumValue(.double(99))])
        #expect(model.attribute("E", "i")?.validationRules == [.maximumValue(.integer(10))])
        #expect(model.attribute("E", "s")?.validationRules == [.minimumLength(2), .maximumLength(8), .regularExpression("[a-z]+")])
        #expect(model.attribute("E", "b")?.validationRules == [.maximumLength(1024)])
    }

    @Test func attributeFlagsAndNames() throws {
        let model = try loadModel(modelXML("""
            <entity name="E">
                <attribute name="plain" attributeType="String"/>
                <attribute name="all" optional="YES" transient="YES" indexed="YES" spotlightIndexingEnabled="YES" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES" versionHashModifier="m" elementID="old" attributeType="Binary" usesScalarValueType="NO" syncable="YES"/>
                <attribute name="t" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="NSArray"/>
                <attribute name="sum" attributeType="String" derived="YES" derivationExpression="canonical:(plain)"/>
            </entity>
            """))
        let plain = try #require(model.attribute("E", "plain"))
        #expect(!plain.isOptional && !plain.isTransient && !plain.isIndexed && plain.renamingIdentifier == nil)
        let all = try #require(model.attribute("E", "all"))
        #expect(all.isOptional && all.isTransient && all.isIndexed && all.isIndexedBySpotlight)
        #expect(all.allowsExternalBinaryDataStorage && all.preservesValueInHistoryOnDeletion)
        #expect(all.versionHashModifier == "m" && all.renamingIdentifier == "old")
        let t = try #require(model.attribute("E", "t"))
        #expect(t.valueTransformerName == "NSSecureUnarchiveFromData" && t.valueClassName == "NSArray")
        #expect(model.attribute("E", "sum")?.derivationExpression == "canonical:(plain)")
        #expect(model.warnings.isEmpty)
    }

    @Test func compositeAttributesTakeTheirElements() throws {
        let model = try loadModel(modelXML("""
            <entity name="Person">
                <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
            </entity>
            <composite name="Address">
                <attribute name="street" optional="YES" attributeType="String"/>
                <attribute name="zip" optional="YES" attributeType="Integer 32"/>
            </composite>
            """))
        let address = try #require(model.attribute("Person", "address"))
        #expect(address.attributeType == .composite)
        #expect(address.elements.map(\.name) == ["street", "zip"])
        #expect(address.elements.map(\.attributeType) == [.string, .integer32])
    }

    // MARK: Relationships

    @Test func relationshipFactsAndXcodeDefaults() throws {
        let model = try loadModel(modelXML("""
            <entity name="A">
                <relationship name="one" destinationEntity="B" inverseName="many" inverseEntity="B"/>
                <relationship name="cache" optional="YES" transient="YES" maxCount="1" deletionRule="No Action" destinationEntity="B"/>
            </entity>
            <entity name="B">
                <relationship name="many" optional="YES" toMany="YES" minCount="2" maxCount="5" deletionRule="Deny" indexed="YES" spotlightIndexingEnabled="YES" destinationEntity="A" inverseName="one" inverseEntity="A"/>
                <relationship name="list" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="A"/>
            </entity>
            """))
        let one = try #require(model.relationship("A", "one"))
        #expect(one.cardinality == .toOne && !one.isOptional && one.deleteRule == .nullify)  // Xcode's defaults
        #expect(one.minCount == 0 && one.maxCount == 1)
        let cache = try #require(model.relationship("A", "cache"))
        #expect(cache.isTransient && cache.isOptional && cache.deleteRule == .noAction && cache.inverseName == nil)
        let many = try #require(model.relationship("B", "many"))
        #expect(many.cardinality == .toMany && many.minCount == 2 && many.maxCount == 5 && many.deleteRule == .deny)
        #expect(many.isIndexed && many.isIndexedBySpotlight)
        let list = try #require(model.relationship("B", "list"))
        #expect(list.cardinality == .orderedToMany && list.deleteRule == .cascade && list.maxCount == 0)
        #expect(model.warnings.compactMap(\.property).sorted() == ["cache", "list"])  // no inverse
    }

    // MARK: Fetched properties, templates, configurations, versions

    @Test func fetchedPropertiesHoldTheirRequest() throws {
        let model = try loadModel(modelXML("""
            <entity name="Author">
                <attribute name="name" attributeType="String"/>
                <fetchedProperty name="namesakes" optional="YES" syncable="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Author" predicateString="name == $FETCH_SOURCE.name"/>
                    <userInfo><entry key="k" value="v"/></userInfo>
                </fetchedProperty>
            </entity>
            """))
        let fetched = try #require(model.entity(named: "Author")?.fetchedPropertiesByName["namesakes"])
        #expect(fetched.fetchRequest.entityName == "Author")
        #expect(fetched.fetchRequest.predicate == (try KeyValuePredicate(format: "name == $FETCH_SOURCE.name")))
        #expect(fetched.userInfo == ["k": "v"] && fetched.isOptional)
    }

    @Test func fetchRequestTemplatesWithTheirOptions() throws {
        let model = try loadModel(modelXML("""
            <entity name="Article"><attribute name="words" attributeType="Integer 32"/></entity>
            <fetchRequest name="long" entity="Article" predicateString="words &gt; $MIN" fetchLimit="5" fetchBatchSize="20" returnObjectsAsFaults="NO" includeSubentities="NO" returnDistinctResults="YES" resultType="2" includePropertyValues="YES"/>
            <fetchRequest name="all" entity="Article"/>
            <fetchRequest name="ids" entity="Article" includePropertyValues="NO"/>
            """))
        let long = try #require(model.fetchRequestTemplatesByName["long"])
        #expect(long.includesPropertyValues)
        #expect(model.fetchRequestTemplatesByName["ids"]?.includesPropertyValues == false)
        #expect(long.entityName == "Article")
        #expect(long.predicate == (try KeyValuePredicate(format: "words > $MIN")))
        #expect(long.fetchLimit == 5 && long.fetchBatchSize == 20)
        #expect(!long.returnsObjectsAsFaults && !long.includesSubentities && long.returnsDistinctResults)
        #expect(long.resultType == .dictionaries)
        let all = try #require(model.fetchRequestTemplatesByName["all"])
        #expect(all == EntityFetchRequest(entityName: "Article"))
        #expect(model.warnings.isEmpty)
    }

    @Test func configurationsListTheirMembers() throws {
        let model = try loadModel(modelXML("""
            <entity name="A"/><entity name="B"/><entity name="C"/>
            <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="A"/><memberEntity name="C"/></configuration>
            <configuration name="Local"><memberEntity name="B"/></configuration>
            """))
        #expect(model.configurations == ["Cloud", "Local"])
        #expect(model.entities(forConfiguration: "Cloud")?.map(\.name) == ["A", "C"])
        #expect(model.entities(forConfiguration: "Local")?.map(\.name) == ["B"])
    }

    /// Apple copies `userDefinedModelVersionIdentifier` into `versionIdentifiers` as it is:
    /// stores written from models with an empty one hold `[""]`, from models without one `[]`.
    @Test(arguments: [(nil, []), ("", [""]), ("v4", ["v4"])] as [(String?, Set<String>)])
    func versionIdentifiersAreKeptAsXcodeWroteThem(identifier: String?, expected: Set<String>) throws {
        let model = try loadModel(modelXML(#"<entity name="A"/>"#, identifier: identifier))
        #expect(model.versionIdentifiers == expected)
    }

    // MARK: Unknown and ignored parts

    @Test func unknownElementsAndAttributesAreSkippedWithAWarningNamingTheLine() throws {
        let model = try loadModel(modelXML("""
            <entity name="A" futureFlag="YES">
                <attribute name="x" attributeType="String" sparkle="3"/>
                <hologram name="h"><attribute name="inside" attributeType="Nonsense"/></hologram>
            </entity>
            <timeMachine/>
            """))
        #expect(model.entity(named: "A")?.properties.map(\.name) == ["x"])
        let warnings = model.warnings
        #expect(warnings.count == 4)
        #expect(warnings.map(\.line) == [3, 4, 5, 7])
        #expect(warnings.allSatisfy { $0.file == "test/contents" })
        #expect(warnings[0].entity == "A" && warnings[0].message.contains("futureFlag"))
        #expect(warnings[1].property == "x" && warnings[1].message.contains("sparkle"))
        #expect(warnings[2].message.contains("<hologram>"))
        #expect(warnings[3].entity == nil && warnings[3].message.contains("<timeMachine>"))
    }

    @Test func layoutCodeGenerationAndToolFlagsAreSkippedSilently() throws {
        let model = try loadModel("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22222" systemVersion="22G91" minimumToolsVersion="Automatic" sourceLanguage="Swift" macOSVersion="Automatic" iOSVersion="Automatic" userDefinedModelVersionIdentifier="">
                <entity name="A" representedClassName="A" syncable="YES" codeGenerationType="class">
                    <attribute name="n" optional="YES" attributeType="Integer 64" usesScalarValueType="YES" syncable="YES"/>
                </entity>
                <elements>
                    <element name="A" positionX="-63" positionY="-18" width="128" height="44"/>
                </elements>
            </model>
            """)
        #expect(model.warnings.isEmpty)
        #expect(model.attribute("A", "n")?.attributeType == .integer64)
    }

    @Test func olderXcodeModelAttributesAreKnown() throws {
        // Xcode 4 wrote name="" on <model>.
        let model = try loadModel("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model name="" userDefinedModelVersionIdentifier="" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1811" systemVersion="11D50" minimumToolsVersion="Xcode 4.1" macOSVersion="Automatic" iOSVersion="Automatic">
                <entity name="A" syncable="YES"/>
            </model>
            """)
        #expect(model.warnings.isEmpty)
    }

    @Test func anExpressionIndexElementIsSkippedWithAWarning() throws {
        let model = try loadModel(modelXML("""
            <entity name="A">
                <attribute name="x" attributeType="String"/>
                <fetchIndex name="byLength">
                    <fetchIndexElement expression="length:(x)" expressionType="Integer 64" order="ascending"/>
                    <fetchIndexElement property="x" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """))
        #expect(model.entity(named: "A")?.indexes.first?.elements.map(\.propertyName) == ["x"])
        #expect(model.warnings.count == 1 && model.warnings.first?.line == 6)
        #expect(model.warnings.first?.property == "index byLength")
    }
}
