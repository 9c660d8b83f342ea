// Finding the XML of a model on disk: `.xcdatamodel` folders, `.xcdatamodeld` version folders
// and their `.xccurrentversion` file, bare `contents` files; refusing Xcode 3 binary models.
import Foundation

/// The file-system side of loading a model: which `contents` file a URL stands for.
enum ModelFolder {
    /// The name of the XML file inside a `.xcdatamodel` folder.
    static let contentsName = "contents"
    /// The version file of a `.xcdatamodeld` folder.
    static let currentVersionFileName = ".xccurrentversion"
    /// The key of the current version's folder name in ``currentVersionFileName``.
    static let currentVersionKey = "_XCCurrentVersionName"
    static let versionExtension = "xcdatamodel"

    /// The `contents` file that `url` stands for: the file itself, a `.xcdatamodel` folder's
    /// `contents`, or the current version's `contents` in a `.xcdatamodeld` folder.
    static func contentsFile(for url: URL) throws(ManagedObjectModelError) -> URL {
        switch kind(of: url) {
        case .missing:
            throw ManagedObjectModelError(.unreadableFile("no such file or folder"), file: url.path)
        case .file:
            return url
        case .folder:
            if kind(of: url.appendingPathComponent(contentsName)) == .file {
                return url.appendingPathComponent(contentsName)
            }
            let versions = try versionFolders(in: url, required: false)
            if !versions.isEmpty {
                let current = try currentVersion(in: url, versions: versions)
                return try contentsFile(forVersionFolder: versions[current] ?? url)
            }
            return try contentsFile(forVersionFolder: url)
        }
    }

    /// The `contents` file of one `.xcdatamodel` folder; refuses Xcode 3 binary models.
    static func contentsFile(forVersionFolder folder: URL) throws(ManagedObjectModelError) -> URL {
        let contents = folder.appendingPathComponent(contentsName)
        if kind(of: contents) == .file { return contents }
        if kind(of: folder.appendingPathComponent("elements")) != .missing
            || kind(of: folder.appendingPathComponent("layout")) != .missing {
            throw ManagedObjectModelError(.binaryModelFormat, file: folder.path)
        }
        throw ManagedObjectModelError(.unreadableFile("the folder holds no 'contents' file"), file: folder.path)
    }

    /// The versions of a `.xcdatamodeld` folder: version name (without `.xcdatamodel`) →
    /// version folder.
    ///
    /// - Parameter required: Whether a folder without versions is an error.
    static func versionFolders(in url: URL, required: Bool = true) throws(ManagedObjectModelError) -> [String: URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ManagedObjectModelError(.unreadableFile("the folder cannot be listed"), file: url.path)
        }
        var versions: [String: URL] = [:]
        for name in names where name.hasSuffix("." + versionExtension) {
            let folder = url.appendingPathComponent(name)
            if kind(of: folder) == .folder { versions[versionName(name)] = folder }
        }
        if versions.isEmpty && required {
            throw ManagedObjectModelError(
                .unreadableFile("not a versioned model folder (.xcdatamodeld): no .xcdatamodel folder inside"),
                file: url.path)
        }
        return versions
    }

    /// The name of the current version of a `.xcdatamodeld` folder: the one `.xccurrentversion`
    /// names, or the only version when that file is missing.
    static func currentVersion(in url: URL, versions: [String: URL]) throws(ManagedObjectModelError) -> String {
        let file = url.appendingPathComponent(currentVersionFileName)
        guard kind(of: file) == .file else {
            if versions.count == 1, let only = versions.keys.first { return only }
            throw ManagedObjectModelError(
                .unreadableFile("there is no .xccurrentversion file to choose among \(versions.count) versions (\(versions.keys.sorted().joined(separator: ", "))); load one by name"),
                file: file.path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ManagedObjectModelError(.unreadableFile("the file cannot be read"), file: file.path)
        }
        // The package's checked reader, not PropertyListSerialization (which stops the process
        // on some binary lists on Linux).
        let plist: PropertyListValue
        do {
            plist = try PropertyListValue.parse(data)
        } catch {
            throw ManagedObjectModelError(.unreadableFile("not a readable property list: \(error.reason)"), file: file.path)
        }
        guard case .dictionary(let dictionary) = plist, case .string(let name)? = dictionary[currentVersionKey] else {
            throw ManagedObjectModelError(
                .unreadableFile("not a property list with a \(currentVersionKey) string"), file: file.path)
        }
        let version = versionName(name)
        guard versions[version] != nil else {
            throw ManagedObjectModelError(.missingCurrentVersion(name), file: file.path,
                                          line: line(of: ">\(name)<", in: data))
        }
        return version
    }

    /// A version name without its `.xcdatamodel` suffix.
    static func versionName(_ name: String) -> String {
        name.hasSuffix("." + versionExtension) ? String(name.dropLast(versionExtension.count + 1)) : name
    }

    /// The 1-based line of the first occurrence of `text` in `data`, or `nil`.
    private static func line(of text: String, in data: Data) -> Int? {
        guard let string = String(data: data, encoding: .utf8), let range = string.range(of: text) else { return nil }
        return string[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    enum Kind { case missing, file, folder }

    /// Whether `url` is missing, a file or a folder.
    static func kind(of url: URL) -> Kind {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .missing }
        return isFolder.boolValue ? .folder : .file
    }

    /// The bytes of a `contents` file; Xcode 3 binary files are refused.
    static func read(_ file: URL) throws(ManagedObjectModelError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ManagedObjectModelError(.unreadableFile("the file cannot be read"), file: file.path)
        }
        if data.starts(with: Array("bplist".utf8)) || data.starts(with: Array("typedstream".utf8))
            || data.starts(with: [0x04, 0x0B] + Array("streamtyped".utf8)) {
            throw ManagedObjectModelError(.binaryModelFormat, file: file.path)
        }
        return data
    }
}
