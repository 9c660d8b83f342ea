// Bad model files: each is a thrown error naming the file, the line, the entity and the
// property, never a crash.
import Foundation
import Testing
@testable import ManagedObjects

@Suite struct ModelLoadingErrorTests {
    /// Writes `xml` as `Bad.xcdatamodel/contents` in a temporary folder, loads the folder and
    /// returns the error (with the path of the file it should name).
    static func loadError(_ xml: String) throws -> (error: ManagedObjectModelError, file: String) {
        let temp = try TemporaryFolder()
        let file = try temp.write(xml, to: "Bad.xcdatamodel/contents")
        do {
            _ = try ManagedObjectModel(contentsOf: file.deletingLastPathComponent())
        } catch {
            return (error, file.path)
        }
        Issue.record("the model loaded")
        throw CancellationError()
    }

    // MARK: XML

    @Test func malformedXMLNamesTheLine() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="A">
                <attribute name="x" attributeType="String">
            </entity>
            """))
        guard case .malformedXML(let message) = error.code else { Issue.record("\(error)"); return }
        #expect(message.contains("closing tag"))
        #expect(error.file == file && error.line == 5)
        #expect(error.entity == "A")
        #expect(error.localizedDescription.contains("\(file):5"))
    }

    @Test func emptyAndNonXMLFilesAreMalformed() throws {
        for text in ["", "not xml at all", "<?xml version=\"1.0\"?>"] {
            let (error, _) = try Self.loadError(text)
            guard case .malformedXML = error.code else { Issue.record("\(text): \(error)"); continue }
            #expect(error.line != nil)
        }
    }

    @Test func aRootOtherThanModelIsRefused() throws {
        let (error, file) = try Self.loadError("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>")
        guard case .malformedXML(let message) = error.code else { Issue.record("\(error)"); return }
        #expect(message.contains("<plist>"))
        #expect(error.file == file && error.line == 2)
    }

    // MARK: Required XML attributes, types, values

    @Test(arguments: [
        (#"<entity representedClassName="X"/>"#, "name", nil, nil),
        (#"<entity name="E"><attribute name="a"/></entity>"#, "attributeType", "E", "a"),
        (#"<entity name="E"><attribute attributeType="String"/></entity>"#, "name", "E", nil),
        (#"<entity name="E"><relationship name="r" toMany="YES"/></entity>"#, "destinationEntity", "E", "r"),
        (#"<entity name="E"><userInfo><entry value="v"/></userInfo></entity>"#, "key", "E", nil),
    ] as [(String, String, String?, String?)])
    func missingRequiredXMLAttribute(body: String, attribute: String, entity: String?, property: String?) throws {
        let (error, file) = try Self.loadError(modelXML(body))
        #expect(error.code == .missingXMLAttribute(attribute))
        #expect(error.file == file && error.line == 3)
        #expect(error.entity == entity && error.property == property)
    }

    @Test func unknownAttributeTypeNamesFileLineEntityAndProperty() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="Book">
                <attribute name="title" attributeType="String"/>
                <attribute name="cover" attributeType="Image"/>
            </entity>
            """))
        #expect(error.code == .unknownAttributeType("Image"))
        #expect(error.file == file && error.line == 5 && error.entity == "Book" && error.property == "cover")
    }

    @Test(arguments: [
        #"<attribute name="a" attributeType="Integer 16" defaultValueString="40000"/>"#,
        #"<attribute name="a" attributeType="Integer 32" defaultValueString="1.5"/>"#,
        #"<attribute name="a" attributeType="Double" defaultValueString="fast"/>"#,
        #"<attribute name="a" attributeType="Decimal" defaultValueString="12abc"/>"#,
        #"<attribute name="a" attributeType="Boolean" defaultValueString="maybe"/>"#,
        #"<attribute name="a" attributeType="UUID" defaultValueString="not-a-uuid"/>"#,
        #"<attribute name="a" attributeType="Date" defaultValueString="now"/>"#,
        #"<attribute name="a" attributeType="String" minValueString="-1"/>"#,
        #"<attribute name="a" attributeType="Float" maxValueString="1e99"/>"#,
        #"<attribute name="a" optional="perhaps" attributeType="String"/>"#,
    ])
    func aValueThatDoesNotFitItsTypeIsInvalid(attribute: String) throws {
        let (error, file) = try Self.loadError(modelXML("<entity name=\"E\">\n\(attribute)\n</entity>"))
        guard case .invalidValue = error.code else { Issue.record("\(error)"); return }
        #expect(error.file == file && error.line == 4 && error.entity == "E" && error.property == "a")
    }

    @Test func anUnknownDeleteRuleIsInvalid() throws {
        let (error, _) = try Self.loadError(modelXML(#"<entity name="E"><relationship name="r" deletionRule="Explode" destinationEntity="E"/></entity>"#))
        #expect(error.code == .invalidValue(#"deletionRule="Explode""#))
        #expect(error.line == 3 && error.property == "r")
    }

    @Test func aTemplatePredicateThatDoesNotParse() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="E"/>
            <fetchRequest name="broken" entity="E" predicateString="name == == 3"/>
            """))
        guard case .invalidPredicate = error.code else { Issue.record("\(error)"); return }
        #expect(error.file == file && error.line == 4 && error.property == "fetch request template broken")
    }

    @Test func aFetchedPropertyWithoutRequest() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="E">
                <fetchedProperty name="f" optional="YES"/>
            </entity>
            """))
        guard case .malformedXML = error.code else { Issue.record("\(error)"); return }
        #expect(error.line == 4 && error.entity == "E" && error.property == "f")
    }

    // MARK: Resolution errors carry the line of the element at fault

    @Test func aRelationshipToAMissingEntity() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="A">
                <attribute name="x" attributeType="String"/>
                <relationship name="ghost" maxCount="1" destinationEntity="Nowhere"/>
            </entity>
            """))
        #expect(error.code == .unknownDestinationEntity("Nowhere"))
        #expect(error.file == file && error.line == 5 && error.entity == "A" && error.property == "ghost")
    }

    @Test func anInverseEntityThatIsNotTheDestination() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="A">
                <relationship name="b" destinationEntity="B" inverseName="a" inverseEntity="C"/>
            </entity>
            <entity name="B"><relationship name="a" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>
            <entity name="C"/>
            """))
        guard case .inverseMismatch = error.code else { Issue.record("\(error)"); return }
        #expect(error.line == 4 && error.entity == "A" && error.property == "b")
    }

    @Test func anInverseThatDoesNotPointBack() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="A">
                <relationship name="b" destinationEntity="B" inverseName="a" inverseEntity="B"/>
                <relationship name="other" destinationEntity="B"/>
            </entity>
            <entity name="B">
                <relationship name="a" destinationEntity="A" inverseName="other" inverseEntity="A"/>
            </entity>
            """))
        guard case .inverseMismatch = error.code else { Issue.record("\(error)"); return }
        #expect(error.file == file && error.line == 4 && error.entity == "A" && error.property == "b")
    }

    @Test func anInverseMissingOnTheDestination() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="A">
                <relationship name="b" destinationEntity="B" inverseName="missing" inverseEntity="B"/>
            </entity>
            <entity name="B"/>
            """))
        #expect(error.code == .unknownInverse("missing"))
        #expect(error.line == 4 && error.property == "b")
        #expect(error.description.hasSuffix("does not exist on the destination 'B' (it has no relationships)"), "\(error)")
    }

    /// A new user's trial: a misspelt inverse named only the missing name; the message names the
    /// destination and suggests its closest relationship (or lists them).
    @Test func aMisspeltInverseSuggestsTheDestinationsRelationship() throws {
        func error(inverse: String) throws -> ManagedObjectModelError {
            try #require(throws: ManagedObjectModelError.self) {
                _ = try ManagedObjectModel(entities: [
                    EntityDescription(name: "Shelf", properties: [
                        .attribute("label", .string), .toMany("books", "Book", inverse: inverse),
                    ]),
                    EntityDescription(name: "Book", properties: [
                        .attribute("shelve", .string), .toOne("shelf", "Shelf", inverse: "books"),
                        .toMany("readers", "Reader", inverse: "books"),
                    ]),
                    EntityDescription(name: "Reader", properties: [.toMany("books", "Book", inverse: "readers")]),
                ])
            }
        }
        let misspelt = try error(inverse: "shelff")
        #expect(misspelt.code == .unknownInverse("shelff"))
        #expect(misspelt.description.hasSuffix("the inverse relationship 'shelff' does not exist on the destination 'Book' (did you mean 'shelf'?)"),
                "\(misspelt)")
        // An attribute is not suggested; a name far from every relationship lists them.
        let unlike = try error(inverse: "owner")
        #expect(unlike.description.hasSuffix("on the destination 'Book' (its relationships: 'shelf', 'readers')"), "\(unlike)")
    }

    @Test func anInheritanceCycle() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="Root"/>
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            """))
        #expect(error.code == .inheritanceCycle(["A", "B", "A"]))
        #expect(error.file == file && error.line == 4 && error.entity == "A")
    }

    @Test func anUnknownParentEntity() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="A"/>

            <entity name="B" parentEntity="Nobody"/>
            """))
        #expect(error.code == .unknownParentEntity("Nobody"))
        #expect(error.line == 5 && error.entity == "B")
    }

    @Test func twoPropertiesOfOneNameInAnEntityChain() throws {
        let (error, file) = try Self.loadError(modelXML("""
            <entity name="Base">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Derived" parentEntity="Base">
                <attribute name="age" attributeType="Integer 16"/>
                <attribute name="name" attributeType="String"/>
            </entity>
            """))
        #expect(error.code == .duplicateProperty)
        #expect(error.file == file && error.line == 8 && error.entity == "Derived" && error.property == "name")
    }

    @Test func twoEntitiesOfOneName() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="A"/>
            <entity name="A"/>
            """))
        #expect(error.code == .duplicateEntity)
        #expect(error.line == 4 && error.entity == "A")
    }

    @Test func aConstraintNamingAMissingProperty() throws {
        let (error, _) = try Self.loadError(modelXML("""
            <entity name="A">
                <attribute name="x" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="x"/>
                        <constraint value="y"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """))
        #expect(error.code == .unknownProperty("y"))
        #expect(error.line == 8 && error.entity == "A")
    }

    @Test func aTemplateOrConfigurationNamingAMissingEntity() throws {
        let (template, _) = try Self.loadError(modelXML("""
            <entity name="A"/>
            <fetchRequest name="t" entity="Gone"/>
            """))
        #expect(template.code == .unknownEntity("Gone"))
        #expect(template.line == 4 && template.property == "fetch request template t")
        let (configuration, _) = try Self.loadError(modelXML("""
            <entity name="A"/>
            <configuration name="C">
                <memberEntity name="A"/>
                <memberEntity name="Gone"/>
            </configuration>
            """))
        #expect(configuration.code == .unknownEntity("Gone"))
        #expect(configuration.line == 6)
    }

    // MARK: Folders and versions

    @Test func xcode3BinaryModelsAreRefused() throws {
        let temp = try TemporaryFolder()
        try temp.write("binary", to: "Old.xcdatamodel/elements")
        try temp.write("binary", to: "Old.xcdatamodel/layout")
        let folder = temp.url.appendingPathComponent("Old.xcdatamodel")
        #expect(throws: ManagedObjectModelError(.binaryModelFormat, file: folder.path)) {
            try ManagedObjectModel(contentsOf: folder)
        }
        // Also as a version of a versioned model.
        try temp.write("binary", to: "V.xcdatamodeld/V.xcdatamodel/elements")
        let version = temp.url.appendingPathComponent("V.xcdatamodeld/V.xcdatamodel")
        #expect(throws: ManagedObjectModelError(.binaryModelFormat, file: version.path)) {
            try ManagedObjectModel(contentsOf: temp.url.appendingPathComponent("V.xcdatamodeld"))
        }
        // A binary property list given as the file.
        let plist = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        let file = temp.url.appendingPathComponent("contents")
        try plist.write(to: file)
        #expect(throws: ManagedObjectModelError(.binaryModelFormat, file: file.path)) {
            try ManagedObjectModel(contentsOf: file)
        }
    }

    @Test func aCurrentVersionThatIsNotThere() throws {
        let temp = try TemporaryFolder()
        try temp.write(modelXML(#"<entity name="A"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        let versionFile = try temp.write(currentVersionPlist("M 7.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        let folder = temp.url.appendingPathComponent("M.xcdatamodeld")
        let expected = ManagedObjectModelError(.missingCurrentVersion("M 7.xcdatamodel"), file: versionFile.path, line: 6)
        #expect(throws: expected) { try ManagedObjectModel(contentsOf: folder) }
        #expect(throws: expected) { try ManagedObjectModel.currentVersionName(in: folder) }
        // The versions that are there still load by name.
        #expect(try ManagedObjectModel(contentsOf: folder, versionNamed: "M").entities.map(\.name) == ["A"])
    }

    @Test func severalVersionsAndNoCurrentVersionFile() throws {
        let temp = try TemporaryFolder()
        try temp.write(modelXML(#"<entity name="A"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try temp.write(modelXML(#"<entity name="B"/>"#), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        let folder = temp.url.appendingPathComponent("M.xcdatamodeld")
        do {
            _ = try ManagedObjectModel(contentsOf: folder)
            Issue.record("loaded")
        } catch {
            guard case .unreadableFile(let why) = error.code else { Issue.record("\(error)"); return }
            #expect(why.contains("M, M 2"))
            #expect(error.file == folder.appendingPathComponent(".xccurrentversion").path)
        }
    }

    @Test func anUnknownVersionName() throws {
        let folder = ModelFixtures.url("mwkcoredata/MWKCoreDataTests.xcdatamodeld")
        #expect(throws: ManagedObjectModelError(.unknownVersion("MWKCoreDataTests9"), file: folder.path)) {
            try ManagedObjectModel(contentsOf: folder, versionNamed: "MWKCoreDataTests9")
        }
    }

    @Test func missingFilesAndFoldersWithoutAModel() throws {
        let temp = try TemporaryFolder()
        let missing = temp.url.appendingPathComponent("Nothing.xcdatamodel")
        #expect(throws: ManagedObjectModelError(.unreadableFile("no such file or folder"), file: missing.path)) {
            try ManagedObjectModel(contentsOf: missing)
        }
        let empty = try temp.folder("Empty.xcdatamodel")
        #expect(throws: ManagedObjectModelError(.unreadableFile("the folder holds no 'contents' file"), file: empty.path)) {
            try ManagedObjectModel(contentsOf: empty)
        }
        do {
            _ = try ManagedObjectModel.versionNames(in: empty)
            Issue.record("listed versions of a plain folder")
        } catch {
            guard case .unreadableFile = error.code else { Issue.record("\(error)"); return }
        }
    }
}

@Suite struct ModelLoadingPreflightTests {
    @Test func invalidUTF8IsMalformedWithItsLine() throws {
        var bytes = Array(modelXML(#"<entity name="A"/>"#).utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "A")))
        bytes[at] = 0xE4  // a Latin-1 'ä', not UTF-8
        do {
            _ = try ManagedObjectModel(xmlData: Data(bytes), fileName: "latin1")
            Issue.record("loaded")
        } catch {
            guard case .malformedXML(let message) = error.code else { Issue.record("\(error)"); return }
            #expect(message.contains("UTF-8"))
            #expect(error.file == "latin1" && error.line == 3)
        }
    }

    @Test func documentTypeDefinitionsAreRefused() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY big "0123456789">]>
            <model><entity name="&big;"/></model>
            """
        do {
            _ = try loadModel(xml)
            Issue.record("loaded")
        } catch {
            guard case .malformedXML(let message) = error.code else { Issue.record("\(error)"); return }
            #expect(message.contains("DOCTYPE"))
            #expect(error.line == 2)
        }
    }

    @Test func commentsCDATAAndNonASCIITextAreFine() throws {
        let model = try loadModel(modelXML("""
            <!-- Written by hand: a comment! -->
            <entity name="Café" representedClassName="Café">
                <attribute name="título" attributeType="String" defaultValueString="naïve ✓ 😀"/>
            </entity>
            """))
        #expect(model.entities.map(\.name) == ["Café"])
        #expect(model.attribute("Café", "título")?.defaultValue == .string("naïve ✓ 😀"))
    }
}
