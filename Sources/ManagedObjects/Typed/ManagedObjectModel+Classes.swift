// Binding managed-object subclasses to entities: explicit, and checked when bound.
import Foundation
import ObjectGraphInternals
import Synchronization

/// The `@Managed` properties of a class, found by reflection once per class.
enum ManagedClassFields {
    private static let cache = Mutex<[ObjectIdentifier: [ManagedLayoutField]]>([:])

    /// The class's `@Managed` properties (its superclasses' included), by entity key.
    static func fields(of objectClass: ManagedObject.Type) -> [ManagedLayoutField] {
        guard objectClass != ManagedObject.self else { return [] }
        let id = ObjectIdentifier(objectClass)
        if let known = cache.withTrackedLock(ThreadSanitizer.staticOwner, { $0[id] }) { return known }
        let found = StoredField.all(of: objectClass).compactMap { field -> ManagedLayoutField? in
            guard let storage = field.type as? any ManagedFieldStorage.Type else { return nil }
            let key = field.name.hasPrefix("_") ? String(field.name.dropFirst()) : field.name
            return ManagedLayoutField(key: key, offset: field.offset, storage: storage)
        }
        cache.withTrackedLock(ThreadSanitizer.staticOwner) { $0[id] = found }
        return found
    }
}

extension ManagedObjectModel {
    /// Binds a managed-object subclass to an entity, so that the entity's objects are made as
    /// instances of it, and checks its `@Managed` properties against the entity (Apple: the
    /// entity's `managedObjectClassName`, looked up at run time).
    ///
    /// Each `@Managed` property must name a property of the entity (inherited ones count) and
    /// have a Swift type that holds it: the attribute type's Swift type (optional, or not for
    /// numbers and `Bool`, and for other types of a non-optional attribute), `X?` for a to-one
    /// relationship, `Set<X>` for a to-many one, `[X]` for an ordered one, where every entity
    /// the relationship can reach (its destination and subentities) is bound to `X` or a
    /// subclass of it (`X` may be `ManagedObject`). An entity without a class of its own uses
    /// its nearest bound ancestor's, else `ManagedObject`. Every binding is checked again after
    /// each change, so a later binding cannot break an earlier one. Bind classes whose
    /// relationships point at each other together with ``setManagedObjectClasses(_:)``.
    ///
    /// ```swift
    /// try model.setManagedObjectClass(Apple.self, forEntityNamed: "Apple")
    /// let apple = try context.insertNewObject(Apple.self)
    /// ```
    ///
    /// - Parameters:
    ///   - objectClass: The class; `ManagedObject.self` removes the entity's binding.
    ///   - entityName: The entity's name.
    /// - Throws: ``ManagedObjectModelError/Code/modelInUse`` once the model is in use;
    ///   ``ManagedObjectModelError/Code/unknownEntity(_:)``;
    ///   ``ManagedObjectModelError/Code/classMismatch(_:)`` naming the entity, the property and
    ///   the Swift type at fault. On error the model is unchanged.
    /// - Complexity: O(*p*) in the number of properties of the bound classes and their
    ///   entities.
    /// - Important: Thread safety: safe from any thread (the model is `Sendable`); bind before
    ///   making objects.
    public func setManagedObjectClass(_ objectClass: ManagedObject.Type, forEntityNamed entityName: String)
        throws(ManagedObjectModelError) {
        try setManagedObjectClasses([entityName: objectClass])
    }

    /// Binds several classes at once, each to the entity its ``ManagedObject/entityName``
    /// names: the way to bind classes whose relationships point at each other. See
    /// ``setManagedObjectClass(_:forEntityNamed:)``.
    ///
    /// - Parameter classes: The classes.
    /// - Throws: As ``setManagedObjectClass(_:forEntityNamed:)``; an unknown entity name, or
    ///   a class whose `entityName` is not overridden, is
    ///   ``ManagedObjectModelError/Code/unknownEntity(_:)``; two classes naming one entity are
    ///   ``ManagedObjectModelError/Code/classMismatch(_:)``.
    public func setManagedObjectClasses(_ classes: [ManagedObject.Type]) throws(ManagedObjectModelError) {
        var bindings: [String: ManagedObject.Type] = [:]
        for objectClass in classes {
            let name = objectClass.entityName
            if let other = bindings[name], other != objectClass {
                throw ManagedObjectModelError(.classMismatch("both \(other) and \(objectClass) name the entity"), entity: name)
            }
            bindings[name] = objectClass
        }
        try setManagedObjectClasses(bindings)
    }

    /// Binds classes to entities by name. See ``setManagedObjectClass(_:forEntityNamed:)``.
    ///
    /// - Parameter bindings: Classes by entity name.
    /// - Throws: As ``setManagedObjectClass(_:forEntityNamed:)``.
    public func setManagedObjectClasses(_ bindings: [String: ManagedObject.Type]) throws(ManagedObjectModelError) {
        try changeClasses { (graph, classes: inout [String: ManagedObject.Type]) throws(ManagedObjectModelError) in
            for (name, objectClass) in bindings.sorted(by: { $0.key < $1.key }) {
                guard graph.entity(named: name) != nil else { throw ManagedObjectModelError(.unknownEntity(name)) }
                classes[name] = objectClass == ManagedObject.self ? nil : objectClass
            }
            try ClassBindingCheck(graph: graph, classes: classes).checkAll()
        }
    }

    /// The class bound to the entity named `entityName` (or to its nearest bound ancestor), or
    /// `ManagedObject` (Apple: `managedObjectClassName`).
    ///
    /// - Parameter entityName: The entity's name.
    /// - Returns: The class whose instances the entity's objects are.
    public func managedObjectClass(forEntityNamed entityName: String) -> ManagedObject.Type {
        let (graph, classes) = graphAndClasses
        return ClassBindingCheck(graph: graph, classes: classes).effectiveClass(of: entityName)
    }
}

/// The checks of a set of bindings against a model graph.
struct ClassBindingCheck {
    let graph: ModelGraph
    let classes: [String: ManagedObject.Type]

    /// The class of `entityName`'s objects: its own binding, else its nearest bound ancestor's.
    func effectiveClass(of entityName: String) -> ManagedObject.Type {
        var name: String? = entityName
        while let current = name {
            if let bound = classes[current] { return bound }
            name = graph.entity(named: current)?.parentName
        }
        return ManagedObject.self
    }

    /// Advice for an object of `objectClass` where `wanted` was asked for: when no class of the
    /// wanted kind is bound (the objects are plain managed objects), how to bind one.
    static func bindingAdvice(objectClass: ManagedObject.Type, wanted: ManagedObject.Type) -> String {
        guard objectClass == ManagedObject.self else { return "" }
        return "; no class is bound to the entity: call model.setManagedObjectClasses([\(wanted).self, …]) "
            + "before a coordinator or container uses the model"
    }

    func checkAll() throws(ManagedObjectModelError) {
        for (name, objectClass) in classes.sorted(by: { $0.key < $1.key }) {
            try check(objectClass, entityName: name)
        }
    }

    private func mismatch(_ entity: String, _ property: String?, _ text: String) -> ManagedObjectModelError {
        ManagedObjectModelError(.classMismatch(text), entity: entity, property: property)
    }

    private func check(_ objectClass: ManagedObject.Type, entityName: String) throws(ManagedObjectModelError) {
        guard let entity = graph.entity(named: entityName) else { throw ManagedObjectModelError(.unknownEntity(entityName)) }
        if let parent = entity.parentName {
            let inherited = effectiveClass(of: parent)
            guard isClass(objectClass, kindOf: inherited) else {
                throw mismatch(entityName, nil, "class \(objectClass) is not a subclass of \(inherited), the class of the parent entity '\(parent)'")
            }
        }
        let properties = Dictionary(entity.allProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for field in ManagedClassFields.fields(of: objectClass) {
            let shape = field.storage.shape
            guard let property = properties[field.key] else {
                throw mismatch(entityName, field.key, "class \(objectClass) has @Managed var \(field.key): \(shape), but the entity has no such property")
            }
            try check(shape, against: property, entityName: entityName, objectClass: objectClass)
        }
    }

    private func check(_ shape: ManagedPropertyShape, against property: PropertyDescription, entityName: String,
                       objectClass: ManagedObject.Type) throws(ManagedObjectModelError) {
        let name = property.name
        let declared = "@Managed var \(name): \(shape) in \(objectClass)"
        switch (shape.kind, property) {
        case let (.attribute(types, isOptional, isScalar), .attribute(attribute)):
            guard types.contains(attribute.attributeType) else {
                throw mismatch(entityName, name, "\(declared) cannot hold an attribute of type \(attribute.attributeType.rawValue)")
            }
            if !isOptional && !isScalar && attribute.isOptional {
                throw mismatch(entityName, name, "\(declared) is not optional, but the attribute is: use \(shape)?")
            }
        case let (.toOne(element), .relationship(relationship)):
            guard relationship.cardinality == .toOne else {
                throw mismatch(entityName, name, "\(declared) is to-one, but the relationship is \(Self.describe(relationship.cardinality))")
            }
            try checkDestination(of: relationship, element: element, declared: declared, entityName: entityName)
        case let (.toMany(element), .relationship(relationship)):
            guard relationship.cardinality == .toMany else {
                throw mismatch(entityName, name, "\(declared) is an unordered to-many (Set), but the relationship is \(Self.describe(relationship.cardinality))")
            }
            try checkDestination(of: relationship, element: element, declared: declared, entityName: entityName)
        case let (.orderedToMany(element), .relationship(relationship)):
            guard relationship.cardinality == .orderedToMany else {
                throw mismatch(entityName, name, "\(declared) is an ordered to-many (Array), but the relationship is \(Self.describe(relationship.cardinality))")
            }
            try checkDestination(of: relationship, element: element, declared: declared, entityName: entityName)
        case (.attribute, _):
            throw mismatch(entityName, name, "\(declared) is an attribute type, but the property is not an attribute")
        case (_, _):
            throw mismatch(entityName, name, "\(declared) is a relationship type, but the property is not a relationship")
        }
    }

    private static func describe(_ cardinality: RelationshipDescription.Cardinality) -> String {
        switch cardinality {
        case .toOne: return "to-one"
        case .toMany: return "an unordered to-many"
        case .orderedToMany: return "an ordered to-many"
        }
    }

    /// Every entity the relationship reaches must make its objects as `element`s.
    private func checkDestination(of relationship: RelationshipDescription, element: ManagedObject.Type,
                                  declared: String, entityName: String) throws(ManagedObjectModelError) {
        guard element != ManagedObject.self else { return }
        var pending = [relationship.destinationEntityName]
        while let name = pending.popLast() {
            let objectClass = effectiveClass(of: name)
            guard isClass(objectClass, kindOf: element) else {
                throw mismatch(entityName, relationship.name,
                               "\(declared) needs objects of class \(element), but entity '\(name)' makes objects of class \(objectClass) (bind it to \(element) or a subclass, together with this class)")
            }
            pending += graph.entity(named: name)?.subentityNames ?? []
        }
    }

    private func isClass(_ objectClass: AnyClass, kindOf ancestor: AnyClass) -> Bool {
        var current: AnyClass? = objectClass
        while let candidate = current {
            if candidate == ancestor { return true }
            current = class_getSuperclassPortable(candidate)
        }
        return false
    }
}

/// `class_getSuperclass` without the Objective-C runtime.
private func class_getSuperclassPortable(_ type: AnyClass) -> AnyClass? {
    _getSuperclass(type)
}
