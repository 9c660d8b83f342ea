import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// The relationship layouts Apple's stores could not show (Docs/SQLiteStore.md, decisions):
/// ordered many-to-many, inverse-less to-many, one-to-one, a relationship of an entity with
/// itself. Each round-trips through a new coordinator.
@Suite struct RelationshipLayoutTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Playlist", properties: [
                .attribute("name", .string),
                .toMany("songs", "Song", inverse: "playlists", ordered: true),
                .toMany("favourites", "Song", inverse: nil),
            ]),
            EntityDescription(name: "Song", properties: [
                .attribute("title", .string),
                .toMany("playlists", "Playlist", inverse: "songs"),
                .toOne("lyrics", "Lyrics", inverse: "song"),
                .toMany("covers", "Song", inverse: "originals"),
                .toMany("originals", "Song", inverse: "covers"),
            ]),
            EntityDescription(name: "Lyrics", properties: [
                .attribute("text", .string), .toOne("song", "Song", inverse: "lyrics"),
            ]),
        ])
    }

    @Test func layoutOfTheUnobservedCases() throws {
        // Lyrics 1, Playlist 2, Song 3.
        let schema = try SQLiteSchema(model: try Self.model(), path: "test")
        let tables = Dictionary(uniqueKeysWithValues: schema.tables.map { ($0.name, $0.columns.map(\.name)) })
        #expect(tables["Z_2SONGS"] == ["Z_2PLAYLISTS", "Z_3SONGS", "Z_FOK_3SONGS"])
        #expect(tables["Z_2FAVOURITES"] == ["Z_2INVERSE_FAVOURITES", "Z_3FAVOURITES"])
        #expect(tables["Z_3COVERS"] == ["Z_3ORIGINALS", "Z_3COVERS"], "a self-relationship: the name sorting first names the table")
        #expect(tables["ZSONG"] == ["ZLYRICS", "ZTITLE"])
        #expect(tables["ZLYRICS"] == ["ZSONG", "ZTEXT"])
    }

    @Test func everyKindRoundTrips() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Music.sqlite")
        do {
            let (_, context) = try openStack(try Self.model(), at: url)
            let playlist = try context.insertNewObject(forEntityNamed: "Playlist")
            var songs: [ManagedObject] = []
            for title in ["one", "two", "three"] {
                let song = try context.insertNewObject(forEntityNamed: "Song")
                try song.setValue(title, forKey: "title")
                songs.append(song)
            }
            try playlist.setValue([songs[2], songs[0], songs[1]], forKey: "songs")
            try playlist.setValue(Set([songs[1]]), forKey: "favourites")
            try songs[0].setValue(Set([songs[1], songs[2]]), forKey: "covers")
            let lyrics = try context.insertNewObject(forEntityNamed: "Lyrics")
            try lyrics.setValue("la la", forKey: "text")
            try lyrics.setValue(songs[0], forKey: "song")
            try context.save()
            try playlist.setValue([songs[1], songs[2]], forKey: "songs")
            try context.save()
        }
        let (_, context) = try openStack(try Self.model(), at: url)
        let playlist = try #require(try context.fetch(EntityFetchRequest(entityName: "Playlist")).first)
        let order = (playlist.stored("songs") as? [ManagedObject] ?? []).map { $0.stored("title") as? String }
        #expect(order == ["two", "three"])
        let favourites = playlist.stored("favourites") as? Set<ManagedObject> ?? []
        #expect(favourites.map { $0.stored("title") as? String } == ["two"])
        let songs = try context.fetch(EntityFetchRequest(entityName: "Song"))
        let one = try #require(songs.first { $0.stored("title") as? String == "one" })
        #expect(Set((one.stored("covers") as? Set<ManagedObject> ?? []).compactMap { $0.stored("title") as? String }) == ["two", "three"])
        let two = try #require(songs.first { $0.stored("title") as? String == "two" })
        #expect((two.stored("originals") as? Set<ManagedObject>)?.first === one)
        #expect((two.stored("playlists") as? Set<ManagedObject>)?.first === playlist)
        #expect((one.stored("playlists") as? Set<ManagedObject>)?.isEmpty == true)
        let lyrics = try #require(one.stored("lyrics") as? ManagedObject)
        #expect(lyrics.stored("text") as? String == "la la")
        #expect((lyrics.stored("song") as? ManagedObject) === one)
        let positions = "SELECT s.ZTITLE, j.Z_FOK_3SONGS FROM Z_2SONGS j JOIN ZSONG s ON s.Z_PK = j.Z_3SONGS ORDER BY j.Z_FOK_3SONGS"
        #expect(try query(url, positions) == [[.text("two"), .integer(1)], [.text("three"), .integer(2)]])
    }
}
