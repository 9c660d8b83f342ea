// Shared helpers of the model-loading tests: where the fixtures are, temporary model folders.
import Foundation
@testable import ManagedObjects

/// The real model files copied from public projects (see Fixtures/README.md).
enum ModelFixtures {
    /// `Tests/ManagedObjectsTests/Fixtures/models`.
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("models")

    /// A fixture by its path under `models/`.
    static func url(_ path: String) -> URL { models.appendingPathComponent(path) }

    /// Every `contents` file under `models/`, sorted by path.
    static func allContentsFiles() -> [URL] {
        let enumerator = FileManager.default.enumerator(atPath: models.path)
        var files: [URL] = []
        while let path = enumerator?.nextObject() as? String {
            if (path as NSString).lastPathComponent == "contents" { files.append(models.appendingPathComponent(path)) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Every `.xcdatamodeld` folder under `models/`, sorted by path.
    static func allVersionedFolders() -> [URL] {
        let enumerator = FileManager.default.enumerator(atPath: models.path)
        var folders: [URL] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".xcdatamodeld") { folders.append(models.appendingPathComponent(path)) }
        }
        return folders.sorted { $0.path < $1.path }
    }
}

/// A fresh temporary folder, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelLoadingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `path` (creating folders on the way) and returns its URL.
    @discardableResult
    func write(_ text: String, to path: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Creates the folder `path` and returns its URL.
    @discardableResult
    func folder(_ path: String) throws -> URL {
        let folder = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A `.xccurrentversion` property list naming `version`.
func currentVersionPlist(_ version: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>_XCCurrentVersionName</key>
    \t<string>\(version)</string>
    </dict>
    </plist>
    """
}

/// A model document around `body`, as Xcode writes it (the `<model>` tag on line 2).
func modelXML(_ body: String, identifier: String? = nil) -> String {
    let id = identifier.map { " userDefinedModelVersionIdentifier=\"\($0)\"" } ?? ""
    return """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0"\(id)>
    \(body)
    </model>
    """
}

/// Loads a model from XML text held in memory.
func loadModel(_ xml: String, fileName: String? = "test/contents") throws(ManagedObjectModelError) -> ManagedObjectModel {
    try ManagedObjectModel(xmlData: Data(xml.utf8), fileName: fileName)
}

extension ManagedObjectModel {
    /// The attribute `property` of entity `entity` (inherited ones included).
    func attribute(_ entity: String, _ property: String) -> AttributeDescription? {
        self.entity(named: entity)?.attributesByName[property]
    }

    /// The relationship `property` of entity `entity` (inherited ones included).
    func relationship(_ entity: String, _ property: String) -> RelationshipDescription? {
        self.entity(named: entity)?.relationshipsByName[property]
    }
}
