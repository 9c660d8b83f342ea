// Compiles predicate trees into test closures.

enum PredicateCompiler {
    static func compile(_ predicate: KeyValuePredicate) throws -> TestClosure {
        switch predicate.kind {
        case .constant(let value):
            return { _, _ in value }
        case .comparison(let comparison):
            return try ComparisonCompiler.compile(comparison)
        case .and(let list):
            let tests = try list.map(compile)
            switch tests.count {
            case 0: return { _, _ in true }
            case 1: return tests[0]
            case 2:
                let (a, b) = (tests[0], tests[1])
                return { object, scope in try a(object, scope) && b(object, scope) }
            default:
                return { object, scope in
                    for test in tests where try !test(object, scope) { return false }
                    return true
                }
            }
        case .or(let list):
            let tests = try list.map(compile)
            switch tests.count {
            case 0: return { _, _ in false }
            case 1: return tests[0]
            case 2:
                let (a, b) = (tests[0], tests[1])
                return { object, scope in try a(object, scope) || b(object, scope) }
            default:
                return { object, scope in
                    for test in tests where try test(object, scope) { return true }
                    return false
                }
            }
        case .not(let inner):
            let test = try compile(inner)
            return { object, scope in try !test(object, scope) }
        }
    }
}
