import Foundation
import KeyValueCoding

/// Test models. Each test builds its own instances.

class Employee: KeyValueCodable {
    var name = ""
    var age = 0
    var salary = 0.0
    var rating: Float = 0
    var level: UInt8 = 0
    var active = false
    var nickname: String?
    var bonus: Double?
    var manager: Employee?
    var department: Division?
    var tags: [String] = []
    var reports: [Employee] = []
    var skills: Set<String> = []
    var joined = Date(timeIntervalSince1970: 0)
    var role = Role.engineer
    lazy var cached = "lazy"
    let identifier: Int

    init(name: String = "", age: Int = 0, identifier: Int = 0) {
        self.name = name
        self.age = age
        self.identifier = identifier
    }

    var fullTitle: String { "\(name) (\(role.rawValue))" }
    var displayName: String {
        get { name.uppercased() }
        set { name = newValue.lowercased() }
    }

    class var computedKeys: [String: AnyKeyPath] {
        ["fullTitle": \Employee.fullTitle, "displayName": \Employee.displayName]
    }

    class var validators: [String: KeyValueValidator] {
        [
            "age": { value in
                guard let age = value as? Int else { throw KeyValueValidationError("age must be a whole number") }
                if age < 0 { throw KeyValueValidationError("age must not be negative") }
                if age > 150 { value = 150 }  // replace
            },
        ]
    }
}

enum Role: String {
    case engineer, manager
}

final class Manager: Employee {
    var budget = 0.0
    var title: String { "Manager \(name)" }

    override class var computedKeys: [String: AnyKeyPath] {
        super.computedKeys.merging(["title": \Manager.title]) { $1 }
    }
}

final class Division: KeyValueCodable {
    var name = ""
    var head: Employee?
    var members: [Employee] = []
}

/// A class that overrides the undefined-key and nil hooks.
final class Lenient: KeyValueCodable {
    var count = 5
    var extras: [String: Any] = [:]

    func value(forUndefinedKey key: String) throws -> Any? { extras[key] }
    func setValue(_ value: Any?, forUndefinedKey key: String) throws { extras[key] = value }
    func setNilValueForKey(_ key: String) throws {
        if key == "count" { count = 0 } else { throw KeyValueCodingError.nilNotAllowed(key: key, type: "Lenient") }
    }
}

/// Records the change hooks that key-value coding calls.
final class Recorder: KeyValueCodable {
    var items: [Int] = []
    var labels: Set<String> = []
    var score = 0
    var quiet = 0
    var log: [String] = []

    static func automaticallyNotifiesObservers(forKey key: String) -> Bool { key != "quiet" }
    func keyValueWillChange(_ event: KeyValueChangeEvent) { log.append("will " + describe(event)) }
    func keyValueDidChange(_ event: KeyValueChangeEvent) { log.append("did " + describe(event)) }

    private func describe(_ event: KeyValueChangeEvent) -> String {
        if let mutation = event.setMutation { return "\(mutation.kind) \(mutation.objects.count) \(event.key)" }
        if let indexes = event.indexes { return "\(event.kind) \(Array(indexes)) \(event.key)" }
        return event.key
    }
}

/// A property wrapper that key-value coding reads through, counting notifying stores.
@propertyWrapper
struct Counted<Value>: KeyValuePropertyWrapper {
    var keyValueWrappedValue: Value
    var stores = 0

    init(wrappedValue: Value) { keyValueWrappedValue = wrappedValue }

    var wrappedValue: Value {
        get { keyValueWrappedValue }
        set { keyValueWrappedValue = newValue }
    }

    static func setKeyValueWrappedValue(_ value: Value, storage: UnsafeMutablePointer<Counted<Value>>,
                                        object: any KeyValueCodable, key: String) {
        storage.pointee.keyValueWrappedValue = value
        storage.pointee.stores += 1
    }
}

final class Wrapped: KeyValueCodable {
    @Counted var title = "untitled"
    @Counted var score: Double = 0
    @Counted var note: String? = nil
    var storesOfTitle: Int { _title.stores }
}

struct Point {
    var x: Int
    var y: Int
}
