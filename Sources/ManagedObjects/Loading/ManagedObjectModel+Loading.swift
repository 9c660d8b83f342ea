// Loading a model from Xcode's data model files: the public entry points.
import Foundation

extension ManagedObjectModel {
    /// Loads a model from an Xcode data model (Apple: `NSManagedObjectModel(contentsOf:)`).
    ///
    /// `url` may be a `.xcdatamodel` folder (its `contents` XML file is read), a `contents` file
    /// itself, or a versioned `.xcdatamodeld` folder, whose current version is loaded: the one
    /// its `.xccurrentversion` file names, or the only version when that file is missing.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: "Model.xcdatamodeld"))
    /// for warning in model.warnings { print(warning) }   // what the loader skipped
    /// ```
    ///
    /// Unknown elements and XML attributes (from a newer Xcode) are skipped and listed in
    /// ``warnings`` with their file and line. The diagram layout, code generation settings,
    /// tool versions and sync flags are skipped silently.
    ///
    /// Apple compiles models to `.mom` files and returns `nil` for a bad one; this loader reads
    /// the XML that Xcode writes and throws.
    ///
    /// - Parameter url: A `.xcdatamodel` or `.xcdatamodeld` folder, or a `contents` file.
    /// - Throws: ``ManagedObjectModelError`` naming the file, the line, the entity and the
    ///   property: ``ManagedObjectModelError/Code/unreadableFile(_:)``,
    ///   ``ManagedObjectModelError/Code/malformedXML(_:)`` (not well formed, or not a
    ///   `<model>`), ``ManagedObjectModelError/Code/binaryModelFormat`` (Xcode 3 `elements`
    ///   and `layout` files), ``ManagedObjectModelError/Code/missingCurrentVersion(_:)``,
    ///   ``ManagedObjectModelError/Code/unknownAttributeType(_:)``,
    ///   ``ManagedObjectModelError/Code/missingXMLAttribute(_:)``,
    ///   ``ManagedObjectModelError/Code/invalidValue(_:)``,
    ///   ``ManagedObjectModelError/Code/invalidPredicate(_:)``, and the errors of the model's
    ///   checks (unknown destination, inverse that does not point back, inheritance cycle…)
    ///   with the line of the element at fault.
    /// - Complexity: O(*n*) in the size of the file.
    /// - Important: Thread safety: safe to call from any thread.
    public convenience init(contentsOf url: URL) throws(ManagedObjectModelError) {
        let file = try ModelFolder.contentsFile(for: url)
        try self.init(xmlData: try ModelFolder.read(file), fileName: file.path)
    }

    /// Loads one version of a versioned model (a `.xcdatamodeld` folder), by name.
    ///
    /// ```swift
    /// let v2 = try ManagedObjectModel(contentsOf: modelFolder, versionNamed: "Model 2")
    /// ```
    ///
    /// - Parameters:
    ///   - url: The `.xcdatamodeld` folder.
    ///   - versionName: The version's name, with or without the `.xcdatamodel` suffix.
    /// - Throws: ``ManagedObjectModelError/Code/unknownVersion(_:)`` when the folder has no
    ///   such version; otherwise as ``init(contentsOf:)``.
    public convenience init(contentsOf url: URL, versionNamed versionName: String) throws(ManagedObjectModelError) {
        let versions = try ModelFolder.versionFolders(in: url)
        guard let folder = versions[ModelFolder.versionName(versionName)] else {
            throw ManagedObjectModelError(.unknownVersion(versionName), file: url.path)
        }
        let file = try ModelFolder.contentsFile(forVersionFolder: folder)
        try self.init(xmlData: try ModelFolder.read(file), fileName: file.path)
    }

    /// Loads a model from the XML of a data model `contents` file held in memory.
    ///
    /// Use it for a model embedded in an app as a resource or a string; it reads the same XML
    /// as ``init(contentsOf:)``.
    ///
    /// - Parameters:
    ///   - xmlData: The XML, as Xcode writes it in a `.xcdatamodel` folder's `contents` file.
    ///   - fileName: The name errors and warnings give as the file, or `nil`.
    /// - Throws: ``ManagedObjectModelError`` as ``init(contentsOf:)`` (without the file-system
    ///   errors), with ``ManagedObjectModelError/file`` set to `fileName`.
    /// - Complexity: O(*n*) in the size of the XML.
    public convenience init(xmlData: Data, fileName: String? = nil) throws(ManagedObjectModelError) {
        let contents = try ModelXMLReader.read(xmlData, file: fileName)
        do {
            try self.init(entities: contents.entities, configurations: contents.configurations,
                          fetchRequestTemplates: contents.templates, versionIdentifiers: contents.versionIdentifiers)
        } catch {
            throw contents.locate(error)
        }
        if !contents.warnings.isEmpty { appendLoadWarnings(contents.warnings) }
    }

    /// The names of the versions in a versioned model folder, sorted, without the
    /// `.xcdatamodel` suffix.
    ///
    /// - Parameter url: A `.xcdatamodeld` folder.
    /// - Returns: The version names, for example `["Model", "Model 2"]`.
    /// - Throws: ``ManagedObjectModelError/Code/unreadableFile(_:)`` when `url` is not a folder
    ///   holding `.xcdatamodel` versions.
    public static func versionNames(in url: URL) throws(ManagedObjectModelError) -> [String] {
        try ModelFolder.versionFolders(in: url).keys.sorted()
    }

    /// The name of the version that ``init(contentsOf:)`` loads from a versioned model folder:
    /// the one its `.xccurrentversion` file names, or the only one when that file is missing.
    ///
    /// - Parameter url: A `.xcdatamodeld` folder.
    /// - Returns: The version name without the `.xcdatamodel` suffix.
    /// - Throws: ``ManagedObjectModelError/Code/missingCurrentVersion(_:)`` when the file names
    ///   a version that is not there; ``ManagedObjectModelError/Code/unreadableFile(_:)`` when
    ///   `url` has no versions, or has several and no (readable) `.xccurrentversion`.
    public static func currentVersionName(in url: URL) throws(ManagedObjectModelError) -> String {
        try ModelFolder.currentVersion(in: url, versions: ModelFolder.versionFolders(in: url))
    }
}
