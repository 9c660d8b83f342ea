// The system SQLite (libsqlite3-dev on Linux, the SDK's on Apple platforms), plus the one
// constant Swift cannot import: SQLITE_TRANSIENT is a cast of -1 to a function pointer.
#include <sqlite3.h>

static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
