// The commands that only read: list, find (any predicate, through a fetch request) and sort
// (sort descriptors), and the look-ups of stands and crates by name.

import Foundation
import KeyValueCoding
import ManagedObjects
import Predicates

extension FruitStandSession {
    /// `list`: every stand by name, its crates by number, each crate's fruit in the sort order.
    ///
    /// ```
    /// Corner: 2 crates, 4 fruit
    ///   Corner/1  apple 2.0  apple 2.4
    ///   Corner/2  orange 1.9  orange 2.6
    /// ```
    func listing() throws -> String {
        let stands = try self.stands()
        guard !stands.isEmpty else { return "(no stands; add one with 'stand add NAME')" }
        var lines: [String] = []
        for stand in stands {
            let crates = stand.cratesByNumber
            let fruit = crates.reduce(0) { $0 + $1.fruit.count }
            lines.append("\(stand.name): \(Self.count(crates.count, "crate")), \(fruit) fruit")
            for crate in crates {
                let contents = try ordered(Array(crate.fruit)).map { "\($0.kind) \($0.radius)" }
                lines.append("  \(crate.label)  " + (contents.isEmpty ? "(empty)" : contents.joined(separator: "  ")))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `find [KIND] PREDICATE`: the fruit of a kind (every fruit without one) matching a
    /// predicate in Apple's format language, fetched with an ``EntityFetchRequest``, in the sort
    /// order. Changes nothing.
    func find(_ kind: FruitKind?, _ format: String) throws -> String {
        let entityName = kind?.entityName ?? "Fruit"
        var predicate: KeyValuePredicate?
        if !format.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                predicate = try KeyValuePredicate(format: format)
            } catch {
                throw FruitStandError.badPredicate("\(error)")
            }
        }
        let all = try context.count(for: EntityFetchRequest(entityName: entityName))
        let matches: [Fruit]
        do {
            // Checked on a scratch fruit too, so that an unknown key is refused with no fruit.
            if let predicate { _ = try predicate.evaluate(with: try probe()) }
            matches = try ordered(context.fetch(EntityFetchRequest(entityName: entityName, predicate: predicate),
                                                as: Fruit.self))
        } catch {
            throw FruitStandError.predicateFailed(Self.describe(error))
        }
        let width = matches.map { ($0.crate?.label ?? "?").count }.max() ?? 0
        var lines = matches.map { fruit in
            let label = fruit.crate?.label ?? "?"
            return label + String(repeating: " ", count: width - label.count) + "  \(fruit.kind) \(fruit.radius)"
        }
        let noun = kind.map { all == 1 ? $0.rawValue : $0.rawValue + "s" } ?? "fruit"
        let verb = matches.count == 1 ? "matches" : "match"
        lines.append("\(matches.count) of \(all) \(noun) \(verb)" + (predicate.map { " " + $0.predicateFormat } ?? ""))
        return lines.joined(separator: "\n")
    }

    /// `sort KEY [desc] ...`: the order of fruit in `list` and `find` (a view setting, not a
    /// change of the objects: not undoable, not saved). Shows the list in the new order.
    func sort(by keys: [FruitStandCommand.SortKey]) throws -> String {
        for key in keys { try checkSortKey(key.key) }
        let descriptors = keys.map { KeyValueSortDescriptor(key: $0.key, ascending: $0.ascending) }
        do {
            _ = try context.fetch(EntityFetchRequest(entityName: "Fruit"), as: Fruit.self).sorted(using: descriptors)
        } catch {
            throw FruitStandError.badSort(Self.describe(error))
        }
        sortKeys = keys
        let order = keys.map { $0.key + ($0.ascending ? "" : " desc") }.joined(separator: ", ")
        return "fruit sorted by \(order)\n" + (try listing())
    }

    /// Checks a sort key against the model: to-one relationships from Fruit, then an attribute
    /// (`radius`, `crate.number`, `crate.stand.name`), so that it is checked with no fruit too.
    private func checkSortKey(_ keyPath: String) throws(FruitStandError) {
        let model = context.model
        var entity = model.entity(named: "Fruit")
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, component) in components.enumerated() {
            guard let current = entity else { break }
            let isLast = index == components.count - 1
            if current.attributesByName[component] != nil, isLast { return }
            if let relationship = current.relationshipsByName[component], !relationship.isToMany, !isLast {
                entity = model.destinationEntity(of: relationship)
                continue
            }
            if current.propertiesByName[component] == nil {
                throw .badSort("\(Self.objects(current.name)) no key '\(component)' (\(Self.keyHelp))")
            }
            break
        }
        throw .badSort("'\(keyPath)' is not a value to sort by; sort keys end in an attribute: "
                       + "radius, crate.number, crate.stand.name")
    }

    /// The keys a predicate or a sort key can use, by object.
    static let keyHelp = "fruit: radius, crate; crates: number, stand; stands: name"

    /// An error of key-value coding in the sample's words: `fruit have no key 'colour' (...)`.
    static func describe(_ error: any Error) -> String {
        switch error as? KeyValueCodingError {
        case let .undefinedProperty(key, entity, _)?:
            return "\(objects(entity)) no key '\(key)' (\(keyHelp))"
        case let .undefinedKey(key, type)?:
            return "\(objects(type.split(separator: ".").last.map(String.init) ?? type)) no key '\(key)' (\(keyHelp))"
        default:
            return "\(error)"
        }
    }

    /// The objects of an entity (or class) as a plural subject: `fruit have`, `crates have`.
    static func objects(_ name: String) -> String {
        switch name {
        case "Apple", "Orange", "Fruit": "fruit have"
        case "Crate": "crates have"
        case "Stand": "stands have"
        default: "\(name) has"
        }
    }

    // MARK: Look-ups

    /// Every stand, by name.
    func stands() throws -> [Stand] {
        var request = Stand.fetchRequest()
        request.sortDescriptors = [KeyValueSortDescriptor(key: "name")]
        return try context.fetch(request, as: Stand.self)
    }

    /// The stand of a name.
    func stand(named name: String) throws -> Stand {
        let stands = try self.stands()
        guard let stand = stands.first(where: { $0.name == name }) else {
            throw FruitStandError.noStand(name, known: stands.map(\.name))
        }
        return stand
    }

    /// The crate a `STAND/NUMBER` name names.
    func crate(named name: CrateName) throws -> Crate {
        let stand = try self.stand(named: name.stand)
        let crates = stand.cratesByNumber
        guard let crate = crates.first(where: { Int($0.number) == name.number }) else {
            throw FruitStandError.noCrate(name.description, known: crates.map(\.label))
        }
        return crate
    }

    /// `fruit` in the sort order: first in a fixed order (stand, crate, kind, radius), so that
    /// equal sort keys keep a stable order, then by the sort keys (sorting is stable).
    func ordered(_ fruit: [Fruit]) throws -> [Fruit] {
        let descriptors = sortKeys.map { KeyValueSortDescriptor(key: $0.key, ascending: $0.ascending) }
        return try stableOrder(fruit).sorted(using: descriptors)
    }

    /// `fruit` by stand name, crate number, kind and radius.
    func stableOrder(_ fruit: [Fruit]) -> [Fruit] {
        fruit.sorted { a, b in
            let left = (a.crate?.stand?.name ?? "", Int(a.crate?.number ?? 0), a.kind, a.radius)
            let right = (b.crate?.stand?.name ?? "", Int(b.crate?.number ?? 0), b.kind, b.radius)
            return left < right
        }
    }

    /// A scratch apple (in no context) to check keys and predicates against, so that they are
    /// checked when there is no fruit too.
    func probe() throws -> Apple {
        try Apple(in: context.model)
    }
}
