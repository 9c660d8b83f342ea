// Value transformers for transformable attributes: the protocol, its errors, the registry.
import Foundation
import ObjectGraphInternals
import Synchronization

/// Turns the values of a transformable attribute into data for the store and back
/// (Apple: the `ValueTransformer` named by `NSAttributeDescription.valueTransformerName`, whose
/// `transformedValue(_:)` makes the data and `reverseTransformedValue(_:)` restores the value).
///
/// Register a transformer under the name the model uses with
/// ``AttributeValueTransformers/register(_:named:)``. The secure-unarchiving default,
/// ``SecureUnarchiveTransformer``, is registered as `"NSSecureUnarchiveFromData"`.
///
/// ```swift
/// struct ColorTransformer: AttributeValueTransformer {
///     func transformedValue(_ value: Any) throws(AttributeValueTransformerError) -> Data {
///         guard let color = value as? Color else { throw .unsupportedValue(typeName: "\(type(of: value))") }
///         return Data(color.hex.utf8)
///     }
///     func reverseTransformedValue(_ data: Data) throws(AttributeValueTransformerError) -> Any {
///         guard let color = Color(hex: String(decoding: data, as: UTF8.self)) else { throw .unreadableData("not a colour") }
///         return color
///     }
/// }
/// AttributeValueTransformers.register(ColorTransformer(), named: "ColorTransformer")
/// ```
///
/// The name avoids Foundation's `ValueTransformer`.
///
/// - Important: Thread safety: transformers are `Sendable` and called from any thread.
public protocol AttributeValueTransformer: Sendable {
    /// The data to store for `value` (Apple: `transformedValue(_:)`).
    ///
    /// - Parameter value: The attribute's value (never `nil`: `nil` is stored as `NULL`).
    /// - Returns: The data.
    /// - Throws: ``AttributeValueTransformerError`` when the value cannot be turned into data.
    func transformedValue(_ value: Any) throws(AttributeValueTransformerError) -> Data

    /// The value stored as `data` (Apple: `reverseTransformedValue(_:)`).
    ///
    /// - Parameter data: Data made by ``transformedValue(_:)`` (or by Apple's transformer of
    ///   the same name).
    /// - Returns: The value.
    /// - Throws: ``AttributeValueTransformerError`` for data that cannot be read back.
    func reverseTransformedValue(_ data: Data) throws(AttributeValueTransformerError) -> Any
}

/// Why a value could not be turned into data or back.
///
/// - Important: Thread safety: a `Sendable` value.
public struct AttributeValueTransformerError: Error, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The transformer cannot store a value of this type (the text is the type's name).
        case unsupportedValue(typeName: String)
        /// The data is not what the transformer writes (the text says what is wrong).
        case unreadableData(String)
        /// The archive holds a class that secure unarchiving does not allow (the class name).
        case disallowedClass(String)
        /// No transformer is registered under the name.
        case unknownTransformer(String)
        /// The attribute is not transformable, so it has no transformer.
        case notTransformable
    }

    /// What went wrong.
    public var code: Code
    /// The transformer's registered name, when known.
    public var transformerName: String?
    /// The entity of the attribute, when known.
    public var entity: String?
    /// The attribute, when known.
    public var attribute: String?

    /// Creates an error.
    public init(_ code: Code, transformerName: String? = nil, entity: String? = nil, attribute: String? = nil) {
        self.code = code
        self.transformerName = transformerName
        self.entity = entity
        self.attribute = attribute
    }

    /// A value of an unsupported type.
    public static func unsupportedValue(typeName: String) -> Self { Self(.unsupportedValue(typeName: typeName)) }
    /// Data that cannot be read back.
    public static func unreadableData(_ why: String) -> Self { Self(.unreadableData(why)) }
}

extension AttributeValueTransformerError: CustomStringConvertible, LocalizedError {
    /// A sentence naming the attribute, the transformer and the problem.
    public var description: String {
        var place: [String] = []
        switch (entity, attribute) {
        case let (entity?, attribute?): place.append("\(entity).\(attribute)")
        case let (nil, attribute?): place.append("attribute '\(attribute)'")
        default: break
        }
        if let transformerName { place.append("value transformer '\(transformerName)'") }
        let prefix = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        switch code {
        case .unsupportedValue(let typeName): return prefix + "a value of type \(typeName) cannot be transformed into data"
        case .unreadableData(let why): return prefix + "the data cannot be turned back into a value (\(why))"
        case .disallowedClass(let name): return prefix + "the archive holds the class \(name), which secure unarchiving does not allow"
        case .unknownTransformer(let name):
            return prefix + "no value transformer is registered under the name '\(name)'; register one with AttributeValueTransformers.register(_:named:)"
        case .notTransformable: return prefix + "the attribute is not transformable"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

/// The registry of value transformers by name (Apple: `ValueTransformer.setValueTransformer(_:forName:)`
/// and `ValueTransformer(forName:)`).
///
/// - Important: Thread safety: every function may be called from any thread; the registry is
///   behind a lock.
public enum AttributeValueTransformers {
    private static let registry = Mutex<[String: any AttributeValueTransformer]>([
        AttributeDescription.secureUnarchiveTransformerName: SecureUnarchiveTransformer(),
    ])

    /// Registers `transformer` under `name`, replacing any transformer of that name.
    ///
    /// - Parameters:
    ///   - transformer: The transformer.
    ///   - name: The name models use (`valueTransformerName`).
    public static func register(_ transformer: any AttributeValueTransformer, named name: String) {
        registry.withTrackedLock(ThreadSanitizer.staticOwner) { $0[name] = transformer }
    }

    /// Removes the transformer registered under `name` (the secure-unarchiving default can be
    /// removed too, and registered again).
    ///
    /// - Parameter name: The name.
    public static func unregister(named name: String) {
        _ = registry.withTrackedLock(ThreadSanitizer.staticOwner) { $0.removeValue(forKey: name) }
    }

    /// The transformer registered under `name`, or `nil`.
    ///
    /// - Parameter name: The name.
    /// - Complexity: O(1).
    public static func transformer(named name: String) -> (any AttributeValueTransformer)? {
        registry.withTrackedLock(ThreadSanitizer.staticOwner) { $0[name] }
    }

    /// The registered names, sorted.
    public static var registeredNames: [String] { registry.withTrackedLock(ThreadSanitizer.staticOwner) { $0.keys.sorted() } }
}

extension AttributeDescription {
    /// The transformer of a transformable attribute, found by
    /// ``effectiveValueTransformerName`` in ``AttributeValueTransformers``.
    ///
    /// - Returns: The registered transformer.
    /// - Throws: ``AttributeValueTransformerError/Code/notTransformable`` for another type;
    ///   ``AttributeValueTransformerError/Code/unknownTransformer(_:)`` naming the missing
    ///   transformer and the attribute.
    public func valueTransformer() throws(AttributeValueTransformerError) -> any AttributeValueTransformer {
        guard let name = effectiveValueTransformerName else {
            throw AttributeValueTransformerError(.notTransformable, attribute: self.name)
        }
        guard let transformer = AttributeValueTransformers.transformer(named: name) else {
            throw AttributeValueTransformerError(.unknownTransformer(name), transformerName: name, attribute: self.name)
        }
        return transformer
    }

    /// The data a store keeps for `value` of this transformable attribute.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - entity: The entity's name, for errors.
    /// - Returns: The transformer's data.
    /// - Throws: ``AttributeValueTransformerError`` naming the entity, the attribute and the
    ///   transformer.
    public func transformedData(for value: Any, entity: String? = nil) throws(AttributeValueTransformerError) -> Data {
        do {
            return try valueTransformer().transformedValue(value)
        } catch {
            throw located(error, entity: entity)
        }
    }

    /// The value stored as `data` for this transformable attribute.
    ///
    /// - Parameters:
    ///   - data: The stored data.
    ///   - entity: The entity's name, for errors.
    /// - Returns: The value.
    /// - Throws: ``AttributeValueTransformerError`` naming the entity, the attribute and the
    ///   transformer.
    public func value(fromTransformedData data: Data, entity: String? = nil) throws(AttributeValueTransformerError) -> Any {
        do {
            return try valueTransformer().reverseTransformedValue(data)
        } catch {
            throw located(error, entity: entity)
        }
    }

    private func located(_ error: AttributeValueTransformerError, entity: String?) -> AttributeValueTransformerError {
        var error = error
        error.attribute = error.attribute ?? name
        error.entity = error.entity ?? entity
        error.transformerName = error.transformerName ?? effectiveValueTransformerName
        return error
    }
}
