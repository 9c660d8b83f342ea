// The umbrella module: `import ObjectGraph` brings in every layer.
//
// Each layer is also a module of its own (`import KeyValueCoding`, ...), for code that wants
// only part of the stack. See Docs/Architecture.md for the layering.

@_exported import KeyValueCoding
@_exported import KeyValueObserving
@_exported import UndoManagement
@_exported import Predicates
@_exported import ManagedObjects
@_exported import SQLiteStore
@_exported import PostgreSQLStore
