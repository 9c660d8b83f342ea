// The undo manager, and undo recording of observed changes. See Docs/Undo.md.
import KeyValueObserving
