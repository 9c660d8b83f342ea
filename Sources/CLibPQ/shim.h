// The system libpq, PostgreSQL's client library (libpq-dev on Linux; pkg-config `libpq`).
#include <libpq-fe.h>
