/// A property wrapper whose storage key-value coding reads through, under the wrapped
/// property's plain name.
///
/// A class property `@Wrapper var name: String` is stored as a field `_name` of the wrapper's
/// type. When that type conforms to `KeyValuePropertyWrapper`, key-value coding exposes it as
/// the key `"name"` with the wrapped value's type, and stores through
/// ``setKeyValueWrappedValue(_:storage:object:key:)`` so the wrapper can add side effects
/// (the observing layer's `@Observed` wrapper sends change notifications there).
public protocol KeyValuePropertyWrapper {
    /// The type of the wrapped value.
    associatedtype Value

    /// The wrapped value, read and written without side effects.
    var keyValueWrappedValue: Value { get set }

    /// Stores `value` into the wrapper at `storage`, inside `object`, with the wrapper's side
    /// effects (for example change notifications for `key`).
    ///
    /// - Parameters:
    ///   - value: The new wrapped value.
    ///   - storage: The wrapper's storage inside `object`; valid only during the call.
    ///   - object: The object that holds the wrapper.
    ///   - key: The key of the wrapped property (the field name without its leading `_`).
    static func setKeyValueWrappedValue(_ value: Value, storage: UnsafeMutablePointer<Self>,
                                        object: any KeyValueCodable, key: String)

    /// The byte offset of the wrapped value inside the wrapper, when the wrapper stores it as
    /// a plain field; key-value coding then reads the value there directly, as it reads a
    /// stored property (typed readings for predicates and sorting, collection-operator fast
    /// paths). `nil` (the default) reads through ``keyValueWrappedValue``.
    static var keyValueWrappedValueOffset: Int? { get }
}

extension KeyValuePropertyWrapper {
    public static var keyValueWrappedValueOffset: Int? { nil }
}
