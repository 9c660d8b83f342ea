// Key-value observing: observer registry, automatic notifications, key-path chains and
// dependent keys, on top of key-value coding. See Docs/KeyValueObserving.md.
import KeyValueCoding
