import ManagedObjects

/// The shelf-and-books models the stores' lightweight-migration tests share: version 1, and
/// version 2 with `pages` renamed `pageCount`, `read` added (required, default NO) and entity
/// `Magazine` added.
public enum LibraryMigrationModels {
    /// Version 1: a shelf with an ordered to-many of books (`title` required, `pages` of
    /// `pagesType`), plus a `Note` entity when `withNotes` is set.
    public static func v1(pagesType: AttributeDescription.AttributeType = .integer32,
                          withNotes: Bool = false) throws -> ManagedObjectModel {
        var entities = [shelf(), EntityDescription(name: "Book", properties: [
            .attribute("title", .string, isOptional: false),
            .attribute("pages", pagesType),
            .toOne("shelf", "Shelf", inverse: "books"),
        ])]
        if withNotes { entities.append(EntityDescription(name: "Note", properties: [.attribute("text", .string)])) }
        return try ManagedObjectModel(entities: entities)
    }

    /// Version 2 (no `Note` entity); `unique` puts a uniqueness constraint on `Book.title`.
    public static func v2(unique: Bool = false) throws -> ManagedObjectModel {
        var pageCount = AttributeDescription(name: "pageCount", type: .integer32)
        pageCount.renamingIdentifier = "pages"
        var book = EntityDescription(name: "Book", properties: [
            .attribute("title", .string, isOptional: false),
            .attribute(pageCount),
            .attribute("read", .boolean, isOptional: false, defaultValue: false),
            .toOne("shelf", "Shelf", inverse: "books"),
        ])
        if unique { book.uniquenessConstraints = [["title"]] }
        return try ManagedObjectModel(entities: [
            shelf(), book, EntityDescription(name: "Magazine", properties: [.attribute("issue", .integer16)]),
        ])
    }

    private static func shelf() -> EntityDescription {
        EntityDescription(name: "Shelf", properties: [
            .attribute("label", .string),
            .toMany("books", "Book", inverse: "shelf", ordered: true),
        ])
    }
}
