import Foundation
import Testing
@testable import KeyValueCoding

// Four threads reading keys of classes no thread has used yet: the first use builds the key
// table and publishes it through the lock-free type cache. Run under the thread sanitizer
// (`swift test --sanitize=thread`), this must report nothing.

private final class FreshA: KeyValueCodable { var x = 1 }
private final class FreshB: KeyValueCodable { var x = 2; var y = "b" }
private final class FreshC: KeyValueCodable { var x = 3.0 }
private final class FreshD: KeyValueCodable { var x: Int? = 4 }

@Suite("Concurrent first use of classes")
struct FreshClassConcurrencyTests {
    @Test func fourThreadsReadKeysOfFreshClasses() async {
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let objects: [any KeyValueCodable] = [FreshA(), FreshB(), FreshC(), FreshD()]
                    return objects.map { object in String(describing: (try? object.value(forKey: "x")) ?? nil) }
                }
            }
            var all: [[String]] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 4)
        #expect(Set(results.map { $0.joined(separator: ",") }).count == 1)
        #expect(results.first == ["Optional(1)", "Optional(2)", "Optional(3.0)", "Optional(4)"])
    }
}
