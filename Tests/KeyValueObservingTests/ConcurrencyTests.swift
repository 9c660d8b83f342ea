import Foundation
import KeyValueCoding
import Testing
@testable import KeyValueObserving

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func concurrentRegistrationAndRemovalOnOneObject() async throws {
        let person = Person()
        _ = try person.observe("age") { _, _ in }   // attach the list before sharing
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        let token = try? person.observe("age", options: [.old, .new]) { _, _ in }
                        token?.invalidate()
                    }
                }
            }
        }
        #expect(ObservationCenter.existingStorage(ofAny: person)?.existingObservers(key: "age")?.observerCount == 0)
    }

    @Test func notificationsOnTheChangingThreadWhileRegistering() async throws {
        let people = (0..<4).map { _ in Person() }
        let recorder = Recorder()
        let tokens = try people.map { try $0.observe("age", options: [.new]) { _, c in recorder.record(c) } }
        let shared = SendableBox(people)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let person = shared.value[index]
                    for value in 0..<250 { person.age = value }
                }
            }
            group.addTask {
                for _ in 0..<100 {
                    let token = try? shared.value[0].observe("name") { _, _ in }
                    token?.invalidate()
                }
            }
        }
        #expect(recorder.count == 1000)
        _ = tokens
    }

    @Test func tokensReleasedOnOtherThreads() async throws {
        let person = Person()
        _ = try person.observe("age") { _, _ in }
        let tokens = try (0..<100).map { _ in try person.observe("age") { _, _ in } }
        let box = SendableBox(tokens)
        await withTaskGroup(of: Void.self) { group in
            for part in 0..<4 {
                group.addTask {
                    for index in stride(from: part, to: 100, by: 4) { box.value[index].invalidate() }
                }
            }
            group.addTask { for value in 0..<100 { person.age = value } }
        }
        #expect(ObservationCenter.existingStorage(ofAny: person)?.existingObservers(key: "age")?.observerCount == 0)
    }

    @Test func handlersInvalidatedWhileNotifyingAreReleased() async throws {
        final class Payload: Sendable {}
        let person = Person()
        var payload: Payload? = Payload()
        weak let weakPayload = payload
        let tokens = try (0..<40).map { _ in try person.observe("age") { [payload] _, _ in _ = payload } }
        payload = nil
        let box = SendableBox(tokens)
        await withTaskGroup(of: Void.self) { group in
            for part in 0..<2 {
                group.addTask {
                    for index in stride(from: part, to: 40, by: 2) { box.value[index].invalidate() }
                }
            }
            group.addTask { for value in 0..<200 { person.age = value } }
        }
        #expect(weakPayload == nil)
    }
}

/// Hands values to tasks in tests. `@unchecked Sendable`: the tests only share objects whose
/// concurrent use is what is being tested (each task changes its own object).
final class SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

// Test-only: each task changes its own Person; shared ones are only registered on.
extension Person: @unchecked Sendable {}
