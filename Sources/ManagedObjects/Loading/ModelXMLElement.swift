// The elements of Xcode's model XML, where each may appear, and the XML attributes each has.

/// One kind of element of a data model `contents` file, as the reader tracks it on its stack.
enum ModelXMLElement {
    case model
    case entity
    case attribute
    case relationship
    case fetchedProperty
    case fetchRequest
    case userInfo
    case entry
    case uniquenessConstraints
    case uniquenessConstraint
    case constraint
    case fetchIndex
    case fetchIndexElement
    case configuration
    case memberEntity
    /// Xcode 15's composite attribute declarations (`<composite name="…">` holding attributes).
    case composite
    /// The diagram layout (`<elements>`, `<element>`): known, skipped silently with its children.
    case layout
    /// Inside an unknown element: skipped (the unknown element itself was reported once).
    case skipped

    /// The kind of a child element named `name` inside `self`, or `nil` when the element is
    /// unknown there.
    func child(named name: String) -> ModelXMLElement? {
        switch self {
        case .model:
            switch name {
            case "entity": return .entity
            case "fetchRequest": return .fetchRequest
            case "configuration": return .configuration
            case "elements": return .layout
            case "composite": return .composite
            default: return nil
            }
        case .entity:
            switch name {
            case "attribute": return .attribute
            case "relationship": return .relationship
            case "fetchedProperty": return .fetchedProperty
            case "userInfo": return .userInfo
            case "uniquenessConstraints": return .uniquenessConstraints
            case "fetchIndex": return .fetchIndex
            default: return nil
            }
        case .attribute, .relationship:
            return name == "userInfo" ? .userInfo : nil
        case .fetchedProperty:
            switch name {
            case "fetchRequest": return .fetchRequest
            case "userInfo": return .userInfo
            default: return nil
            }
        case .userInfo: return name == "entry" ? .entry : nil
        case .uniquenessConstraints: return name == "uniquenessConstraint" ? .uniquenessConstraint : nil
        case .uniquenessConstraint: return name == "constraint" ? .constraint : nil
        case .fetchIndex: return name == "fetchIndexElement" ? .fetchIndexElement : nil
        case .configuration: return name == "memberEntity" ? .memberEntity : nil
        case .composite: return name == "attribute" ? .attribute : nil
        case .layout: return .layout
        case .skipped: return .skipped
        case .fetchRequest, .entry, .constraint, .fetchIndexElement, .memberEntity: return nil
        }
    }

    /// Whether `key` is an XML attribute this element has in files Xcode writes: read, or
    /// known and deliberately ignored (tool versions, code generation, sync and layout
    /// flags). Others are reported as warnings.
    func knows(_ key: String) -> Bool {
        switch self {
        case .model:
            switch key {
            case "userDefinedModelVersionIdentifier", "name", "type", "documentVersion", "lastSavedToolsVersion",
                 "systemVersion", "minimumToolsVersion", "sourceLanguage", "macOSVersion", "iOSVersion",
                 "tvOSVersion", "watchOSVersion", "visionOSVersion": return true
            default: return false
            }
        case .entity, .attribute, .relationship:
            // Read in one pass by makeEntity, makeAttribute and makeRelationship, which
            // report the names they do not know.
            return true
        case .fetchedProperty:
            switch key {
            case "name", "optional", "versionHashModifier", "renamingIdentifier", "elementID", "syncable",
                 "transient": return true
            default: return false
            }
        case .fetchRequest:
            switch key {
            case "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "fetchOffset",
                 "includeSubentities", "includesSubentities", "includePendingChanges", "includesPendingChanges",
                 "includePropertyValues", "returnObjectsAsFaults", "returnDistinctResults", "resultType": return true
            default: return false
            }
        case .entry: return key == "key" || key == "value"
        case .constraint: return key == "value"
        case .fetchIndex: return key == "name"
        case .fetchIndexElement:
            return key == "property" || key == "type" || key == "order" || key == "expression" || key == "expressionType"
        case .configuration: return key == "name" || key == "usedWithCloudKit"
        case .memberEntity, .composite: return key == "name"
        case .userInfo, .uniquenessConstraints, .uniquenessConstraint: return false
        case .layout, .skipped: return true
        }
    }
}
