// The NSPredicate format language over key-value coding, and sort descriptors.
// See Docs/Predicates.md.
import KeyValueCoding
