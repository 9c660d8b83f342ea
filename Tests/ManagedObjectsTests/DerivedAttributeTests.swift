import Foundation
import KeyValueCoding
import Predicates
import Testing
@testable import ManagedObjects

final class DerivationShelf: KeyValueCodable {
    var title = ""
    var owner: DerivationShelf?
    var items: [DerivationItem] = []
    init(title: String = "") { self.title = title }
}

final class DerivationItem: KeyValueCodable {
    var price = 0.0
    var name = ""
    init(price: Double, name: String = "") {
        self.price = price
        self.name = name
    }
}

@Suite struct DerivedAttributeTests {
    static func derived(_ expression: String, _ type: AttributeDescription.AttributeType = .string) -> AttributeDescription {
        var a = AttributeDescription(name: "derived", type: type)
        a.derivationExpression = expression
        return a
    }

    static func shelf() -> DerivationShelf {
        let shelf = DerivationShelf(title: "Élan Vital")
        shelf.owner = DerivationShelf(title: "Owner")
        shelf.items = [DerivationItem(price: 2.5, name: "a"), DerivationItem(price: 4, name: "b"), DerivationItem(price: 1, name: "c")]
        return shelf
    }

    @Test func keyPaths() throws {
        let shelf = Self.shelf()
        #expect(try Self.derived("title").derivedValue(for: shelf) as? String == "Élan Vital")
        #expect(try Self.derived("owner.title").derivedValue(for: shelf) as? String == "Owner")
        shelf.owner = nil
        #expect(try Self.derived("owner.title").derivedValue(for: shelf) == nil)
    }

    @Test func countAndAggregatesThroughToManyKeys() throws {
        let shelf = Self.shelf()
        #expect(try Self.derived("items.@count", .integer64).derivedValue(for: shelf) as? Int64 == 3)
        #expect(try Self.derived("items.@count", .integer16).derivedValue(for: shelf) as? Int16 == 3)
        #expect(try Self.derived("items.@sum.price", .double).derivedValue(for: shelf) as? Double == 7.5)
        #expect(try Self.derived("items.price.@sum", .double).derivedValue(for: shelf) as? Double == 7.5)
        #expect(try Self.derived("items.price.@max", .double).derivedValue(for: shelf) as? Double == 4)
        #expect(try Self.derived("items.@min.price", .double).derivedValue(for: shelf) as? Double == 1)
    }

    @Test func stringFunctions() throws {
        let shelf = Self.shelf()
        #expect(try Self.derived("canonical:(title)").derivedValue(for: shelf) as? String == "elan vital")
        #expect(try Self.derived("lowercase:(title)").derivedValue(for: shelf) as? String == "élan vital")
        #expect(try Self.derived("uppercase:(title)").derivedValue(for: shelf) as? String == "ÉLAN VITAL")
        #expect(try Self.derived("canonical:(owner.title)").derivedValue(for: shelf) as? String == "owner")
    }

    @Test func now() throws {
        let before = Date()
        let value = try #require(try Self.derived("now()", .date).derivedValue(for: Self.shelf()) as? Date)
        #expect(value >= before && value <= Date())
    }

    @Test func otherExpressionsOfTheFormatLanguage() throws {
        let shelf = Self.shelf()
        #expect(try Self.derived("sum:(items.price)", .double).derivedValue(for: shelf) as? Double == 7.5)
        #expect(try Self.derived("items.@count * 2", .integer32).derivedValue(for: shelf) as? Int32 == 6)
    }

    @Test func notDerivedIsNil() throws {
        #expect(try AttributeDescription(name: "a", type: .string).derivedValue(for: Self.shelf()) == nil)
        #expect(try AttributeDescription(name: "a", type: .string).parsedDerivationExpression() == nil)
    }

    @Test func parseErrorsNameTheExpression() {
        for text in ["", "title ==", "frobnicate:(title)", "canonical:(canonical:(title))"] {
            #expect(throws: DerivationExpressionError.self) { try DerivationExpression(text) }
        }
        let error = try? DerivationExpression("title ==")
        #expect(error == nil)
        do {
            _ = try DerivationExpression("frobnicate:(title)")
        } catch {
            #expect(error.errorDescription?.contains("frobnicate") == true)
        }
    }

    @Test func unknownKeyAtEvaluationThrows() {
        #expect(throws: (any Error).self) { try Self.derived("nonsense").derivedValue(for: Self.shelf()) }
    }

    static let shelfEntityProperties: [PropertyDescription] = [
        .attribute(AttributeDescription(name: "title", type: .string)),
        .relationship(RelationshipDescription(name: "owner", destination: "Shelf")),
        .relationship(RelationshipDescription(name: "items", destination: "Shelf", cardinality: .toMany)),
    ]

    @Test func modelAcceptsTheDocumentedForms() throws {
        let forms = ["title", "owner.title", "items.@count", "items.price.@sum", "canonical:(title)",
                     "lowercase:(title)", "uppercase:(title)", "now()"]
        for form in forms {
            let type: AttributeDescription.AttributeType = form == "now()" ? .date : (form.contains("@") ? .double : .string)
            _ = try ManagedObjectModel(entities: [
                EntityDescription(name: "Shelf", properties: Self.shelfEntityProperties + [.attribute(Self.derived(form, type))]),
            ])
        }
    }

    @Test func derivationReadingAnUnknownKeyIsAModelError() throws {
        for form in ["titel", "canonical:(titel)", "owners.@count", "items.@count + missing"] {
            let error = try #require(throws: ManagedObjectModelError.self) {
                try ManagedObjectModel(entities: [
                    EntityDescription(name: "Shelf", properties: Self.shelfEntityProperties + [.attribute(Self.derived(form))]),
                ])
            }
            guard case .unknownProperty = error.code else { Issue.record("\(form): \(error.code)"); continue }
            #expect(error.entity == "Shelf")
            #expect(error.property == "derived")
        }
        #expect(try DerivationExpression("items.@sum.price + owner.count * 2").rootKeys == ["items", "owner"])
    }
}
