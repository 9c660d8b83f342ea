// Inserting objects of a bound subclass.
import Foundation

extension ManagedObjectContext {
    /// Makes a new object of the entity `objectClass` is bound to (its
    /// ``ManagedObject/entityName``) and inserts it (Apple:
    /// `NSEntityDescription.insertNewObject(forEntityName:into:) as! Apple`, or
    /// `Apple(context:)`).
    ///
    /// ```swift
    /// let apple = try context.insertNewObject(Apple.self)
    /// apple.radius = 2.4
    /// ```
    ///
    /// - Parameter objectClass: A class bound in the context's model.
    /// - Returns: The new object, with its attributes' default values.
    /// - Throws: ``ManagedObjectModelError/Code/unknownEntity(_:)``;
    ///   ``ManagedObjectModelError/Code/classMismatch(_:)`` when the entity's objects are of
    ///   another class (the class is not bound); the errors of ``insert(_:)``.
    @discardableResult
    public func insertNewObject<Object: ManagedObject>(_ objectClass: Object.Type) throws -> Object {
        let object = try Object(entityName: Object.entityName, in: model)
        try insert(object)
        return object
    }
}

extension ManagedObjectContext {
    /// The objects a request matches, as a bound class (Apple: `fetch(_:)` with an
    /// `NSFetchRequest<Apple>`).
    ///
    /// ```swift
    /// let big = try context.fetch(Apple.fetchRequest(), as: Apple.self)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request; its entity's objects (and its subentities') must be of
    ///     `objectClass` or a subclass.
    ///   - objectClass: The class.
    /// - Returns: The matching objects.
    /// - Throws: ``ManagedObjectModelError/Code/classMismatch(_:)`` when a matching object is of
    ///   another class (nothing is dropped silently); the errors of ``fetch(_:)``.
    public func fetch<Object: ManagedObject>(_ request: EntityFetchRequest, as objectClass: Object.Type) throws -> [Object] {
        try fetch(request).map { object in
            guard let typed = object as? Object else {
                throw ManagedObjectModelError(.classMismatch("the fetched object \(object.objectID) is of class \(type(of: object)), not \(Object.self)"
                    + ClassBindingCheck.bindingAdvice(objectClass: type(of: object), wanted: Object.self)),
                                              entity: object.entity.name)
            }
            return typed
        }
    }
}

extension ManagedObject {
    /// A request for the objects of the entity this class is bound to (Apple: the generated
    /// `fetchRequest()` class method).
    ///
    /// - Returns: A request for ``entityName``, with no predicate and no order.
    public class func fetchRequest() -> EntityFetchRequest {
        EntityFetchRequest(entityName: entityName)
    }
}
