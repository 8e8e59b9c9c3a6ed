/*
 * pq_load.h - libpq, loaded when the first PostgreSQL connection opens.
 *
 * A store on a file never needs libpq, and the buffertime tool starts
 * afresh for every reply an MTA hands it: linking libpq (and with it
 * OpenSSL, Kerberos and LDAP) would cost every start the loading of
 * libraries it does not use.  driver_pg*.c call libpq through this table
 * under libpq's own names.
 */
#ifndef BT_PQ_LOAD_H
#define BT_PQ_LOAD_H

#include <stddef.h>

#include <libpq-fe.h>

/* Every libpq function driver_pg*.c call. */
#define PQ_FUNCTIONS(X) \
	X(PQclear) X(PQcmdStatus) X(PQcmdTuples) X(PQconnectdb) \
	X(PQconsumeInput) X(PQnotifies) X(PQsocket) \
	X(PQdescribePrepared) X(PQerrorMessage) X(PQexec) \
	X(PQexecPrepared) X(PQfinish) X(PQfname) X(PQfreemem) X(PQftype) \
	X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQhost) \
	X(PQnfields) X(PQntuples) X(PQport) X(PQprepare) X(PQresStatus) \
	X(PQreset) X(PQresultErrorField) X(PQresultStatus) X(PQstatus) \
	X(PQtransactionStatus) X(PQunescapeBytea) \
	X(PQenterPipelineMode) X(PQexitPipelineMode) X(PQpipelineSync) \
	X(PQsendQueryParams) X(PQsendQueryPrepared) X(PQgetResult) \
	X(PQpipelineStatus) X(PQresultMemorySize)

#define PQ_MEMBER(name) __typeof__(name) *name;
struct pq_api {
	PQ_FUNCTIONS(PQ_MEMBER)
};
#undef PQ_MEMBER

extern struct pq_api pq_api;

/* Loads libpq once; 0, or -1 with why (cap bytes) in words for people. */
int pq_load(char *why, size_t cap);

/* For driver_pg*.c: libpq's names call through the table. */
#ifdef PQ_LOAD_CALLS
#define PQclear (pq_api.PQclear)
#define PQcmdStatus (pq_api.PQcmdStatus)
#define PQcmdTuples (pq_api.PQcmdTuples)
#define PQconnectdb (pq_api.PQconnectdb)
#define PQconsumeInput (pq_api.PQconsumeInput)
#define PQnotifies (pq_api.PQnotifies)
#define PQsocket (pq_api.PQsocket)
#define PQdescribePrepared (pq_api.PQdescribePrepared)
#define PQerrorMessage (pq_api.PQerrorMessage)
#define PQexec (pq_api.PQexec)
#define PQexecPrepared (pq_api.PQexecPrepared)
#define PQfinish (pq_api.PQfinish)
#define PQfname (pq_api.PQfname)
#define PQfreemem (pq_api.PQfreemem)
#define PQftype (pq_api.PQftype)
#define PQgetisnull (pq_api.PQgetisnull)
#define PQgetlength (pq_api.PQgetlength)
#define PQgetvalue (pq_api.PQgetvalue)
#define PQhost (pq_api.PQhost)
#define PQnfields (pq_api.PQnfields)
#define PQntuples (pq_api.PQntuples)
#define PQport (pq_api.PQport)
#define PQprepare (pq_api.PQprepare)
#define PQresStatus (pq_api.PQresStatus)
#define PQreset (pq_api.PQreset)
#define PQresultErrorField (pq_api.PQresultErrorField)
#define PQresultStatus (pq_api.PQresultStatus)
#define PQstatus (pq_api.PQstatus)
#define PQtransactionStatus (pq_api.PQtransactionStatus)
#define PQunescapeBytea (pq_api.PQunescapeBytea)
#define PQenterPipelineMode (pq_api.PQenterPipelineMode)
#define PQexitPipelineMode (pq_api.PQexitPipelineMode)
#define PQpipelineSync (pq_api.PQpipelineSync)
#define PQsendQueryParams (pq_api.PQsendQueryParams)
#define PQsendQueryPrepared (pq_api.PQsendQueryPrepared)
#define PQgetResult (pq_api.PQgetResult)
#define PQpipelineStatus (pq_api.PQpipelineStatus)
#define PQresultMemorySize (pq_api.PQresultMemorySize)
#endif

#endif
