// Compiles predicate trees into test closures.
import Foundation

enum PredicateCompiler {
    static func compile(_ predicate: KeyValuePredicate) throws -> TestClosure {
        switch predicate.kind {
        case .constant(let value):
            return { _, _ in value }
        case .comparison(let comparison):
            return try ComparisonCompiler.compile(comparison)
        case .and(let list):
            return try compound(list, all: true)
        case .or(let list):
            return try compound(list, all: false)
        case .not(let inner):
            let test = try compile(inner)
            return { object, scope in try !test(object, scope) }
        case .block(let block):
            return { object, scope in
                block.evaluate(with: object, bindings: scope.map { $0.values.mapValues { $0 ?? NSNull() } })
            }
        }
    }

    /// AND (`all`) or OR of `list`. One or two subpredicates (the common cases) become direct
    /// closures rather than an array of them: closures taken out of an array are called through
    /// reabstraction thunks.
    private static func compound(_ list: [KeyValuePredicate], all: Bool) throws -> TestClosure {
        switch list.count {
        case 0:
            return { _, _ in all }
        case 1:
            return try compile(list[0])
        case 2:
            let (a, b) = (try compile(list[0]), try compile(list[1]))
            if all { return { object, scope in try a(object, scope) && b(object, scope) } }
            return { object, scope in try a(object, scope) || b(object, scope) }
        default:
            let tests = try list.map(compile)
            if all {
                return { object, scope in
                    for test in tests where try !test(object, scope) { return false }
                    return true
                }
            }
            return { object, scope in
                for test in tests where try test(object, scope) { return true }
                return false
            }
        }
    }
}
