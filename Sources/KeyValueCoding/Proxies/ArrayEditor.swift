import Foundation

/// Reads and edits one array property with its element type known, so that edits convert only
/// the new elements and never box the others.
protocol ArrayEditing {
    func count(of object: AnyObject) -> Int
    func element(at index: Int, of object: AnyObject) -> Any?
    func elements(of object: AnyObject) -> [Any?]
    /// Converts `newElements`, then sends the will-change notification, edits, and sends the
    /// did-change notification. Indexes are already checked.
    func edit(_ change: KeyValueChangeKind, at indexes: IndexSet, with newElements: [Any?],
              object: any KeyValueCodable) throws
}

/// Makes the editor of an array property (`[E]` or `[E]?`).
func makeArrayEditor(for property: KeyValueProperty) -> any ArrayEditing {
    let elementType = arrayElementType(of: property.valueType) ?? Any.self
    var inPlaceOffset: Int?
    if case .stored(let offset) = property.storage, arrayElementType(of: property.valueType, allowingOptional: false) != nil {
        inPlaceOffset = offset  // a stored, non-optional array: edited where it lies
    }
    var mutators: KeyValueArrayMutators?
    if case .array(let declared)? = property.toManyMutators { mutators = declared }
    func make<E>(_: E.Type) -> any ArrayEditing {
        ArrayEditor<E>(property: property, inPlaceOffset: mutators == nil ? inPlaceOffset : nil, mutators: mutators)
    }
    return _openExistential(elementType, do: make)
}

/// The editor of an array property whose elements are `E`.
struct ArrayEditor<E>: ArrayEditing {
    /// The array property.
    let property: KeyValueProperty
    /// The byte offset of a stored `[E]` field, edited in place; nil to read and store back.
    let inPlaceOffset: Int?
    /// The element-wise mutators the class declares for the property; they make the edits.
    let mutators: KeyValueArrayMutators?

    private func read(_ object: AnyObject) -> [E] {
        if let inPlaceOffset { return fieldAddress(object, inPlaceOffset, [E].self).pointee }
        return property.getter(object) as? [E] ?? []
    }

    func count(of object: AnyObject) -> Int {
        read(object).count
    }

    func element(at index: Int, of object: AnyObject) -> Any? {
        flattenOptional(read(object)[index])
    }

    func elements(of object: AnyObject) -> [Any?] {
        read(object).map { flattenOptional($0) }
    }

    func edit(_ change: KeyValueChangeKind, at indexes: IndexSet, with newElements: [Any?],
              object: any KeyValueCodable) throws {
        // Convert before notifying, so that a wrong element sends no notification.
        let typed = try newElements.enumerated().map { position, element in
            try convert(element, position: indexes.dropFirst(position).first ?? position,
                        object: object, key: property.key)
        }
        if let mutators {
            try applyMutators(mutators, change, indexes, typed, to: object)
            return
        }
        try object.changingElements(change, at: indexes, forKey: property.key) {
            if let inPlaceOffset {
                apply(change, indexes, typed, to: &fieldAddress(object, inPlaceOffset, [E].self).pointee)
            } else {
                var array = read(object)
                apply(change, indexes, typed, to: &array)
                try property.setValue(array, on: object, notify: false)
            }
        }
    }

    /// Makes an edit element by element through the declared mutators: insertions in ascending
    /// order of the final positions, removals in descending order. A mutator that throws ends
    /// the edit there (the elements before it stay changed).
    /// Makes an edit element by element through the declared mutators, each element its own
    /// notified change (as Apple's proxies call an indexed accessor per element): insertions in
    /// ascending order of the final positions, removals in descending order. A mutator that
    /// throws ends the edit there: that element's announced change is cancelled (observers hear
    /// nothing of it), the elements before it stay changed and were notified.
    private func applyMutators(_ mutators: KeyValueArrayMutators, _ change: KeyValueChangeKind,
                               _ indexes: IndexSet, _ typed: [E], to object: any KeyValueCodable) throws {
        let key = property.key
        switch change {
        case .insertion:
            for (index, element) in zip(indexes, typed) {
                try object.changingElements(.insertion, at: [index], forKey: key) {
                    try mutators.insert(object, element, index)
                }
            }
        case .removal:
            for index in indexes.reversed() {
                try object.changingElements(.removal, at: [index], forKey: key) {
                    try mutators.remove(object, index)
                }
            }
        case .replacement:
            for (index, element) in zip(indexes, typed) {
                try object.changingElements(.replacement, at: [index], forKey: key) {
                    if let replace = mutators.replace {
                        try replace(object, index, element)
                    } else {
                        try mutators.remove(object, index)
                        try mutators.insert(object, element, index)
                    }
                }
            }
        case .setting:
            break
        }
    }

    private func apply(_ change: KeyValueChangeKind, _ indexes: IndexSet, _ typed: [E], to array: inout [E]) {
        applyArrayChange(change, indexes, typed, to: &array)
    }

    private func convert(_ element: Any?, position: Int, object: any KeyValueCodable, key: String) throws -> E {
        if let element, isSwiftCollection(type(of: element)), isClassTarget(E.self) {
            // Casting would bridge the collection through Foundation (see `castWithoutBridging`).
            throw KeyValueCodingError.typeMismatch(
                key: "\(key)[\(position)]", type: typeName(type(of: object)), expected: typeName(E.self),
                actual: typeName(type(of: element)))
        }
        if let element, let converted = try coerce(element, to: E.self, key: "\(key)[\(position)]", owner: object) {
            return converted
        }
        if let none = Optional<Any>.none as? E {
            return none  // a nil element of an optional element type
        }
        throw KeyValueCodingError.typeMismatch(
            key: "\(key)[\(position)]", type: typeName(type(of: object)), expected: typeName(E.self),
            actual: element.map { typeName(type(of: $0)) } ?? "nil")
    }
}

/// Applies one proxy edit to an array (indexes already checked).
func applyArrayChange<E>(_ change: KeyValueChangeKind, _ indexes: IndexSet, _ typed: [E], to array: inout [E]) {
    switch change {
    case .insertion:
        for (element, index) in zip(typed, indexes) { array.insert(element, at: index) }
    case .removal:
        for range in indexes.rangeView.reversed() { array.removeSubrange(range) }
    case .replacement:
        for (element, index) in zip(typed, indexes) { array[index] = element }
    case .setting:
        break
    }
}
