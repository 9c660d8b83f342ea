// Deep entity inheritance: refused past the maximum depth, and nothing recurses per level.
import Foundation
import Synchronization
import Testing
@testable import ManagedObjects

/// Trial 11, F2: a 5,000-deep inheritance chain overflowed the stack while hashing (depth 200
/// on a 512 KiB-stack thread). Chains deeper than ``ManagedObjectModel/maximumInheritanceDepth``
/// are a thrown error naming the entity; chains up to it hash without recursion.
@Suite struct InheritanceDepthTests {
    /// `E0` ← … ← `E<levels>`: `E0` has `levels` ancestors (declared deepest first).
    static func chain(levels: Int) -> [EntityDescription] {
        (0..<levels).map { EntityDescription(name: "E\($0)", parent: "E\($0 + 1)", properties: [.attribute("a\($0)", .string)]) }
            + [EntityDescription(name: "E\(levels)", properties: [.attribute("root", .string)])]
    }

    @Test(arguments: [ManagedObjectModel.maximumInheritanceDepth + 1, 5_000])
    func aChainDeeperThanTheMaximumIsAThrownErrorNamingTheEntity(levels: Int) {
        #expect(throws: ManagedObjectModelError(.inheritanceTooDeep(levels), entity: "E0")) {
            try ManagedObjectModel(entities: Self.chain(levels: levels))
        }
        // Declared root first: the first entity past the maximum is named.
        let maximum = ManagedObjectModel.maximumInheritanceDepth
        #expect(throws: ManagedObjectModelError(.inheritanceTooDeep(maximum + 1), entity: "E\(levels - maximum - 1)")) {
            try ManagedObjectModel(entities: Self.chain(levels: levels).reversed())
        }
    }

    @Test func aDeepChainInXMLIsAThrownErrorNamingTheEntity() throws {
        let body = (0..<5_000).map { #"<entity name="E\#($0)" parentEntity="E\#($0 + 1)"/>"# }.joined(separator: "\n")
            + #"<entity name="E5000"/>"#
        do {
            _ = try loadModel(modelXML(body))
            Issue.record("loaded")
        } catch {
            #expect(error.code == .inheritanceTooDeep(5_000))
            #expect(error.entity == "E0")
            #expect(error.localizedDescription.contains("at most \(ManagedObjectModel.maximumInheritanceDepth)"))
        }
    }

    @Test func theMaximumDepthHashesOnASmallStack() throws {
        let maximum = ManagedObjectModel.maximumInheritanceDepth
        let outcome = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let model = try ManagedObjectModel(entities: Self.chain(levels: maximum))
                let hashes = model.entityVersionHashesByName
                let deepest = model.entitiesByName["E0"]
                outcome.withLock { $0 = "\(hashes.count) \(deepest?.allProperties.count ?? 0)" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        finished.wait()
        #expect(outcome.withLock { $0 } == "\(maximum + 1) \(maximum + 1)")
    }

    @Test func hashesDoNotDependOnDeclarationOrder() throws {
        let chain = Self.chain(levels: 30)
        let forward = try ManagedObjectModel(entities: chain).entityVersionHashesByName
        let backward = try ManagedObjectModel(entities: chain.reversed()).entityVersionHashesByName
        #expect(forward == backward)
        #expect(Set(forward.values).count == 31)
    }
}
