#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq, PostgreSQL's client library (the shared-warehouse backend, SPEC section 14).
#include <libpq-fe.h>
#endif
