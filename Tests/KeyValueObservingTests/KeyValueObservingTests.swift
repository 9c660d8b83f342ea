import Testing
@testable import KeyValueObserving
