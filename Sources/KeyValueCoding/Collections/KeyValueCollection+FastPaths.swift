import Foundation

extension Array {
    package func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        guard Element.self is AnyClass, MemoryLayout<Element>.size == MemoryLayout<AnyObject>.size,
              let first = first else { return false }
        let firstObject = unsafeBitCast(first, to: AnyObject.self)
        guard let property = KeyTableLookup.table(ofObject: firstObject)?
                .takeUnretainedValue().property(forKey: key),
              let owner = property.owner else { return false }
        return withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Unmanaged<AnyObject>.self) { objects in
                // Check every element first: no partial sums when the fast path does not apply.
                for element in objects where !KeyTableLookup.owns(owner, element) {
                    return false
                }
                guard let offset = property.directOffset else {
                    return sumReadings(objects, property, into: &accumulator)
                }
                if property.valueType == Double.self {
                    var sum = 0.0
                    for element in objects {
                        sum += fieldAddress(element.takeUnretainedValue(), offset, Double.self).pointee
                    }
                    accumulator.add(sum)
                    return true
                }
                if property.valueType == Int.self {
                    for element in objects {
                        let value = fieldAddress(element.takeUnretainedValue(), offset, Int.self).pointee
                        accumulator.add(.integer(Int64(value)))
                    }
                    return true
                }
                return false
            }
        }
    }
}

/// Sums the typed readings of `property` (an accessor or computed key) over `objects`; false,
/// adding nothing, when a value is neither a number nor nil.
private func sumReadings(_ objects: UnsafeBufferPointer<Unmanaged<AnyObject>>, _ property: KeyValueProperty,
                         into accumulator: inout NumericAccumulator) -> Bool {
    var sum = accumulator
    var floating = 0.0  // floating-point values summed apart, as the stored fast path does
    var sawFloating = false
    for element in objects {
        switch element._withUnsafeGuaranteedRef({ property.reader($0) }) {
        case .number(.floating(let value)):
            floating += value
            sawFloating = true
        case .number(let number): sum.add(number)
        case .null: continue
        default: return false
        }
    }
    if sawFloating { sum.add(floating) }
    accumulator = sum
    return true
}
