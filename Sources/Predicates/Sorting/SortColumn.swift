// One sort descriptor's keys for every element, read once and stored by kind.
import Foundation
import KeyValueCoding

/// One descriptor's keys for every element, stored so that comparisons are cheap.
///
/// Keys are read once per element through a ``KeyPathReader`` (typed reads, no `Any` box).
/// When every key is of one kind that has a total order under the descriptor's comparison
/// (integers and Booleans, floating-point numbers without NaN, dates, or strings under any of
/// the selector comparisons), each element gets a dense rank instead: equal keys share a rank,
/// `nil` ranks first, and the direction is already applied, so the sort compares integers. Other
/// columns (mixed kinds, other values, comparator closures) keep ``SortKey``s and compare them
/// as before.
struct SortColumn {
    enum Storage {
        /// Dense ranks in sort order (direction applied), `0..<count`.
        case ranks([Int], count: Int)
        /// Keys compared one pair at a time, ascending; `ascending` applies on top.
        case general([SortKey])
    }

    let storage: Storage
    let ascending: Bool
    let comparison: KeyValueSortDescriptor.Comparison

    /// A reader of the values `descriptor`-style keys give as `Any?` (for comparator closures
    /// and single comparisons, which hand the values themselves to the caller).
    static func reader(for key: String?) -> (Any?) throws -> Any? {
        guard let key else { return { ValueEquality.normalize($0) } }
        let reader = KeyPathReader(key)
        return { object in try reader.value(of: object) }
    }

    private init(storage: Storage, _ descriptor: KeyValueSortDescriptor) {
        self.storage = storage
        ascending = descriptor.ascending
        comparison = descriptor.comparison
    }

    init<Element>(_ descriptor: KeyValueSortDescriptor, elements: [Element]) throws {
        if case .comparator = descriptor.comparison {
            let reader = Self.reader(for: descriptor.key)
            self.init(storage: .general(try elements.map { SortKey(try reader(ValueEquality.box($0)), descriptor.comparison) }),
                      descriptor)
            return
        }
        let reader = descriptor.key.map(KeyPathReader.init)
        var readings: [KeyValueReading] = []
        readings.reserveCapacity(elements.count)
        if let reader, Element.self is AnyClass {
            // Class elements: read from the object itself, without an `Any` box around it.
            for element in elements {
                readings.append(try reader.reading(ofObject: unsafeBitCast(element, to: AnyObject.self)))
            }
        } else {
            for element in elements {
                let boxed = ValueEquality.box(element)
                readings.append(try reader?.reading(of: boxed) ?? KeyValueReading(boxed))
            }
        }
        self.init(descriptor, readings: readings)
    }

    /// The column of keys read already (one reading per element, in element order). Not for a
    /// comparator descriptor, which compares the values themselves.
    init(_ descriptor: KeyValueSortDescriptor, readings: [KeyValueReading]) {
        if let ranked = Self.ranks(of: readings, descriptor.comparison) {
            self.init(storage: .ranks(descriptor.ascending ? ranked.ranks : ranked.ranks.map { ranked.count - 1 - $0 },
                                      count: ranked.count), descriptor)
        } else {
            self.init(storage: .general(readings.map { SortKey($0.anyValue, descriptor.comparison) }), descriptor)
        }
    }

    // MARK: Ranks

    /// Dense ascending ranks (nil first) when all readings are of one rankable kind.
    static func ranks(of readings: [KeyValueReading],
                      _ comparison: KeyValueSortDescriptor.Comparison) -> (ranks: [Int], count: Int)? {
        guard let first = readings.first(where: { if case .null = $0 { return false } else { return true } }) else {
            return (Array(repeating: 0, count: readings.count), readings.isEmpty ? 0 : 1)
        }
        switch first {
        case .number(.integer), .number(.boolean):
            var values: [Int64?] = []
            values.reserveCapacity(readings.count)
            for reading in readings {
                switch reading {
                case .null: values.append(nil)
                case .number(.integer(let v)): values.append(v)
                case .number(.boolean(let v)): values.append(v ? 1 : 0)
                default: return nil
                }
            }
            return denseRanks(values, by: <)
        case .number(.floating), .value(is Date):
            var values: [Double?] = []
            values.reserveCapacity(readings.count)
            for reading in readings {
                switch reading {
                case .null: values.append(nil)
                case .number(.floating(let v)) where !v.isNaN: values.append(v)
                case .value(let date as Date) where !date.timeIntervalSinceReferenceDate.isNaN:
                    values.append(date.timeIntervalSinceReferenceDate)
                default: return nil
                }
            }
            // Numbers and dates never order against each other: a mix is not rankable.
            let dates = readings.contains { if case .value = $0 { return true } else { return false } }
            let numbers = readings.contains { if case .number = $0 { return true } else { return false } }
            if dates && numbers { return nil }
            return denseRanks(values, by: <)
        case .string:
            var values: [String?] = []
            values.reserveCapacity(readings.count)
            let caseless: Bool
            if case .caseInsensitiveCompare = comparison { caseless = true } else { caseless = false }
            for reading in readings {
                switch reading {
                case .null: values.append(nil)
                case .string(let v): values.append(caseless ? StringFolding.fold(v, options: .caseInsensitive) : v)
                default: return nil
                }
            }
            switch comparison {
            case .compare, .caseInsensitiveCompare:
                return denseRanks(values, by: <)
            default:
                return denseRanks(values) { SortKey.compareStrings($0, $1, comparison) == .orderedAscending }
            }
        default:
            return nil
        }
    }

    /// Ranks of `values`: nil 0, then the distinct values in the order `areInIncreasingOrder`
    /// gives from 1 (values neither before nor after each other share a rank).
    ///
    /// - Complexity: O(*n*) hash lookups plus O(*k* log *k*) comparisons for *k* distinct values.
    static func denseRanks<T: Hashable>(_ values: [T?], by areInIncreasingOrder: (T, T) -> Bool)
        -> (ranks: [Int], count: Int) {
        var ids: [T: Int] = [:]
        var distinct: [T] = []
        var idOfElement: [Int] = []
        idOfElement.reserveCapacity(values.count)
        var hasNil = false
        for value in values {
            guard let value else {
                hasNil = true
                idOfElement.append(-1)
                continue
            }
            if let id = ids[value] {
                idOfElement.append(id)
            } else {
                ids[value] = distinct.count
                idOfElement.append(distinct.count)
                distinct.append(value)
            }
        }
        let order = distinct.indices.sorted { areInIncreasingOrder(distinct[$0], distinct[$1]) }
        var rankOfID = [Int](repeating: 0, count: distinct.count)
        var rank = hasNil ? 1 : 0
        for (position, id) in order.enumerated() {
            if position > 0, areInIncreasingOrder(distinct[order[position - 1]], distinct[id]) { rank += 1 }
            rankOfID[id] = rank
        }
        let count = distinct.isEmpty ? (hasNil ? 1 : 0) : rank + 1
        return (idOfElement.map { $0 < 0 ? 0 : rankOfID[$0] }, count)
    }

    /// A comparator of element indexes in this column's direction. The key array is captured
    /// once, so comparing costs no reference counting.
    func comparator() -> (Int, Int) throws -> ComparisonResult {
        switch storage {
        case .ranks(let ranks, _):
            return { a, b in NumberOrdering.ordered(ranks[a], ranks[b]) }
        case .general(let keys):
            let (comparison, ascending) = (self.comparison, self.ascending)
            return { a, b in
                let result = try SortKey.compare(keys[a], keys[b], comparison)
                return ascending ? result : result.inverted
            }
        }
    }
}
