// Constants as format-string literals.
import Foundation
import KeyValueCoding

extension PredicateFormatter {
    /// Written in place of a collection nested deeper than ``ValueEquality/maximumNesting``
    /// levels inside a constant. It does not parse back: such a constant has no usable text.
    static let tooDeepPlaceholder = "<nested too deeply>"

    static func writeConstant(_ raw: Any?, depth: Int = 0, into output: inout String) {
        guard let value = ValueEquality.normalize(raw) else {
            output += "nil"
            return
        }
        switch value {
        case let string as String:
            writeString(string, into: &output)
        case let symbol as KeyValueExpression.IndexSymbol:
            output += symbol.rawValue
        case let bool as Bool:
            output += bool ? "1" : "0"   // as NSNumber prints a Boolean
        case let date as Date:
            output += "CAST(" + number(date.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case let decimal as Decimal:
            output += decimal.description
        default:
            if let number = KeyValueNumber(value) {
                writeNumber(number, into: &output)
            } else if let elements = ValueCollections.elements(of: value), !(value is any PredicateDictionaryValue) {
                guard depth < ValueEquality.maximumNesting else {
                    output += tooDeepPlaceholder
                    return
                }
                output += "{"
                for (index, element) in elements.enumerated() {
                    if index > 0 { output += ", " }
                    writeConstant(element, depth: depth + 1, into: &output)
                }
                output += "}"
            } else {
                output += String(describing: value)
            }
        }
    }

    private static func writeNumber(_ number: KeyValueNumber, into output: inout String) {
        switch number {
        case .integer(let v): output += String(v)
        case .unsigned(let v): output += String(v)
        case .boolean(let v): output += v ? "1" : "0"
        case .decimal(let v): output += v.description
        case .floating(let v):
            if v.isFinite {
                output += Self.number(v)
            } else {
                output += "CAST(\"" + (v.isNaN ? "nan" : (v < 0 ? "-inf" : "inf")) + "\", \"NSNumber\")"
            }
        }
    }

    /// A finite double in its shortest exact form; integral values without a fraction.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), Swift.abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    static func writeString(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

/// Dictionaries have no literal form in the format language.
protocol PredicateDictionaryValue {}
extension Dictionary: PredicateDictionaryValue {}
extension NSDictionary: PredicateDictionaryValue {}
