// The worked example of Docs/ManagedObjects.md, "A worked example: the journal" (issue 18).
// The code between each pair of `doc:` markers is one code block of that section, character for
// character apart from indentation; `theGuideShowsThisCode` checks it, so the guide's code is
// always code that compiles and passes.

// doc:journal-model begin
import Foundation
import ManagedObjects
import Predicates

final class JournalEntry: ManagedObject {
    override class var entityName: String { "Entry" }
    @Managed var title: String
    @Managed var body: String?
    @Managed var created: Date        // the model requires one
}

func makeJournalModel() throws -> ManagedObjectModel {
    let model = try ManagedObjectModel(entities: [
        EntityDescription(name: "Entry", properties: [
            .attribute("title", .string, isOptional: false, rules: [.minimumLength(1)]),
            .attribute("body", .string),
            .attribute("created", .date, isOptional: false),
        ]),
    ])
    try model.setManagedObjectClass(JournalEntry.self, forEntityNamed: "Entry")
    return model
}
// doc:journal-model end

import Testing

@Suite struct JournalExampleTests {
    @Test func addUpdateDeleteAndSaveNewestFirst() throws {
        // doc:journal-use begin
        let coordinator = PersistentStoreCoordinator(model: try makeJournalModel())
        try coordinator.addStore(InMemoryStore())   // or SQLitePersistentStore(url:), from SQLiteStore
        let context = ManagedObjectContext(coordinator: coordinator)

        // Add: three entries, a day apart.
        func add(_ title: String, _ body: String, _ created: Date) throws -> JournalEntry {
            let entry = try context.insertNewObject(JournalEntry.self)
            entry.title = title
            entry.body = body
            entry.created = created
            return entry
        }
        let day1 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let planting = try add("Planting", "Two apple trees by the fence.", day1)
        let rain = try add("Rain", "All day.", day1 + 86_400)
        let blossom = try add("Blossom", "The first flowers.", day1 + 2 * 86_400)
        #expect(context.insertedObjects.count == 3)
        try context.save()

        // List, newest first.
        var newestFirst = JournalEntry.fetchRequest()
        newestFirst.sortDescriptors = [KeyValueSortDescriptor(key: "created", ascending: false)]
        func titles() throws -> [String] { try context.fetch(newestFirst, as: JournalEntry.self).map(\.title) }
        #expect(try titles() == ["Blossom", "Rain", "Planting"])

        // Update: the context tracks the change until the next save.
        rain.body = "All day; the trees liked it."
        #expect(context.updatedObjects == [rain] && rain.changedValues().keys.sorted() == ["body"])

        // Delete, and save both changes in one go.
        context.delete(planting)
        try context.save()
        #expect(try titles() == ["Blossom", "Rain"])
        #expect(!context.hasChanges)

        // The saved state, seen from a second context on the same coordinator.
        let reader = ManagedObjectContext(coordinator: coordinator)
        let saved = try reader.fetch(newestFirst, as: JournalEntry.self)
        #expect(saved.map(\.title) == ["Blossom", "Rain"])
        #expect(saved.last?.body == "All day; the trees liked it.")

        // A title may not be empty: the save is refused, names the key, and changes nothing.
        blossom.title = ""
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.code == .stringTooShort && error.key == "title")
        context.rollback()                          // back to the last save
        #expect(blossom.title == "Blossom")
        // doc:journal-use end
    }

    /// The guide's code blocks are this file's marked regions.
    @Test func theGuideShowsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let guide = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/ManagedObjects.md")
        let source = try String(contentsOf: here, encoding: .utf8)
        let blocks = Self.swiftBlocks(in: try String(contentsOf: guide, encoding: .utf8),
                                      section: "## A worked example: the journal")
        let regions = ["journal-model", "journal-use"].map { Self.region($0, in: source) }
        #expect(regions.allSatisfy { !$0.isEmpty })
        #expect(blocks.count == regions.count, "the section has \(blocks.count) swift blocks, the test \(regions.count) regions")
        for (block, region) in zip(blocks, regions) {
            let guideLines = block.split(separator: "\n", omittingEmptySubsequences: false)
            let testLines = region.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(guideLines, testLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(guideLines.count, testLines.count)
            #expect(block == region, """
                first difference at line \(first + 1) of the block: \
                guide '\(first < guideLines.count ? guideLines[first] : "(end)")', \
                test '\(first < testLines.count ? testLines[first] : "(end)")'
                """)
        }
    }

    /// The lines between `// doc:NAME begin` and `// doc:NAME end`, without their common indentation.
    static func region(_ name: String, in source: String) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// doc:\(name) begin" }),
              let end = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// doc:\(name) end" }),
              start < end else { return "" }
        let body = Array(lines[(start + 1)..<end])
        let indent = body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
    }

    /// The ```swift blocks of one `## ` section of a markdown file.
    static func swiftBlocks(in markdown: String, section heading: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        var inSection = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("## ") { inSection = line == heading }
            guard inSection else { continue }
            switch (current, line) {
            case (nil, "```swift"):
                current = []
            case (let block?, "```"):
                blocks.append(block.joined(separator: "\n"))
                current = nil
            case (var block?, _):
                block.append(line)
                current = block
            default:
                break
            }
        }
        return blocks
    }
}
