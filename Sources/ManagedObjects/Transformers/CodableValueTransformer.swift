// A Swift-native transformer: Codable values stored as JSON or property lists.
import Foundation

/// A transformer that stores `Codable` values as JSON or as a binary property list: a Swift
/// alternative to keyed archives for transformable attributes of your own types (an ObjectGraph
/// addition; Apple's apps write their own `ValueTransformer` subclass for this).
///
/// ```swift
/// struct Palette: Codable, Sendable { var colors: [String] }
/// AttributeValueTransformers.register(CodableValueTransformer<Palette>(), named: "PaletteTransformer")
/// ```
///
/// - Important: Thread safety: a `Sendable` value; each call makes its own encoder.
public struct CodableValueTransformer<Value: Codable & Sendable>: AttributeValueTransformer {
    /// How values are written.
    public enum Format: Sendable, Hashable {
        /// JSON text (`JSONEncoder`, keys sorted so equal values give equal data).
        case json
        /// A binary property list (`PropertyListEncoder`).
        case propertyList
    }

    /// How values are written.
    public let format: Format

    /// Creates a transformer for `Value`.
    ///
    /// - Parameter format: JSON (default) or a binary property list.
    public init(format: Format = .json) {
        self.format = format
    }

    /// Encodes `value`, which must be a `Value`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unsupportedValue(typeName:)`` for a value
    ///   of another type or one that fails to encode.
    public func transformedValue(_ value: Any) throws(AttributeValueTransformerError) -> Data {
        guard let typed = value as? Value else { throw .unsupportedValue(typeName: "\(type(of: value)) (expected \(Value.self))") }
        do {
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return try encoder.encode(typed)
            case .propertyList:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(typed)
            }
        } catch {
            throw .unsupportedValue(typeName: "\(Value.self) (\(error.localizedDescription))")
        }
    }

    /// Decodes a `Value`.
    ///
    /// - Throws: ``AttributeValueTransformerError/Code/unreadableData(_:)`` with the decoder's
    ///   message.
    public func reverseTransformedValue(_ data: Data) throws(AttributeValueTransformerError) -> Any {
        do {
            switch format {
            case .json: return try JSONDecoder().decode(Value.self, from: data)
            case .propertyList: return try PropertyListDecoder().decode(Value.self, from: data)
            }
        } catch {
            throw .unreadableData("not a \(Value.self) in \(format == .json ? "JSON" : "a property list"): \(error)")
        }
    }
}
