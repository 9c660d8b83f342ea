import Foundation

extension Set {
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }
}

extension ContiguousArray {
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        false
    }
}

extension Array {
    func keyValueSumStoredNumbers(forKey key: String, into accumulator: inout NumericAccumulator) -> Bool {
        guard Element.self is AnyClass, MemoryLayout<Element>.size == MemoryLayout<AnyObject>.size,
              let first = first else { return false }
        let firstObject = unsafeBitCast(first, to: AnyObject.self)
        guard let property = KeyTableLookup.table(ofObject: firstObject)?
                .takeUnretainedValue().property(forKey: key),
              let offset = property.directOffset, let owner = property.owner else { return false }
        return withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Unmanaged<AnyObject>.self) { objects in
                // Check every element first: no partial sums when the fast path does not apply.
                for element in objects
                where !KeyTableLookup.owns(owner, element.takeUnretainedValue()) {
                    return false
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
