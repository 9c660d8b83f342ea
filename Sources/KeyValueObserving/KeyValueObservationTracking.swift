import Observation

/// A ``KeyValueObservable`` class whose `@Observed` properties can also be tracked by the
/// Observation module (`withObservationTracking`, SwiftUI).
///
/// Conform, and hold an `ObservationRegistrar`:
///
/// ```swift
/// import Observation
///
/// final class Thermometer: KeyValueObservationTracking {
///     let observationRegistrar = ObservationRegistrar()
///     @Observed var celsius = 20.0
/// }
///
/// withObservationTracking { _ = thermometer.celsius } onChange: { print("will change") }
/// thermometer.celsius = 21      // the onChange closure runs, and key-value observers too
/// ```
///
/// Reads of `@Observed` properties then call the registrar's `access`, and stores its
/// `willSet` and `didSet`. Classes that conform only to ``KeyValueObservable`` pay nothing
/// for this. Only stores through the property itself reach the registrar (not
/// `setValue(_:forKey:)`, which bypasses Swift's accessors).
///
/// - Important: Thread safety: as for ``KeyValueObservable``; the registrar is thread-safe.
public protocol KeyValueObservationTracking: KeyValueObservable, Observable {
    /// The registrar that tracks this object's `@Observed` properties.
    var observationRegistrar: ObservationRegistrar { get }
}

extension KeyValueObservationTracking {
    public func observationTrackingAccess<Root, Member>(_ keyPath: KeyPath<Root, Member>) {
        forward(.access, keyPath)
    }

    public func observationTrackingWillSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {
        forward(.willSet, keyPath)
    }

    public func observationTrackingDidSet<Root, Member>(_ keyPath: KeyPath<Root, Member>) {
        forward(.didSet, keyPath)
    }

    /// Calls the registrar with this object and `keyPath` typed for the class that declares
    /// the property (`Root`, which may be a superclass of `Self`).
    private func forward<Root, Member>(_ event: TrackingEvent, _ keyPath: KeyPath<Root, Member>) {
        guard let rootType = Root.self as? any Observable.Type else { return }
        let registrar = observationRegistrar
        func open<Subject: Observable>(_: Subject.Type) {
            guard let subject = self as? Subject, let path = keyPath as? KeyPath<Subject, Member> else { return }
            switch event {
            case .access: registrar.access(subject, keyPath: path)
            case .willSet: registrar.willSet(subject, keyPath: path)
            case .didSet: registrar.didSet(subject, keyPath: path)
            }
        }
        open(rootType)
    }
}

private enum TrackingEvent {
    case access, willSet, didSet
}
