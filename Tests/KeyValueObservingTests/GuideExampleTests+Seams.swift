import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

// The examples of Docs/KeyValueObserving.md "Hooks and change sinks" and Docs/KeyValueCoding.md
// "Keys of your own" and "To-many mutators", as written there.

private final class ChangeLog: KeyValueChangeSink {
    var keys: [String] = []
    func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {}
    func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        keys.append(event.key)
    }
}

private final class GuideRecord: KeyValueKeyTableProviding {
    var values: [Any?] = ["", 0]
    var keyValueKeyTable: KeyValueKeyTable { GuideRecord.bookTable }

    static let bookTable = KeyValueKeyTable(properties: [
        KeyValueProperty(key: "title", type: String.self,
                         get: { ($0 as! GuideRecord).values[0] as! String },
                         set: { ($0 as! GuideRecord).values[0] = $1 }),
        KeyValueProperty(key: "pages", type: Int.self,
                         get: { ($0 as! GuideRecord).values[1] as! Int },
                         set: { ($0 as! GuideRecord).values[1] = $1 }),
    ])
}

private final class GuideShelf: KeyValueCodable {
    var names: [String] = []
    class var toManyMutators: [String: KeyValueToManyMutators] {
        ["names": .array(KeyValueArrayMutators(GuideShelf.self, String.self,
            insert: { shelf, name, index in shelf.names.insert(name.capitalized, at: index) },
            remove: { shelf, index in shelf.names.remove(at: index) }))]
    }
}

@Suite("Guide examples: seams")
struct SeamGuideExampleTests {
    @Test func changeSinkExample() {
        let person = Person()
        let log = ChangeLog()
        person.setKeyValueChangeSink(log)
        person.name = "Ada"
        #expect(log.keys == ["name"])
    }

    @Test func keyTableExample() throws {
        let record = GuideRecord()
        try record.setValue("Dune", forKey: "title")
        try record.setValue(412.0, forKey: "pages")
        #expect(try record.value(forKey: "pages") as? Int == 412)
        #expect(try record.value(forKey: "title") as? String == "Dune")
    }

    @Test func toManyMutatorExample() throws {
        let shelf = GuideShelf()
        try shelf.insertValue("ada", at: 0, inPropertyWithKey: "names")
        #expect(shelf.names == ["Ada"])
    }
}
