// The bug tracker's store: bugs in a plain text file, through the public store interface only.
import Foundation
import Synchronization
import ObjectGraph

/// A custom incremental store keeping bugs in a text file (``BugFile`` describes the format),
/// written only against ObjectGraph's public store interface: it is the worked example of
/// Docs/Stores.md.
///
/// - Fetches answer with object IDs only (faults): a tracker asks for a bug's values when it
///   shows the bug (``row(for:)``), so listing one page of a long file loads that page. Count
///   requests get the number alone.
///   Predicates and sort descriptors are evaluated in memory by
///   `StoreFetchRequest.evaluate(over:in:returningFaults:)`.
/// - A bug's number is its reference object (`.integer(number)`); numbers come from the
///   file's `next` counter, reserved under the lock when the context obtains permanent IDs.
/// - Every read takes a shared lock and every write an exclusive one (``BugFileLock``); a save
///   re-reads the file under the lock, checks each changed bug's version (a bug changed or
///   deleted by another tracker meanwhile is a conflict: nothing is written), then writes the
///   whole file to a temporary file and renames it over the old one.
///
/// - Important: Thread safety: `Sendable`; the file lock orders processes, the mutex guards
///   the loaded state.
public final class BugFileStore: PersistentStore {
    /// The store type's name, `"BugFile"`.
    public static let type = "BugFile"
    /// The entity whose objects the store keeps.
    public static let entityName = "Bug"

    /// The bug file.
    public let url: URL
    private let lock: BugFileLock
    private let trace: (@Sendable (String) -> Void)?

    private struct State {
        var identifier = ""
        var model: ManagedObjectModel?
        var metadata: [String: any Sendable] = [:]
    }
    private let state = Mutex(State())

    /// A store for a bug file; nothing is read until the coordinator loads it.
    ///
    /// - Parameters:
    ///   - url: The file; created on load when missing.
    ///   - trace: Told what the store is asked, one line per call (for `--trace`).
    public init(url: URL, trace: (@Sendable (String) -> Void)? = nil) {
        self.url = url
        self.lock = BugFileLock(bugFile: url)
        self.trace = trace
    }

    /// Registers the `"BugFile"` type, so that `StoreDescription(type: "BugFile", url:)` opens
    /// one.
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type) { description in
            guard let url = description.url else { throw BugTrackerError.io(path: "(no URL)", reason: "a BugFile store description needs a file URL") }
            return BugFileStore(url: url)
        }
    }

    public var identifier: String { state.withLock { $0.identifier } }
    public var storeType: String { Self.type }
    public var metadata: [String: any Sendable] { state.withLock { $0.metadata } }

    // MARK: Metadata

    /// Opens the file, creating it with a new UUID when missing; the UUID in the file is the
    /// store's identifier, so object URIs stay valid across runs.
    public func load(for model: ManagedObjectModel) throws {
        guard model.entity(named: Self.entityName) != nil else {
            throw BugTrackerError.io(path: url.path, reason: "the model has no entity '\(Self.entityName)'")
        }
        let file = try lock.withLock(exclusive: true) { () throws -> BugFile in
            if FileManager.default.fileExists(atPath: url.path) { return try read() }
            let file = BugFile(uuid: UUID().uuidString)
            try write(file)
            return file
        }
        state.withLock {
            $0.identifier = file.uuid
            $0.model = model
            $0.metadata = StoreMetadata.standard(storeType: Self.type, identifier: file.uuid, model: model)
        }
    }

    // MARK: Fetching

    /// The matching bugs' IDs, without their values.
    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let file = try lock.withLock(exclusive: false, read)
        guard let model = state.withLock({ $0.model }) else { return StoreFetchResult(rows: [], appliedPredicate: true, appliedOrderAndLimits: true) }
        let rows = file.bugs.map(row)
        let result = try request.evaluate(over: rows, in: model, returningFaults: true)
        let filter = request.predicate.map { " where \($0.predicateFormat)" } ?? ""
        if let count = result.count {
            trace?("store: count \(Self.entityName)\(filter) → \(count) of \(rows.count)")
        } else {
            trace?("store: fetch \(Self.entityName)\(filter) → \(result.objectIDs.count) of \(rows.count) IDs (no values)")
        }
        return result
    }

    /// One bug's values and version: what fills its fault.
    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        guard let number = referenceObject(for: id)?.integerValue else { return nil }
        let line = try lock.withLock(exclusive: false, read).line(numbered: number)
        trace?("store: values of bug #\(number)" + (line.map { " (version \($0.version))" } ?? " (gone)"))
        return line.map(row)
    }

    /// The file's bugs as rows: the number (reference object) is also readable as `number`.
    private func row(_ line: BugFile.Line) -> StoreRow {
        StoreRow(objectID: newObjectID(forEntityNamed: Self.entityName, referenceObject: .integer(line.number)),
                 version: line.version,
                 attributes: ["number": .integer(line.number), "title": .string(line.title), "isFixed": .bool(line.isFixed)])
    }

    // MARK: Saving

    /// Numbers for new bugs, reserved in the file at once.
    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        let first = try lock.withLock(exclusive: true) { () throws -> Int64 in
            var file = try read()
            let first = file.next
            guard Int64(entityNames.count) <= BugFile.largestNumber - first else {
                throw BugTrackerError.io(path: url.path, reason: "no bug numbers are left (the file counts at most to \(BugFile.largestNumber))")
            }
            file.next += Int64(entityNames.count)
            try write(file)
            return first
        }
        if !entityNames.isEmpty {
            trace?("store: numbers #\(first)…#\(first + Int64(entityNames.count) - 1) reserved")
        }
        return entityNames.enumerated().map { offset, name in
            newObjectID(forEntityNamed: name, referenceObject: .integer(first + Int64(offset)))
        }
    }

    /// Writes one save: every change or none; a bug changed elsewhere since it was read is a
    /// conflict.
    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try lock.withLock(exclusive: true) { () throws -> [ManagedObjectID: Int64] in
            var file = try read()
            var lines: [Int64: BugFile.Line] = [:]
            for line in file.bugs { lines[line.number] = line }
            let conflicts = changes.conflicts { id in referenceObject(for: id)?.integerValue.flatMap { lines[$0]?.version } }
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
            var versions: [ManagedObjectID: Int64] = [:]
            for row in changes.inserted {
                let number = try self.number(of: row.objectID)
                guard lines[number] == nil else { throw BugTrackerError.numberTaken(number) }
                var line = BugFile.Line(number: number, version: 1, isFixed: false, title: "")
                apply(row, to: &line)
                lines[number] = line
                versions[row.objectID] = 1
            }
            for row in changes.updated {
                // The version check above found every updated bug in the file.
                let number = try self.number(of: row.objectID)
                guard var line = lines[number] else { throw StoreSaveError.conflicts([StoreConflict(objectID: row.objectID, expectedVersion: row.version, storeVersion: 0)]) }
                line.version += 1
                apply(row, to: &line)
                lines[number] = line
                versions[row.objectID] = line.version
            }
            for (id, _) in changes.deleted { lines[try number(of: id)] = nil }
            file.bugs = lines.values.sorted { $0.number < $1.number }
            file.next = max(file.next, (file.bugs.last?.number ?? 0) + 1)
            try write(file)
            trace?("store: saved \(changes.inserted.count) new, \(changes.updated.count) changed, \(changes.deleted.count) deleted")
            return versions
        }
    }

    private func number(of id: ManagedObjectID) throws -> Int64 {
        guard let number = referenceObject(for: id)?.integerValue else {
            throw StoreSaveError.invalidObject(id, reason: "it is not a bug of \(url.path)")
        }
        return number
    }

    private func apply(_ row: StoreRow, to line: inout BugFile.Line) {
        if case .string(let title) = row.attributes["title"] { line.title = title }
        if case .bool(let fixed) = row.attributes["isFixed"] { line.isFixed = fixed }
    }

    // MARK: The file

    /// Reads and parses the whole file (call holding the lock).
    private func read() throws -> BugFile {
        let data: Data
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw BugTrackerError.io(path: url.path, reason: "this is a folder; give the path of a bug file")
        }
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BugTrackerError.io(path: url.path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BugTrackerError.damagedFile(path: url.path, line: 1, reason: "the file is not UTF-8 text")
        }
        return try BugFile(text: text, path: url.path)
    }

    /// Writes the whole file to a temporary file beside it, then renames it into place (call
    /// holding the exclusive lock): a reader sees the old file or the new one, never half.
    private func write(_ file: BugFile) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
        do {
            try Data(file.text.utf8).write(to: temporary)
            try BugFileLock.rename(temporary, to: url)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw BugTrackerError.io(path: url.path, reason: error.localizedDescription)
        }
    }
}
