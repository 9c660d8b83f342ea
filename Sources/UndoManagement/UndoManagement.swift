// The undo manager (`UndoHistory`, in UndoHistory*.swift and State/), and later the undo
// recording of observed changes, which builds on key-value observing. See Docs/Undo.md.
import KeyValueObserving
