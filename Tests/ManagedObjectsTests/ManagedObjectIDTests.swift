import Foundation
import Testing
import ManagedObjects

@Suite struct ManagedObjectIDTests {
    @Test func permanentIDsRoundTripThroughTheirURI() throws {
        let store = "9A2B1C3D-0000-4000-8000-00000000ABCD"
        let id = ManagedObjectID(entityName: "Movie", storeIdentifier: store, primaryKey: 7)
        #expect(id.uriRepresentation().absoluteString == "x-coredata://\(store)/Movie/p7")
        #expect(!id.isTemporaryID)
        #expect(ManagedObjectID(uriRepresentation: id.uriRepresentation()) == id)
        let odd = ManagedObjectID(entityName: "Ticket Stub/α", storeIdentifier: store, referenceObject: .string("a/b c"))
        #expect(ManagedObjectID(uriRepresentation: odd.uriRepresentation()) == odd)
    }

    @Test func temporaryIDsAreUniqueAndMarked() {
        let a = ManagedObjectID.temporary(entityName: "Movie")
        let b = ManagedObjectID.temporary(entityName: "Movie")
        #expect(a != b && a.isTemporaryID)
        #expect(a.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Movie/t"))
        #expect(ManagedObjectID(uriRepresentation: a.uriRepresentation()) == a)
    }

    @Test(arguments: ["https://example.com/Movie/p1", "x-coredata://S/Movie/pX", "x-coredata://S/Movie",
                      "x-coredata:///Movie/p1", "x-coredata://S//p1", "x-coredata://S/Movie/q1",
                      "x-coredata://S/Movie/tnot-a-uuid", "x-coredata://S/Movie/p1/extra"])
    func malformedURIsAreRefused(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(ManagedObjectID(uriRepresentation: url) == nil)
    }
}
