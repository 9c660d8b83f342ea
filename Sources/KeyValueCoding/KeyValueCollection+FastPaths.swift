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
        guard let objectType = type(of: firstObject) as? any KeyValueCodable.Type,
              let property = KeyValueClassDescription.of(objectType).property(forKey: key),
              case .stored(let offset) = property.storage else { return false }
        let expected = ObjectIdentifier(objectType)
        return withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Unmanaged<AnyObject>.self) { objects in
                // Check every element first: no partial sums when the fast path does not apply.
                for element in objects
                where ObjectIdentifier(type(of: element.takeUnretainedValue())) != expected {
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
