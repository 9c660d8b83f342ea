import Testing
@testable import Predicates
