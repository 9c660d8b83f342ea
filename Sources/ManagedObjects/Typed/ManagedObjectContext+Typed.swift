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
