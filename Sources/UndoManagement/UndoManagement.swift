// The undo manager (`UndoHistory`, in UndoHistory*.swift and State/), and the undo recorder
// (`UndoRecorder`, in Recording/), which registers the inverses of changes it observes through
// key-value observing. See Docs/Undo.md.
import KeyValueObserving
