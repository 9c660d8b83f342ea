import Foundation
import Testing
@testable import ManagedObjects
import KeyValueCoding
import Predicates

// Advice in the messages a Core Data porter meets in a first app (found by a new-user trial):
// a swapped pair of letters, a class that was never bound, a deny rule, an unbound variable,
// and an in-memory store description.

private final class Ticket: ManagedObject {
    @Managed var title: String?
}

@Suite struct PorterAdviceTests {
    static func model() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Ticket", properties: [.attribute("title", .string),
                                                           .toOne("owner", "Owner", inverse: "tickets")]),
            EntityDescription(name: "Owner", properties: [.toMany("tickets", "Ticket", inverse: "owner", deleteRule: .deny)]),
        ])
    }

    static func context(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(with: .inMemory())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func aSwappedPairOfLettersIsOneEditFromTheProperty() throws {
        let object = try ManagedObject(entityName: "Ticket", in: Self.model())
        do {
            try object.setValue("x", forKey: "titel")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect("\(error)" == "the entity 'Ticket' has no property 'titel' (did you mean 'title'?)")
        }
    }

    @Test func anUnboundClassSaysHowToBindIt() throws {
        let model = Self.model()
        let context = try Self.context(model)
        do {
            _ = try context.insertNewObject(Ticket.self)
            Issue.record("a class that was never bound was accepted")
        } catch {
            #expect("\(error)".contains("no class is bound to the entity: call model.setManagedObjectClasses([Ticket.self, …])"))
        }
        _ = try context.insertNewObject(forEntityNamed: "Ticket")
        do {
            _ = try context.fetch(EntityFetchRequest(entityName: "Ticket"), as: Ticket.self)
            Issue.record("a plain object was returned as a Ticket")
        } catch {
            #expect("\(error)".contains("call model.setManagedObjectClasses([Ticket.self, …])"))
        }
        do {
            try model.setManagedObjectClasses([Ticket.self])
            Issue.record("a model in use was changed")
        } catch {
            #expect("\(error)".contains("bind classes and make other changes before a coordinator or container uses the model"))
        }
    }

    @Test func aDeniedDeleteSaysWhatToDoAndNoBareCount() throws {
        let context = try Self.context(Self.model())
        let owner = try context.insertNewObject(forEntityNamed: "Owner")
        let ticket = try context.insertNewObject(forEntityNamed: "Ticket")
        try ticket.setValue(owner, forKey: "owner")
        try context.save()
        context.delete(owner)
        do {
            try context.save()
            Issue.record("a deny rule let the owner go")
        } catch {
            let text = "\(error)"
            #expect(text.contains("remove or reassign them first, or undo the delete or roll back"))
            #expect(!text.contains("; value:"))
            #expect(text.contains("Owner.tickets"))
        }
    }

    @Test func anUnboundVariableSaysHowToBindIt() throws {
        let context = try Self.context(Self.model())
        _ = try context.insertNewObject(forEntityNamed: "Ticket")
        let request = EntityFetchRequest(entityName: "Ticket", predicate: try KeyValuePredicate(format: "title == $X"))
        do {
            _ = try context.fetch(request)
            Issue.record("a predicate with an unbound variable was evaluated")
        } catch {
            #expect("\(error)" == "no value is bound to the variable $X (give it one with withSubstitutionVariables([\"X\": …]))")
        }
    }

    @Test func anInMemoryDescriptionOpensAnInMemoryStore() throws {
        #expect(StoreDescription.inMemory() == StoreDescription(type: InMemoryStore.type))
        #expect(StoreDescription.inMemory(configuration: "Main").configuration == "Main")
        let coordinator = PersistentStoreCoordinator(model: Self.model())
        let store = try coordinator.addStore(with: .inMemory())
        #expect(store is InMemoryStore)
    }
}
