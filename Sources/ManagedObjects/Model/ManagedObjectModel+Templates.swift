// Fetch request templates and fetched properties turned into fetch requests.
import Foundation
import Predicates

extension ManagedObjectModel {
    /// The fetch request template stored under `name`, as stored: its `$variables` are not
    /// substituted (Apple: `fetchRequestTemplate(forName:)`).
    ///
    /// - Parameter name: The template's name.
    /// - Returns: The template, or `nil` when the model has none of that name.
    /// - Complexity: O(1).
    public func fetchRequestTemplate(named name: String) -> EntityFetchRequest? {
        fetchRequestTemplatesByName[name]
    }

    /// A fetch request made from a template, with every `$variable` of its predicate (and of its
    /// `HAVING` predicate) replaced by a value (Apple:
    /// `fetchRequestFromTemplate(withName:substitutionVariables:)`).
    ///
    /// As Apple's documentation asks, `variables` must give a value for every variable of the
    /// template; a missing one is a thrown error naming it (Apple raises an exception). Extra
    /// values are ignored. A value of `nil` binds `nil`.
    ///
    /// ```swift
    /// // template "moviesAfter": Movie, year > $YEAR
    /// let request = try model.fetchRequest(fromTemplateNamed: "moviesAfter",
    ///                                      substitutionVariables: ["YEAR": 1990])
    /// request.predicate?.predicateFormat   // "year > 1990"
    /// ```
    ///
    /// - Parameters:
    ///   - name: The template's name.
    ///   - variables: Values by variable name (without `$`).
    /// - Returns: A copy of the template with the variables replaced.
    /// - Throws: ``ManagedObjectModelError/Code/unknownTemplate(_:)`` for a name the model does
    ///   not have; ``ManagedObjectModelError/Code/invalidPredicate(_:)`` naming a variable
    ///   without a value (the error's `property` names the template).
    public func fetchRequest(fromTemplateNamed name: String,
                             substitutionVariables variables: [String: Any?]) throws(ManagedObjectModelError) -> EntityFetchRequest {
        guard let template = fetchRequestTemplate(named: name) else {
            throw ManagedObjectModelError(.unknownTemplate(name))
        }
        return try template.substituting(variables, entity: template.entityName, place: "fetch request template \(name)")
    }
}

extension EntityFetchRequest {
    /// A copy with the predicates' variables replaced; an unbound one becomes a model error.
    func substituting(_ variables: [String: Any?], entity: String?, place: String) throws(ManagedObjectModelError) -> EntityFetchRequest {
        var request = self
        do {
            request.predicate = try predicate?.withSubstitutionVariables(variables)
            request.havingPredicate = try havingPredicate?.withSubstitutionVariables(variables)
        } catch {
            let message: String
            if case .unboundVariable(let variable) = error {
                message = "no value for the substitution variable $\(variable)"
            } else {
                message = error.localizedDescription
            }
            throw ManagedObjectModelError(.invalidPredicate(message), entity: entity, property: place)
        }
        return request
    }
}

extension FetchedPropertyDescription {
    /// The name of the variable that stands for the object whose property is read
    /// (Apple: `$FETCH_SOURCE`).
    public static let fetchSourceVariable = "FETCH_SOURCE"
    /// The name of the variable that stands for the fetched property itself
    /// (Apple: `$FETCHED_PROPERTY`).
    public static let fetchedPropertyVariable = "FETCHED_PROPERTY"

    /// The fetch request that produces this property's value for `source`: the property's
    /// request with `$FETCH_SOURCE` bound to the object and `$FETCHED_PROPERTY` bound to a
    /// description of the property (Apple evaluates fetched properties this way).
    ///
    /// `$FETCHED_PROPERTY` reads as a dictionary with the keys `name` and `userInfo`, so the
    /// documented idiom `$FETCHED_PROPERTY.userInfo.someKey` works. `$FETCH_SOURCE` is the
    /// object itself: `$FETCH_SOURCE.name` reads its key when the predicate is evaluated.
    ///
    /// ```swift
    /// // recentMovies on Theater: Movie, theater == $FETCH_SOURCE AND year > 2000
    /// let request = try recentMovies.fetchRequest(forSource: theater)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The object whose fetched property is read.
    ///   - variables: Values for any other variables of the predicate.
    ///   - entity: The source's entity name, reported in errors.
    /// - Returns: The request, ready to execute.
    /// - Throws: ``ManagedObjectModelError/Code/invalidPredicate(_:)`` naming a variable
    ///   without a value.
    public func fetchRequest(forSource source: Any, substitutionVariables variables: [String: Any?] = [:],
                             entity: String? = nil) throws(ManagedObjectModelError) -> EntityFetchRequest {
        var all = variables
        all[Self.fetchSourceVariable] = source
        all[Self.fetchedPropertyVariable] = ["name": name, "userInfo": userInfo] as [String: Any]
        return try fetchRequest.substituting(all, entity: entity, place: name)
    }
}
