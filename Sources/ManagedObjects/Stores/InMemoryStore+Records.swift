// The in-memory store's rows by column, read through key-value coding, so that predicates and
// sort descriptors run on the rows themselves, before any managed object is made.
import Foundation
import KeyValueCoding
import Predicates
import Synchronization
import ObjectGraphInternals

/// The rows of one entity of an in-memory store, with their attribute values by column, sorted
/// by kind as the entity's managed objects would give them (the row's constants converted by
/// the attribute types, as a fault is filled).
///
/// Columns are an index, built for the rows saved since the last fetch by that fetch
/// (``buildColumns()``, under the store's lock), so that a save of rows nobody queries pays
/// nothing for them. A value type (copy on write): a fetch takes a copy under the store's lock
/// and reads it outside, while saves change the store's own.
struct InMemoryEntityRows {
    /// The columns and keys.
    let table: InMemoryRecordTable
    /// The rows as saved.
    private(set) var rows: ContiguousArray<StoreRow> = []
    /// Per column, the value of each of the first ``builtRows`` rows (same positions as
    /// `rows`): a predicate reads one column from contiguous memory.
    private(set) var columns: ContiguousArray<ContiguousArray<KeyValueReading>>
    /// How many rows (a prefix of `rows`) the columns hold.
    private(set) var builtRows = 0
    /// The position of each of the first ``indexedRows`` rows, by ID.
    private var positions: [ManagedObjectID: Int] = [:]
    /// How many rows (a prefix of `rows`) have their position in `positions`. Each later row
    /// was added with an integer key greater than every stored key (the store's counter: a
    /// save's new rows), so they ascend by key and a binary search finds them; a change of any
    /// other kind (a replaced or removed row, a row of another key) puts them in first.
    private var indexedRows = 0
    /// The greatest integer key of a stored row (`Int64.min` when none has one): a new row's
    /// key (the store's counter) is greater, and is known not to be stored without a look-up.
    private var highestIntegerKey = Int64.min

    init(table: InMemoryRecordTable) {
        self.table = table
        columns = ContiguousArray(repeating: [], count: table.attributes.count)
    }

    func row(for id: ManagedObjectID) -> StoreRow? {
        (positions[id] ?? unindexedPosition(of: id)).map { rows[$0] }
    }

    /// Whether a row of `id` is stored.
    func contains(_ id: ManagedObjectID) -> Bool {
        if case .integer(let key) = id.referenceObject, key > highestIntegerKey { return false }
        return positions[id] != nil || unindexedPosition(of: id) != nil
    }

    /// The position of the row of `id` among the rows after ``indexedRows`` (ascending by
    /// integer key): a binary search by key, then the IDs compared.
    private func unindexedPosition(of id: ManagedObjectID) -> Int? {
        guard indexedRows < rows.count, case .integer(let key) = id.referenceObject else { return nil }
        var low = indexedRows, high = rows.count
        while low < high {
            let middle = low + (high - low) / 2
            guard case .integer(let found) = rows[middle].objectID.referenceObject else { return nil }
            if found == key { return rows[middle].objectID == id ? middle : nil }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Gives the rows after ``indexedRows`` their positions in `positions`.
    private mutating func indexRows() {
        guard indexedRows < rows.count else { return }
        positions.reserveCapacity(rows.count)
        for position in indexedRows..<rows.count { positions[rows[position].objectID] = position }
        indexedRows = rows.count
    }

    /// Makes room for `count` rows in all, growing at least twofold (many small saves do not
    /// reallocate each time).
    mutating func reserveCapacity(_ count: Int) {
        if count > rows.capacity { rows.reserveCapacity(Swift.max(count, 2 * rows.capacity)) }
    }

    /// Adds `row`, or replaces the row with its ID. Consuming: a new row moves into the rows
    /// (no copy of it, no release of the caller's).
    mutating func set(_ row: consuming StoreRow) {
        if case .integer(let key) = row.objectID.referenceObject, key > highestIntegerKey {
            // A new key above every stored one: appended without a position (they ascend).
            highestIntegerKey = key
            rows.append(row)
            return
        }
        indexRows()
        // One look-up for a new row: its position is put in at once (and put back for a
        // replaced row).
        if let position = positions.updateValue(rows.count, forKey: row.objectID) {
            positions[row.objectID] = position
            rows[position] = row
            if position < builtRows {
                for column in table.names.indices { columns[column][position] = reading(column, of: row) }
            }
        } else {
            rows.append(row)
            indexedRows = rows.count
        }
    }

    /// Takes `rows` as the rows, when there are none yet: rows with integer keys that rise
    /// (``RowsByEntity/canAdopt(_:)``). The array is shared, not copied (a later change to the
    /// rows copies it once if the giver still holds it).
    mutating func adopt(_ rows: [StoreRow]) {
        precondition(self.rows.isEmpty, "rows adopted into an entity that has rows")
        self.rows = ContiguousArray(rows)
        if case .integer(let key)? = rows.last?.objectID.referenceObject { highestIntegerKey = key }
    }

    /// Brings the columns up to date with the rows.
    mutating func buildColumns() {
        guard builtRows < rows.count else { return }
        for column in table.names.indices {
            columns[column].reserveCapacity(rows.count)
            for position in builtRows..<rows.count { columns[column].append(reading(column, of: rows[position])) }
        }
        builtRows = rows.count
    }

    /// The value of `column` in `row`, sorted by kind (the attribute's description is read only
    /// for the less common types).
    @inline(__always)
    private func reading(_ column: Int, of row: StoreRow) -> KeyValueReading {
        // By name (a packed row finds it by position, without making its dictionary).
        let constant = row.attributeValue(named: table.names[column])
        return AttributeValueConversion.reading(of: constant, type: table.types[column])
            ?? AttributeValueConversion.reading(of: constant, attribute: table.attributes[column])
    }

    /// Removes the row of `id`: the last row takes its place.
    mutating func remove(_ id: ManagedObjectID) {
        indexRows()
        guard positions[id] != nil else { return }
        buildColumns()   // the columns then hold every row, and move with them
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = rows.count - 1
        if position < last {
            rows.swapAt(position, last)
            positions[rows[position].objectID] = position
            for column in columns.indices { columns[column].swapAt(position, last) }
        }
        rows.removeLast()
        for column in columns.indices { columns[column].removeLast() }
        builtRows = rows.count
        indexedRows = rows.count
    }
}

/// A fetch's copy of one entity's rows, shared by its readers (one reference each).
final class InMemoryEntitySnapshot {
    let rows: InMemoryEntityRows
    init(_ rows: InMemoryEntityRows) { self.rows = rows }
}

/// Reads one row of an ``InMemoryEntityRows`` through key-value coding, as a predicate or sort
/// descriptor reads the managed object: one reader moves from row to row while a predicate is
/// tested; sorting makes one per matching row.
final class InMemoryRowReader: KeyValueKeyTableProviding {
    private let snapshot: InMemoryEntitySnapshot
    var position: Int

    init(_ snapshot: InMemoryEntitySnapshot, position: Int) {
        self.snapshot = snapshot
        self.position = position
    }

    private var rows: InMemoryEntityRows {
        @inline(__always) _read { yield snapshot.rows }
    }

    /// The value of column `column` sorted by kind.
    @inline(__always)
    func reading(_ column: Int) -> KeyValueReading { rows.columns[column][position] }

    /// The value of column `column` as the managed object holds it.
    func value(_ column: Int) -> Any? {
        Self.value(of: rows.table.attributes[column], in: rows.rows[position])
    }

    /// The value of `attribute` in `row`, as a fault filled from the row holds it.
    static func value(of attribute: AttributeDescription, in row: StoreRow) -> Any? {
        row.attributeValue(named: attribute.name).flatMap { attribute.typedValue(from: $0) ?? nil }
    }

    var keyValueKeyTable: KeyValueKeyTable { rows.table.keys }
    var unmanagedKeyValueKeyTable: Unmanaged<KeyValueKeyTable> { Unmanaged.passUnretained(rows.table.keys) }
}

/// The columns and keys of one entity's records: its saved attributes of plain value types.
final class InMemoryRecordTable: Sendable {
    /// The attributes, one column each.
    let attributes: [AttributeDescription]
    /// The key-value coding keys of the columns (read-only).
    let keys: KeyValueKeyTable
    /// The names of the attributes by column.
    let names: [String]
    /// The types of the attributes by column.
    let types: [AttributeDescription.AttributeType]
    /// The names of the attributes, for checking what a request reads.
    let readableKeys: Set<String>

    private init(attributes: [AttributeDescription]) {
        self.attributes = attributes
        names = attributes.map(\.name)
        types = attributes.map(\.attributeType)
        readableKeys = Set(names)
        keys = KeyValueKeyTable(properties: attributes.enumerated().map { column, attribute in
            Self.property(attribute, column: column)
        })
    }

    /// The table of `entity`'s records. Tables live as long as the process (as every key
    /// table), so equal attribute lists share one.
    static func table(for entity: EntityDescription) -> InMemoryRecordTable {
        let attributes = entity.allProperties.compactMap { property -> AttributeDescription? in
            guard case .attribute(let attribute) = property, !attribute.isTransient, isReadable(attribute.attributeType)
            else { return nil }
            return attribute
        }
        let signature = attributes.map { "\($0.name):\($0.attributeType.rawValue)" }.joined(separator: ",")
        return cache.withTrackedLock(cacheOwner) { tables in
            if let existing = tables[signature] { return existing }
            let made = InMemoryRecordTable(attributes: attributes)
            tables[signature] = made
            return made
        }
    }

    /// The table of an entity with no readable attributes.
    static let empty = InMemoryRecordTable(attributes: [])

    private static let cache = Mutex<[String: InMemoryRecordTable]>([:])
    /// Names the cache's critical section to the thread sanitizer (see `withTrackedLock`).
    private static let cacheOwner = empty

    private static func isReadable(_ type: AttributeDescription.AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
             .binaryData, .uuid, .uri:
            return true
        case .objectID, .transformable, .composite, .undefined:
            return false
        }
    }

    /// A read-only key of a column, typed as the managed object's key for the attribute.
    private static func property(_ attribute: AttributeDescription, column: Int) -> KeyValueProperty {
        switch attribute.attributeType {
        case .integer16: return property(attribute.name, Int16.self, column)
        case .integer32: return property(attribute.name, Int32.self, column)
        case .integer64: return property(attribute.name, Int64.self, column)
        case .decimal: return property(attribute.name, Decimal.self, column)
        case .double: return property(attribute.name, Double.self, column)
        case .float: return property(attribute.name, Float.self, column)
        case .string: return property(attribute.name, String.self, column)
        case .boolean: return property(attribute.name, Bool.self, column)
        case .date: return property(attribute.name, Date.self, column)
        case .binaryData: return property(attribute.name, Data.self, column)
        case .uuid: return property(attribute.name, UUID.self, column)
        case .uri: return property(attribute.name, URL.self, column)
        case .objectID, .transformable, .composite, .undefined: return property(attribute.name, String.self, column)
        }
    }

    private static func property<Wrapped>(_ key: String, _: Wrapped.Type, _ column: Int) -> KeyValueProperty {
        KeyValueProperty(key: key, type: Wrapped?.self,
                         get: { reader in unsafeDowncast(reader, to: InMemoryRowReader.self).value(column) as? Wrapped },
                         read: { reader in unsafeDowncast(reader, to: InMemoryRowReader.self).reading(column) })
    }
}

extension InMemoryStore {
    /// One row of a fetch: its entity's rows and its position there.
    typealias Place = (entity: Int, position: Int)

    /// The rows that a request selects, in its order, with what was applied: the predicate and
    /// order when they read only the rows' columns (and evaluate without error), offset and
    /// limit only with both.
    static func answer(_ request: StoreFetchRequest, from entities: [InMemoryEntityRows]) -> StoreFetchResult {
        let selection = select(request, from: entities)
        return StoreFetchResult(rows: rows(selection.places, of: entities), appliedPredicate: selection.appliedPredicate,
                                appliedOrderAndLimits: selection.appliedOrderAndLimits)
    }

    /// The places of the rows that a request selects (``answer(_:from:)`` without copying a
    /// row): every row when the predicate is not applied, in the request's order when it is
    /// applied.
    static func select(_ request: StoreFetchRequest, from entities: [InMemoryEntityRows])
        -> (places: ArraySlice<Place>, appliedPredicate: Bool, appliedOrderAndLimits: Bool) {
        func all() -> [Place] {
            var places: [Place] = []
            for (index, rows) in entities.enumerated() { places += rows.rows.indices.map { (index, $0) } }
            return places
        }
        let readable = entities.dropFirst().reduce(entities.first?.table.readableKeys ?? []) { $0.intersection($1.table.readableKeys) }
        var selected: [Place] = []
        if let predicate = request.predicate {
            guard let keys = FetchScope.ownKeys(of: predicate), keys.isSubset(of: readable),
                  let matching = try? matches(of: predicate, in: entities) else {
                return (all()[...], false, false)
            }
            selected = matching
        } else {
            selected = all()
        }
        if !request.sortDescriptors.isEmpty {
            guard let keys = FetchScope.ownKeys(of: request.sortDescriptors), keys.isSubset(of: readable),
                  let sorted = try? self.sorted(selected, of: entities, by: request.sortDescriptors) else {
                return (selected[...], true, false)
            }
            selected = sorted
        }
        // Offset and limit cut the places: only the rows returned are read.
        var kept = selected.dropFirst(max(0, request.fetchOffset))
        if request.fetchLimit > 0 && kept.count > request.fetchLimit { kept = kept.prefix(request.fetchLimit) }
        return (kept, true, true)
    }

    /// The rows at `places`, in order.
    private static func rows(_ places: ArraySlice<Place>, of entities: [InMemoryEntityRows]) -> [StoreRow] {
        if entities.count == 1 {
            return entities[0].rows.withUnsafeBufferPointer { rows in places.map { rows[$0.position] } }
        }
        return places.map { entities[$0.entity].rows[$0.position] }
    }

    /// The places of the rows that satisfy `predicate`. Comparisons of the rows' own keys read
    /// the columns directly, a part of the predicate at a time
    /// (``Predicates/KeyValuePredicate/columnFilteredPositions(count:column:fallback:)``); any
    /// other part is evaluated through one reader moving from row to row.
    private static func matches(of predicate: KeyValuePredicate, in entities: [InMemoryEntityRows]) throws -> [Place] {
        var matching: [Place] = []
        for (index, rows) in entities.enumerated() {
            let positions = try predicate.columnFilteredPositions(count: rows.rows.count, column: columnFinder(rows),
                                                                  fallback: readerFallback(rows))
            matching.reserveCapacity(matching.count + positions.count)
            for position in positions { matching.append((index, position)) }
        }
        return matching
    }

    /// The column of a key in `rows`.
    private static func columnFinder(_ rows: InMemoryEntityRows) -> (String) -> KeyValueReadingColumn? {
        { key in rows.table.names.firstIndex(of: key).map { rows.columns[$0] } }
    }

    /// The general evaluation of a part of a predicate, through a reader of `rows` moved to the
    /// tested row (one reader, boxed once, for every part that needs one).
    private static func readerFallback(_ rows: InMemoryEntityRows) -> (KeyValuePredicate) throws -> RowPositionTest {
        var cursor: (reader: InMemoryRowReader, boxed: Any?)?
        return { part in
            let general = try part.compiledEvaluation()
            let reader = cursor?.reader ?? InMemoryRowReader(InMemoryEntitySnapshot(rows), position: 0)
            let boxed: Any? = cursor?.boxed ?? reader
            cursor = (reader, boxed)
            return { position in
                reader.position = position
                return try general(boxed)
            }
        }
    }

    /// `places` in the order of `descriptors`, whose keys are columns of every entity: sorted by
    /// the columns' readings directly, or, for a comparator, through a reader per row.
    private static func sorted(_ places: [Place], of entities: [InMemoryEntityRows],
                               by descriptors: [KeyValueSortDescriptor]) throws -> [Place] {
        let readings = descriptors.map { descriptor -> [KeyValueReading] in
            let key = descriptor.key ?? ""
            let columns = entities.map { $0.columns[$0.table.names.firstIndex(of: key) ?? 0] }
            if columns.count == 1 {
                return columns[0].withUnsafeBufferPointer { column in places.map { column[$0.position] } }
            }
            return places.map { columns[$0.entity][$0.position] }
        }
        if let order = try KeyValueSortDescriptor.sortedPositions(readings: readings, count: places.count, using: descriptors) {
            return order.map { places[$0] }
        }
        let snapshots = entities.map(InMemoryEntitySnapshot.init)
        let readers = places.map { InMemoryRowReader(snapshots[$0.entity], position: $0.position) }
        var placeOf: [ObjectIdentifier: Place] = [:]
        for (reader, place) in zip(readers, places) { placeOf[ObjectIdentifier(reader)] = place }
        return try readers.sorted(using: descriptors).map { placeOf[ObjectIdentifier($0)]! }
    }
}
