// Constants as format-string literals.
import Foundation
import KeyValueCoding

extension PredicateFormatter {
    /// Written in place of a collection nested deeper than ``ValueEquality/maximumNesting``
    /// levels inside a constant. It does not parse back: such a constant has no usable text.
    static let tooDeepPlaceholder = "<nested too deeply>"

    /// Writes a constant so that parsing the text gives an equal constant, where the format
    /// language has a literal for it (see Docs/Predicates.md, "Text and round trips").
    static func writeConstant(_ constant: KeyValueConstant, depth: Int = 0, into output: inout String) {
        switch constant {
        case .null:
            output += "nil"
        case .bool(let v):
            output += v ? "1" : "0"   // as NSNumber prints a Boolean
        case .integer(let v):
            output += String(v)
        case .unsignedInteger(let v):
            output += String(v)
        case .double(let v):
            writeDouble(v, into: &output)
        case .decimal(let v):
            // A decimal literal would parse as a Double: keep the type with a CAST.
            output += "CAST("
            writeString(v.description, into: &output)
            output += ", \"NSDecimalNumber\")"
        case .string(let v):
            writeString(v, into: &output)
        case .date(let v):
            let seconds = v.timeIntervalSinceReferenceDate
            output += "CAST("
            if seconds.isFinite { output += number(seconds) } else { writeString(nonFinite(seconds), into: &output) }
            output += ", \"NSDate\")"
        case .data(let v):
            output += "<" + v.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() + ">"
        case .uuid(let v):
            writeString(v.uuidString, into: &output)
        case .array(let elements):
            writeElements(elements, depth: depth, into: &output)
        case .set(let elements):
            writeElements(Array(elements), depth: depth, into: &output)
        case .dictionary:
            output += String(describing: constant.anyValue ?? "")
        case .object(let reference):
            output += String(describing: reference.object)
        case .value(let opaque) where opaque.isTooDeep:
            output += tooDeepPlaceholder
        case .value(let opaque):
            // A value with a raw value is written as its raw value (which it equals); others
            // as a quoted description, never as a bare word that would read as a key path.
            if let raw = opaque.rawValue, case let rawConstant = KeyValueConstant(any: raw), !rawConstant.isOpaque {
                writeConstant(rawConstant, depth: depth, into: &output)
            } else {
                writeString(String(describing: opaque.base), into: &output)
            }
        }
    }

    private static func writeElements(_ elements: [KeyValueConstant], depth: Int, into output: inout String) {
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
    }

    /// A double that parses back to the same value: `-0.0` keeps its sign, infinities and NaN
    /// go through `CAST("inf", "NSNumber")`.
    static func writeDouble(_ value: Double, into output: inout String) {
        if value.isFinite {
            output += number(value)
        } else {
            output += "CAST("
            writeString(nonFinite(value), into: &output)
            output += ", \"NSNumber\")"
        }
    }

    private static func nonFinite(_ value: Double) -> String {
        value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
    }

    /// A finite double in its shortest exact form; integral values without a fraction, except
    /// negative zero (`-0.0`), which must keep its sign.
    static func number(_ value: Double) -> String {
        if value == 0, value.sign == .minus { return "-0.0" }
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

extension KeyValueConstant {
    var isOpaque: Bool {
        if case .value = self { return true }
        return false
    }
}
