import Testing
@testable import UndoManagement
