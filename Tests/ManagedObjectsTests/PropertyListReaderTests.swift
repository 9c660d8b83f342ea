// The checked property-list reader behind .xccurrentversion, store metadata and keyed archives.
import Foundation
import Testing
@testable import ManagedObjects

/// Property lists the program did not write never reach `PropertyListSerialization`, which on
/// Linux stops the process on some of them (trial 11, F1: a binary list holding a set).
@Suite struct PropertyListReaderTests {
    /// `{"_XCCurrentVersionName": set{1}}` as a binary property list (object marker 0xC1).
    static let listWithSet: [UInt8] = [
        0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xd1, 0x01, 0x02, 0x5f, 0x10, 0x15,
    ] + Array("_XCCurrentVersionName".utf8) + [
        0xc1, 0x03, 0x10, 0x01, 0x00, 0x08, 0x00, 0x0b, 0x00, 0x23, 0x00, 0x25,
        0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x27,
    ]

    /// A model folder with versions M and M 2 and `currentVersion` as its .xccurrentversion.
    static func folder(_ temp: TemporaryFolder, currentVersion: Data) throws -> (folder: URL, file: URL) {
        try temp.write(modelXML(#"<entity name="Old"/>"#), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try temp.write(modelXML(#"<entity name="New"/>"#), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        let folder = temp.url.appendingPathComponent("M.xcdatamodeld")
        let file = folder.appendingPathComponent(".xccurrentversion")
        try currentVersion.write(to: file)
        return (folder, file)
    }

    /// The error loading `folder` throws, or `nil` (an issue recorded) when it loads.
    static func loadingError(_ folder: URL) -> ManagedObjectModelError? {
        do {
            _ = try ManagedObjectModel(contentsOf: folder)
            Issue.record("loaded")
            return nil
        } catch {
            return error
        }
    }

    @Test func aCurrentVersionFileHoldingASetIsAThrownErrorNamingIt() throws {
        let temp = try TemporaryFolder()
        let (folder, file) = try Self.folder(temp, currentVersion: Data(Self.listWithSet))
        let error = try #require(Self.loadingError(folder))
        #expect(error.code == .unreadableFile("not a property list with a _XCCurrentVersionName string"))
        #expect(error.file == file.path)
        #expect(error.localizedDescription.contains(file.path))
        #expect(try Data(contentsOf: file) == Data(Self.listWithSet))
    }

    @Test func aBinaryCurrentVersionFileIsRead() throws {
        let temp = try TemporaryFolder()
        let binary = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "M 2.xcdatamodel"],
                                                        format: .binary, options: 0)
        let (folder, _) = try Self.folder(temp, currentVersion: binary)
        #expect(try ManagedObjectModel(contentsOf: folder).entities.map(\.name) == ["New"])
    }

    @Test(arguments: [
        // An internal document type subset may declare entities: refused before parsing.
        ("<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY v \"M 2.xcdatamodel\">]><plist><dict><key>_XCCurrentVersionName</key><string>&v;</string></dict></plist>", "declaration"),
        ("<plist><dict><key>_XCCurrentVersionName</key></dict></plist>", "has no value"),
        ("<plist><dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string>", "not well formed"),
        ("<plist><dict><key>_XCCurrentVersionName</key><blob>x</blob></dict></plist>", "unknown element <blob>"),
        ("{ _XCCurrentVersionName = \"M 2.xcdatamodel\"; }", "not well formed"),
        ("bplist00\u{0}\u{1}", "not a binary property list"),
    ])
    func unreadableCurrentVersionFilesAreThrownErrors(text: String, reason: String) throws {
        let temp = try TemporaryFolder()
        let (folder, file) = try Self.folder(temp, currentVersion: Data(text.utf8))
        let error = try #require(Self.loadingError(folder))
        guard case .unreadableFile(let why) = error.code else { Issue.record("\(error)"); return }
        #expect(why.contains(reason), "\(why)")
        #expect(error.file == file.path)
    }

    @Test func xmlListsReadEveryKindOfValue() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>text</key><string> a &amp; b </string>
            \t<key>numbers</key><array><integer>-7</integer><integer>18446744073709551615</integer><real>2.5</real></array>
            \t<key>flags</key><array><true/><false/></array>
            \t<key>when</key><date>2001-01-01T00:01:40Z</date>
            \t<key>bytes</key><data>
            \tAAH/
            \t</data>
            \t<key>empty</key><dict/>
            </dict>
            </plist>
            """
        let value = try PropertyListValue.parse(Data(text.utf8))
        let swift = try #require(value.sendableValue as? [String: any Sendable])
        #expect(swift["text"] as? String == " a & b ")
        let numbers = try #require(swift["numbers"] as? [any Sendable])
        #expect(numbers.count == 3)
        #expect(numbers[0] as? Int == -7)
        #expect(numbers[2] as? Double == 2.5)
        #expect((swift["flags"] as? [any Sendable])?.compactMap { $0 as? Bool } == [true, false])
        #expect(swift["when"] as? Date == Date(timeIntervalSinceReferenceDate: 100))
        #expect(swift["bytes"] as? Data == Data([0, 1, 255]))
        #expect((swift["empty"] as? [String: any Sendable])?.isEmpty == true)
    }

    @Test func xmlNestingAndSizeAreBounded() throws {
        let deep = String(repeating: "<array>", count: 500) + String(repeating: "</array>", count: 500)
        #expect(throws: PropertyListReadError("nested too deeply (line 1)")) {
            try PropertyListValue.parse(Data("<plist>\(deep)</plist>".utf8))
        }
        let wide = "<plist><array>" + String(repeating: "<true/>", count: 250_000) + "</array></plist>"
        #expect(throws: PropertyListReadError("too many elements (line 1)")) { try PropertyListValue.parse(Data(wide.utf8)) }
    }
}
