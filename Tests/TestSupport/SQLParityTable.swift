// The in-memory-versus-SQL parity table: one data set and one list of predicates, run by the
// SQLite store's tests and the PostgreSQL store's tests.
import Foundation
import ManagedObjects
import Predicates

/// Fruit, stands, owners and tags with every kind of value (nil, NaN, -0.0, huge numbers,
/// decomposed and precomposed accents, the Kelvin sign, `ß`, the dotted capital I, emoji),
/// and predicates over them covering what a store compiles to SQL.
package enum SQLParityTable {
    package static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Fruit", properties: [
                .attribute("serial", .integer64), .attribute("count", .integer64), .attribute("small", .integer16),
                .attribute("weight", .double), .attribute("price", .decimal), .attribute("ripe", .boolean),
                .attribute("name", .string), .attribute("picked", .date), .attribute("code", .uuid),
                .toOne("stand", "Stand", inverse: "fruits"),
                .toMany("tags", "Tag", inverse: "fruits"),
            ]),
            EntityDescription(name: "Stand", properties: [
                .attribute("serial", .integer64), .attribute("label", .string), .attribute("rank", .integer32),
                .toMany("fruits", "Fruit", inverse: "stand"),
                .toOne("owner", "Owner", inverse: "stands"),
            ]),
            EntityDescription(name: "Owner", properties: [
                .attribute("serial", .integer64), .attribute("name", .string),
                .toMany("stands", "Stand", inverse: "owner"),
            ]),
            EntityDescription(name: "Tag", properties: [
                .attribute("serial", .integer64), .attribute("label", .string), .attribute("weight", .double),
                .toMany("fruits", "Fruit", inverse: "tags"),
            ]),
        ])
    }

    package static let names: [String?] = [nil, "apple", "Apple", "APPLE", "\u{E9}clair", "e\u{301}clair", "Eclair", "banana", "",
                                    "\u{212A}iwi", "kiwi", "Stra\u{DF}e", "STRASSE", "na\u{EF}ve", "\u{1F34E} red", "a*b", "a?c",
                                    "pe\u{301}ar", "z", "\u{130}stanbul", "istanbul",
                                    "a\u{301}pple", "a[1]", "a\u{10FFFF}", "\u{E9}t\u{E9}"]
    package static let weights: [Double?] = [nil, 0.5, 2, -3, .nan, 2.0, 1e300, -0.0, 0, 7.25]
    package static let prices: [Decimal?] = [nil, Decimal(string: "10.11"), 2, Decimal(string: "0.1"), -5]
    package static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)
    package static let code = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    /// Fills a context: 3 owners, 6 stands, 8 tags, 60 fruit with every kind of value.
    package static func stock(_ context: ManagedObjectContext) throws {
        var owners: [ManagedObject] = []
        for index in 0..<3 {
            let owner = try context.insertNewObject(forEntityNamed: "Owner")
            try owner.setValue(Int64(index), forKey: "serial")
            try owner.setValue(["Ann", "b\u{F6}b", nil][index], forKey: "name")
            owners.append(owner)
        }
        var stands: [ManagedObject] = []
        for index in 0..<6 {
            let stand = try context.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue(Int64(index), forKey: "serial")
            try stand.setValue(["North", "south", nil, "\u{C9}ast", "east", "West"][index], forKey: "label")
            try stand.setValue(index == 2 ? nil : Int32(index % 3), forKey: "rank")
            try stand.setValue(index < 5 ? owners[index % 3] : nil, forKey: "owner")
            stands.append(stand)
        }
        var tags: [ManagedObject] = []
        for index in 0..<8 {
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            try tag.setValue(Int64(index), forKey: "serial")
            try tag.setValue(["sweet", "Sour", nil, "sw\u{E9}et", "organic", "local", "LOCAL", "x"][index], forKey: "label")
            try tag.setValue(index == 3 ? Double.nan : Double(index) * 1.5, forKey: "weight")
            tags.append(tag)
        }
        for index in 0..<60 {
            let fruit = try context.insertNewObject(forEntityNamed: "Fruit")
            try fruit.setValue(Int64(index), forKey: "serial")
            try fruit.setValue(index % 9 == 0 ? nil : Int64(index % 13 - 6), forKey: "count")
            try fruit.setValue(index % 11 == 0 ? nil : Int16(index % 4), forKey: "small")
            try fruit.setValue(weights[index % weights.count], forKey: "weight")
            try fruit.setValue(prices[index % prices.count], forKey: "price")
            try fruit.setValue(index % 7 == 0 ? nil : index % 2 == 0, forKey: "ripe")
            try fruit.setValue(names[index % names.count], forKey: "name")
            try fruit.setValue(index % 8 == 0 ? nil : reference.addingTimeInterval(Double(index % 10 - 5) * 3600), forKey: "picked")
            try fruit.setValue(index % 6 == 0 ? code : (index % 6 == 1 ? nil : UUID()), forKey: "code")
            try fruit.setValue(index % 10 == 9 ? nil : stands[index % stands.count], forKey: "stand")
            let tagged = (0..<8).filter { (index + $0) % 5 == 0 || (index * $0) % 7 == 3 }
            try fruit.setValue(Set(tagged.map { tags[$0] }), forKey: "tags")
        }
    }

    /// Predicates on Fruit. Those marked `true` must compile to SQL exactly on SQLite.
    package static let predicates: [(String, Bool)] = [
        // numbers, across integer, double and Boolean constants; nil; NaN
        ("count == 3", true), ("count != 3", true), ("count < 0", true), ("count >= -2.5", true), ("3 > count", true),
        ("count == nil", true), ("count != nil", true), ("count IN {1, 2, -6}", true), ("count BETWEEN {-1, 1.5}", true),
        ("small == 2", true), ("small > 1.5", true), ("small == YES", true),
        ("weight > 1", true), ("weight < 1", true), ("weight == 2", true), ("weight != 2", true), ("weight <= 0", true),
        ("weight == nil", true), ("weight != nil", true), ("weight >= -0.0", true), ("weight IN {0.5, 7.25}", true),
        // -0.0 equals 0.0 in memory; SQLite reads the stored -0.0 back as 0.0 (trial12 N6).
        ("weight == -0.0", true), ("weight == 0", true), ("weight < -0.0", true), ("weight IN {-0.0, 2}", true),
        ("NOT (weight != -0.0)", true),
        ("weight BETWEEN {0, 3}", true), ("NOT (weight > 1)", true), ("weight > 1e299", true),
        ("price > 1", false), ("price == 10.11", false), ("price == nil", true),
        ("ripe == YES", true), ("ripe == NO", true), ("ripe != YES", true), ("ripe == nil", true), ("ripe == 1", true),
        // strings: Unicode, canonical equivalence, case and diacritic folding
        ("name == 'apple'", true), ("name != 'apple'", true), ("name == '\u{E9}clair'", true), ("name < 'b'", true),
        ("name >= 'Apple'", true), ("name == ''", true), ("name == nil", true),
        ("name ==[c] 'apple'", true), ("name ==[d] 'eclair'", true), ("name ==[cd] 'ECLAIR'", true),
        ("name ==[c] 'strasse'", true), ("name ==[c] 'kiwi'", true), ("name ==[c] 'istanbul'", true),
        ("name !=[c] 'apple'", true), ("name <[c] 'b'", true), ("name >=[cd] 'e'", true),
        ("name BEGINSWITH 'a'", true), ("name BEGINSWITH[c] 'a'", true), ("name BEGINSWITH 'e'", true),
        ("name BEGINSWITH[d] 'e'", true), ("name BEGINSWITH 'Ki'", true), ("name BEGINSWITH 'K'", true), ("name BEGINSWITH ''", true), ("name ENDSWITH 'clair'", true),
        ("name BEGINSWITH 'ap'", true), ("name BEGINSWITH 'a['", true), ("name BEGINSWITH 'a*'", true), ("name BEGINSWITH 'a?'", true),
        ("name BEGINSWITH '\u{E9}'", true), ("name BEGINSWITH 'a\u{10FFFF}'", true), ("NOT (name BEGINSWITH 'a')", true),
        ("name ENDSWITH[cd] 'E'", true), ("name CONTAINS 'a'", true), ("name CONTAINS[c] 'SS'", true),
        ("name CONTAINS '\u{301}'", true), ("name CONTAINS '\u{1F34E}'", true), ("name LIKE 'a*'", true),
        ("name LIKE[c] 'a?ple'", true), ("name LIKE 'a\\\\*b'", true), ("name LIKE '*'", true),
        ("name MATCHES '[a-z]+'", false), ("name MATCHES[c] 'a.*'", false), ("name IN {'apple', 'kiwi'}", true),
        ("name IN[c] {'APPLE', 'KIWI'}", true), ("name BETWEEN {'a', 'c'}", true),
        ("NOT (name BEGINSWITH[cd] 'e')", true), ("name BEGINSWITH 'a' OR name ENDSWITH 'e'", true),
        // dates and UUIDs
        ("picked > CAST(700000000, 'NSDate')", true), ("picked == nil", true),
        ("picked BETWEEN {CAST(699990000, 'NSDate'), CAST(700003600, 'NSDate')}", true),
        // key paths through to-ones
        ("stand.label == 'North'", true), ("stand.label ==[cd] 'east'", true), ("stand.label == nil", true),
        ("stand.rank > 0", true), ("stand.owner.name BEGINSWITH[c] 'b'", true), ("stand.owner.name == nil", true),
        ("stand == nil", true), ("stand != nil", true), ("stand.owner == nil", true),
        // to-many: ANY, ALL, NONE, @count, aggregates, SUBQUERY
        ("ANY tags.label == 'sweet'", true), ("ANY tags.label ==[cd] 'SWEET'", true), ("ALL tags.weight > 1", true),
        ("NONE tags.label BEGINSWITH 'l'", true), ("ALL tags.label ==[c] 'local'", true), ("ANY tags.weight > 5", true), ("ALL tags.label != nil", true),
        ("tags.@count == 0", true), ("tags.@count > 2", true), ("tags.@count BETWEEN {1, 2}", true),
        ("tags.@max.weight > 5", false), ("tags.@sum.serial > 10", true), ("tags.@avg.serial >= 3", true),
        ("tags.@min.serial == 0", true), ("tags.@max.serial < 4", true),
        ("SUBQUERY(tags, $t, $t.weight > 3).@count > 0", true),
        ("SUBQUERY(tags, $t, $t.label BEGINSWITH[c] 's' AND $t.weight < 5).@count == 1", true),
        ("SUBQUERY(stand.fruits, $f, $f.count > 1).@count > 0", true), ("SUBQUERY(stand.fruits, $f, $f.count > 1).@count == 0", true),
        ("stand.fruits.@count > 9", true), ("ANY stand.fruits.name == 'kiwi'", false), ("ANY tags.label == nil", true), ("ANY tags.fruits.serial == 3", false),
        // a qualifier through a nil to-one (stand) goes over no elements: ANY false, NONE and ALL true
        ("ANY stand.fruits.name != 'zzz'", false), ("NONE stand.fruits.name == 'kiwi'", false), ("ALL stand.fruits.count > -100", false),
        // compounds, constants
        ("count > 0 AND (name BEGINSWITH[c] 'a' OR ANY tags.label == 'local')", true),
        ("NOT (count > 0 AND stand.label == 'North')", true), ("TRUEPREDICATE", true), ("FALSEPREDICATE", true),
        ("count > 0 AND name MATCHES 'a.*'", false), ("name == stand.label", true),
        ("count < small", true), ("count == small", true), ("count != small", true), ("NOT (count >= small)", true),
        ("stand.label == stand.owner.name", true), ("picked < picked", true), ("weight > count", false), ("name ==[c] stand.label", false),
    ]
}
