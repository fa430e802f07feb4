#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq, PostgreSQL's client library (the shared-warehouse backend, SPEC section 14), loaded
// with dlopen the first time a PostgreSQL warehouse is opened rather than linked: a process
// that never talks to PostgreSQL does not map libpq and the libraries it needs
// (docs/decisions.md#measured-reasons-behind-the-code).
#include <dlfcn.h>
#include <pthread.h>
#include <postgresql/libpq-fe.h>

/// The libpq functions the client calls.
typedef struct {
    PGconn *(*connectdb)(const char *conninfo);
    void (*finish)(PGconn *conn);
    void (*reset)(PGconn *conn);
    ConnStatusType (*status)(const PGconn *conn);
    char *(*errorMessage)(const PGconn *conn);
    PGresult *(*exec)(PGconn *conn, const char *query);
    PGresult *(*execParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                            const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                            int resultFormat);
    int (*sendQuery)(PGconn *conn, const char *query);
    PGresult *(*getResult)(PGconn *conn);
    int (*putCopyData)(PGconn *conn, const char *buffer, int nbytes);
    int (*putCopyEnd)(PGconn *conn, const char *errormsg);
    ExecStatusType (*resultStatus)(const PGresult *res);
    char *(*resultErrorMessage)(const PGresult *res);
    char *(*resultErrorField)(const PGresult *res, int fieldcode);
    void (*clear)(PGresult *res);
    int (*ntuples)(const PGresult *res);
    char *(*cmdTuples)(PGresult *res);
    char *(*getvalue)(const PGresult *res, int tup_num, int field_num);
    int (*getlength)(const PGresult *res, int tup_num, int field_num);
    int (*getisnull)(const PGresult *res, int tup_num, int field_num);
    PQnoticeReceiver (*setNoticeReceiver)(PGconn *conn, PQnoticeReceiver proc, void *arg);
} CLibPQ_API;

/// The loaded table and whether loading succeeded (function-local, so that the one copy lives
/// with the functions in the module that uses them).
typedef struct {
    CLibPQ_API api;
    int loaded;
    pthread_once_t once;
} CLibPQ_State;

static inline CLibPQ_State *CLibPQ_state(void) {
    static CLibPQ_State state = {.loaded = 0, .once = PTHREAD_ONCE_INIT};
    return &state;
}

static inline void CLibPQ_loadOnce(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define CLIBPQ_BIND(field, symbol) \
    if (!(*(void **)(&CLibPQ_state()->api.field) = dlsym(library, #symbol))) return;
    CLIBPQ_BIND(connectdb, PQconnectdb)
    CLIBPQ_BIND(finish, PQfinish)
    CLIBPQ_BIND(reset, PQreset)
    CLIBPQ_BIND(status, PQstatus)
    CLIBPQ_BIND(errorMessage, PQerrorMessage)
    CLIBPQ_BIND(exec, PQexec)
    CLIBPQ_BIND(execParams, PQexecParams)
    CLIBPQ_BIND(sendQuery, PQsendQuery)
    CLIBPQ_BIND(getResult, PQgetResult)
    CLIBPQ_BIND(putCopyData, PQputCopyData)
    CLIBPQ_BIND(putCopyEnd, PQputCopyEnd)
    CLIBPQ_BIND(resultStatus, PQresultStatus)
    CLIBPQ_BIND(resultErrorMessage, PQresultErrorMessage)
    CLIBPQ_BIND(resultErrorField, PQresultErrorField)
    CLIBPQ_BIND(clear, PQclear)
    CLIBPQ_BIND(ntuples, PQntuples)
    CLIBPQ_BIND(cmdTuples, PQcmdTuples)
    CLIBPQ_BIND(getvalue, PQgetvalue)
    CLIBPQ_BIND(getlength, PQgetlength)
    CLIBPQ_BIND(getisnull, PQgetisnull)
    CLIBPQ_BIND(setNoticeReceiver, PQsetNoticeReceiver)
#undef CLIBPQ_BIND
    CLibPQ_state()->loaded = 1;
}

/// libpq's functions, loaded on the first call; NULL when libpq.so.5 cannot be loaded.
static inline const CLibPQ_API *CLibPQ_load(void) {
    CLibPQ_State *state = CLibPQ_state();
    pthread_once(&state->once, CLibPQ_loadOnce);
    return state->loaded ? &state->api : NULL;
}

// The functions under their libpq names with a `CLibPQ_` prefix; callable once `CLibPQ_load`
// has returned the table.
static inline PGconn *CLibPQ_PQconnectdb(const char *conninfo) { return CLibPQ_state()->api.connectdb(conninfo); }
static inline void CLibPQ_PQfinish(PGconn *conn) { CLibPQ_state()->api.finish(conn); }
static inline void CLibPQ_PQreset(PGconn *conn) { CLibPQ_state()->api.reset(conn); }
static inline ConnStatusType CLibPQ_PQstatus(const PGconn *conn) { return CLibPQ_state()->api.status(conn); }
static inline char *CLibPQ_PQerrorMessage(const PGconn *conn) { return CLibPQ_state()->api.errorMessage(conn); }
static inline PGresult *CLibPQ_PQexec(PGconn *conn, const char *query) { return CLibPQ_state()->api.exec(conn, query); }
static inline PGresult *CLibPQ_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                                            const char *const *paramValues, const int *paramLengths,
                                            const int *paramFormats, int resultFormat) {
    return CLibPQ_state()->api.execParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}
static inline int CLibPQ_PQsendQuery(PGconn *conn, const char *query) { return CLibPQ_state()->api.sendQuery(conn, query); }
static inline PGresult *CLibPQ_PQgetResult(PGconn *conn) { return CLibPQ_state()->api.getResult(conn); }
static inline int CLibPQ_PQputCopyData(PGconn *conn, const char *buffer, int nbytes) { return CLibPQ_state()->api.putCopyData(conn, buffer, nbytes); }
static inline int CLibPQ_PQputCopyEnd(PGconn *conn, const char *errormsg) { return CLibPQ_state()->api.putCopyEnd(conn, errormsg); }
static inline ExecStatusType CLibPQ_PQresultStatus(const PGresult *res) { return CLibPQ_state()->api.resultStatus(res); }
static inline char *CLibPQ_PQresultErrorMessage(const PGresult *res) { return CLibPQ_state()->api.resultErrorMessage(res); }
static inline char *CLibPQ_PQresultErrorField(const PGresult *res, int fieldcode) { return CLibPQ_state()->api.resultErrorField(res, fieldcode); }
static inline void CLibPQ_PQclear(PGresult *res) { CLibPQ_state()->api.clear(res); }
static inline int CLibPQ_PQntuples(const PGresult *res) { return CLibPQ_state()->api.ntuples(res); }
static inline char *CLibPQ_PQcmdTuples(PGresult *res) { return CLibPQ_state()->api.cmdTuples(res); }
static inline char *CLibPQ_PQgetvalue(const PGresult *res, int tup_num, int field_num) { return CLibPQ_state()->api.getvalue(res, tup_num, field_num); }
static inline int CLibPQ_PQgetlength(const PGresult *res, int tup_num, int field_num) { return CLibPQ_state()->api.getlength(res, tup_num, field_num); }
static inline int CLibPQ_PQgetisnull(const PGresult *res, int tup_num, int field_num) { return CLibPQ_state()->api.getisnull(res, tup_num, field_num); }
static inline PQnoticeReceiver CLibPQ_PQsetNoticeReceiver(PGconn *conn, PQnoticeReceiver proc, void *arg) { return CLibPQ_state()->api.setNoticeReceiver(conn, proc, arg); }
#endif
