/*
 * Buffered mode, generalized requests and partitioned communication (src/capi/p2p_modes.rs):
 * - MPI_Buffer_attach / MPI_Buffer_detach give back the same address and size; MPI_Bsend
 *   holds its length plus MPI_BSEND_OVERHEAD until received: a second send that does not fit
 *   fails with MPI_ERR_BUFFER and leaves nothing queued, and fits once the first is received;
 *   no buffer attached, a second attach, NULL with a size: MPI_ERR_BUFFER; a negative size:
 *   MPI_ERR_ARG; detach with none attached gives NULL and 0; MPI_BUFFER_AUTOMATIC has no
 *   limit and comes back from detach; MPI_Ibsend, MPI_Bsend_init (started twice, refused
 *   without room and still startable after), the _c forms;
 * - a communicator's buffer is used before the process's, flushing frees its space, iflush
 *   gives a complete request; a session's buffer attaches, flushes and detaches;
 * - MPI_Grequest_start / MPI_Grequest_complete: no callback before completion, MPI_Wait
 *   calls query then free and reports query's status; MPI_Cancel calls cancel with
 *   `complete`; an error code from query or free is what MPI_Wait returns; MPI_Request_free
 *   before completion: free runs at MPI_Grequest_complete; completing twice, a null or a
 *   non-generalized request: MPI_ERR_REQUEST;
 * - MPI_Psend_init / MPI_Precv_init: each partition arrives as it is made ready
 *   (MPI_Parrived, the data in the receive buffer at once), MPI_Pready_range and
 *   MPI_Pready_list, completion and a second round; bad partitions (negative, out of range,
 *   ready already, one bad entry of a list) leave every partition as it was; the wrong kind
 *   of request, an inactive one, a freed one: MPI_ERR_REQUEST; bad init arguments.
 */
#include "check.h"

static char callback_log[256];

static void log_call(const char *what)
{
    size_t used = strlen(callback_log);
    snprintf(callback_log + used, sizeof callback_log - used, "%s%s", used ? "," : "", what);
}

struct gstate {
    int query_rc, free_rc;
    int seen_complete;
};

static int query_fn(void *extra_state, MPI_Status *status)
{
    struct gstate *g = extra_state;
    log_call("query");
    status->MPI_SOURCE = 7;
    status->MPI_TAG = 8;
    return g->query_rc;
}

static int free_fn(void *extra_state)
{
    struct gstate *g = extra_state;
    log_call("free");
    return g->free_rc;
}

static int cancel_fn(void *extra_state, int complete)
{
    struct gstate *g = extra_state;
    log_call("cancel");
    g->seen_complete = complete;
    return MPI_SUCCESS;
}

/* No message is waiting on `comm`. */
static int nothing_pending(MPI_Comm comm)
{
    int flag = -1;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return 0;
    return flag == 0;
}

static void buffered(void)
{
    enum { N = 25 }; /* 100 bytes */
    int data[N], got[N];
    for (int i = 0; i < N; i++)
        data[i] = 100 + i;
    int message = (int)sizeof data + MPI_BSEND_OVERHEAD;
    int size = 2 * message - 1; /* room for one message, not two */
    char *mem = malloc((size_t)size);
    void *back = NULL;
    int back_size = -1;

    /* No buffer attached: MPI_ERR_BUFFER, nothing queued. */
    CHECK_RC(MPI_Bsend(data, N, MPI_INT, 0, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK(nothing_pending(MPI_COMM_WORLD));
    back = mem;
    CHECK_OK(MPI_Buffer_detach(&back, &back_size));
    CHECK_EQ_PTR(back, NULL);
    CHECK_EQ_INT(back_size, 0);

    CHECK_RC(MPI_Buffer_attach(mem, -1), MPI_ERR_ARG);
    CHECK_RC(MPI_Buffer_attach(NULL, 16), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Buffer_attach(mem, size));
    CHECK_RC(MPI_Buffer_attach(mem, size), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Bsend(data, N, MPI_INT, 0, 1, MPI_COMM_WORLD));
    CHECK_RC(MPI_Bsend(data, N, MPI_INT, 0, 2, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    /* Only the first is queued. */
    MPI_Status status;
    int flag = 0;
    CHECK_OK(MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    memset(got, 0, sizeof got);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 1, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(got[0], 100);
    CHECK_EQ_INT(got[N - 1], 100 + N - 1);
    CHECK_EQ_INT(status.MPI_TAG, 1);
    /* Received: its space is free again. */
    CHECK_OK(MPI_Bsend(data, N, MPI_INT, 0, 2, MPI_COMM_WORLD));
    /* A message that could never fit. */
    CHECK_RC(MPI_Bsend(mem, size, MPI_BYTE, 0, 3, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    /* Nonblocking: complete at once, the space held until received. */
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Ibsend(data, N, MPI_INT, 0, 4, MPI_COMM_WORLD, &request), MPI_ERR_BUFFER);
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Ibsend(data, N, MPI_INT, 0, 4, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got[3], 103);
    /* Flush: a queued buffered message's space is free, the message still there. */
    CHECK_OK(MPI_Bsend(data, N, MPI_INT, 0, 5, MPI_COMM_WORLD));
    CHECK_OK(MPI_Buffer_flush());
    CHECK_OK(MPI_Bsend(data, N, MPI_INT, 0, 6, MPI_COMM_WORLD));
    CHECK_OK(MPI_Buffer_iflush(&request));
    CHECK_NE_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    /* Persistent buffered sends: each start reads the buffer then. */
    int value = 11, received = 0;
    MPI_Request persistent = SENTINEL_HANDLE(MPI_Request);
    CHECK_RC(MPI_Bsend_init(&value, -1, MPI_INT, 0, 7, MPI_COMM_WORLD, &persistent), MPI_ERR_COUNT);
    CHECK_RC(MPI_Bsend_init(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &persistent), MPI_ERR_RANK);
    CHECK_RC(MPI_Bsend_init(NULL, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &persistent), MPI_ERR_BUFFER);
    CHECK_EQ_HANDLE(persistent, SENTINEL_HANDLE(MPI_Request));
    CHECK_OK(MPI_Bsend_init(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &persistent));
    CHECK_OK(MPI_Start(&persistent));
    CHECK_OK(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    CHECK_NE_HANDLE(persistent, MPI_REQUEST_NULL);
    value = 12;
    /* The first message holds the space: the second start is refused, the request stays
     * inactive. */
    CHECK_OK(MPI_Bsend(data, N, MPI_INT, 0, 8, MPI_COMM_WORLD));
    CHECK_RC(MPI_Start(&persistent), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Recv(&received, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(received, 11);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Start(&persistent));
    CHECK_OK(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(&received, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(received, 12);
    CHECK_OK(MPI_Request_free(&persistent));
    CHECK_EQ_HANDLE(persistent, MPI_REQUEST_NULL);

    /* Detach gives back what was attached. */
    back = NULL;
    back_size = -1;
    CHECK_OK(MPI_Buffer_detach(&back, &back_size));
    CHECK_EQ_PTR(back, mem);
    CHECK_EQ_INT(back_size, size);
    CHECK_RC(MPI_Bsend(data, N, MPI_INT, 0, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK(nothing_pending(MPI_COMM_WORLD));

    /* The _c forms. */
    MPI_Count csize = -1;
    CHECK_RC(MPI_Buffer_attach_c(mem, (MPI_Count)-5), MPI_ERR_ARG);
    CHECK_OK(MPI_Buffer_attach_c(mem, (MPI_Count)size));
    CHECK_OK(MPI_Bsend_c(data, (MPI_Count)N, MPI_INT, 0, 9, MPI_COMM_WORLD));
    CHECK_RC(MPI_Ibsend_c(data, (MPI_Count)N, MPI_INT, 0, 9, MPI_COMM_WORLD, &request),
             MPI_ERR_BUFFER);
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Ibsend_c(data, (MPI_Count)N, MPI_INT, 0, 9, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(got, N, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Bsend_init_c(&value, (MPI_Count)1, MPI_INT, 0, 10, MPI_COMM_WORLD, &persistent));
    CHECK_OK(MPI_Start(&persistent));
    CHECK_OK(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(&received, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(received, 12);
    CHECK_OK(MPI_Request_free(&persistent));
    back = NULL;
    CHECK_OK(MPI_Buffer_detach_c(&back, &csize));
    CHECK_EQ_PTR(back, mem);
    CHECK(csize == (MPI_Count)size);

    /* MPI_BUFFER_AUTOMATIC: no limit, and detach gives it back. */
    CHECK_OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    CHECK_OK(MPI_Bsend(mem, size, MPI_BYTE, 0, 11, MPI_COMM_WORLD));
    CHECK_OK(MPI_Bsend(mem, size, MPI_BYTE, 0, 11, MPI_COMM_WORLD));
    back = NULL;
    back_size = -1;
    CHECK_OK(MPI_Buffer_detach(&back, &back_size));
    CHECK_EQ_PTR(back, MPI_BUFFER_AUTOMATIC);
    CHECK_EQ_INT(back_size, 0);
    CHECK_OK(MPI_Recv(mem, size, MPI_BYTE, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(mem, size, MPI_BYTE, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    /* A communicator's buffer comes before the process's. */
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    char small[MPI_BSEND_OVERHEAD + sizeof(int)];
    CHECK_RC(MPI_Comm_attach_buffer(MPI_COMM_NULL, small, (int)sizeof small), MPI_ERR_COMM);
    CHECK_OK(MPI_Comm_attach_buffer(dup, small, (int)sizeof small));
    CHECK_RC(MPI_Comm_attach_buffer(dup, small, (int)sizeof small), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Bsend(&value, 1, MPI_INT, 0, 1, dup));
    CHECK_RC(MPI_Bsend(&value, 1, MPI_INT, 0, 2, dup), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Bsend(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Comm_flush_buffer(dup));
    CHECK_OK(MPI_Bsend(&value, 1, MPI_INT, 0, 2, dup));
    CHECK_OK(MPI_Comm_iflush_buffer(dup, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(&received, 1, MPI_INT, 0, 1, dup, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(&received, 1, MPI_INT, 0, 2, dup, MPI_STATUS_IGNORE));
    CHECK(nothing_pending(dup));
    back = NULL;
    back_size = -1;
    CHECK_OK(MPI_Comm_detach_buffer(dup, &back, &back_size));
    CHECK_EQ_PTR(back, small);
    CHECK_EQ_INT(back_size, (int)sizeof small);
    CHECK_OK(MPI_Comm_attach_buffer_c(dup, small, (MPI_Count)sizeof small));
    csize = -1;
    back = NULL;
    CHECK_OK(MPI_Comm_detach_buffer_c(dup, &back, &csize));
    CHECK_EQ_PTR(back, small);
    CHECK(csize == (MPI_Count)sizeof small);
    CHECK_RC(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_OK(MPI_Comm_free(&dup));

    /* A session's buffer. */
    MPI_Session session;
    REQUIRE_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    CHECK_RC(MPI_Session_attach_buffer(MPI_SESSION_NULL, mem, size), MPI_ERR_SESSION);
    CHECK_OK(MPI_Session_attach_buffer(session, mem, size));
    CHECK_RC(MPI_Session_attach_buffer(session, mem, size), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Session_flush_buffer(session));
    CHECK_OK(MPI_Session_iflush_buffer(session, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    back = NULL;
    back_size = -1;
    CHECK_OK(MPI_Session_detach_buffer(session, &back, &back_size));
    CHECK_EQ_PTR(back, mem);
    CHECK_EQ_INT(back_size, size);
    CHECK_OK(MPI_Session_attach_buffer_c(session, mem, (MPI_Count)size));
    csize = -1;
    CHECK_OK(MPI_Session_detach_buffer_c(session, &back, &csize));
    CHECK(csize == (MPI_Count)size);
    CHECK_RC(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION);
    CHECK_OK(MPI_Session_finalize(&session));
    free(mem);
}

static void generalized(void)
{
    struct gstate g = {MPI_SUCCESS, MPI_SUCCESS, -1};
    MPI_Request request = SENTINEL_HANDLE(MPI_Request);
    MPI_Status status;
    int flag = -1;

    callback_log[0] = '\0';
    CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &request));
    CHECK_NE_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Test(&request, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    /* Nothing can complete it: MPI_Wait fails at once and changes nothing. */
    MPI_Request kept = request;
    CHECK_RC(MPI_Wait(&request, &status), MPI_ERR_OTHER);
    CHECK_EQ_HANDLE(request, kept);
    CHECK_EQ_STR(callback_log, "");
    CHECK_OK(MPI_Cancel(&request));
    CHECK_EQ_STR(callback_log, "cancel");
    CHECK_EQ_INT(g.seen_complete, 0);
    CHECK_OK(MPI_Grequest_complete(request));
    CHECK_RC(MPI_Grequest_complete(request), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Cancel(&request));
    CHECK_EQ_INT(g.seen_complete, 1);
    callback_log[0] = '\0';
    memset(&status, 0, sizeof status);
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_EQ_STR(callback_log, "query,free");
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_EQ_INT(status.MPI_SOURCE, 7);
    CHECK_EQ_INT(status.MPI_TAG, 8);

    /* An error code from query is what MPI_Wait returns; free still runs. */
    g.query_rc = MPI_ERR_NAME;
    callback_log[0] = '\0';
    CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &request));
    CHECK_OK(MPI_Grequest_complete(request));
    CHECK_RC(MPI_Wait(&request, &status), MPI_ERR_NAME);
    CHECK_EQ_STR(callback_log, "query,free");
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    /* And one from free. */
    g.query_rc = MPI_SUCCESS;
    g.free_rc = MPI_ERR_FILE;
    callback_log[0] = '\0';
    CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &request));
    CHECK_OK(MPI_Grequest_complete(request));
    CHECK_RC(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_ERR_FILE);
    CHECK_EQ_STR(callback_log, "query,free");
    g.free_rc = MPI_SUCCESS;

    /* Freed before completion: free runs at MPI_Grequest_complete, query never. */
    callback_log[0] = '\0';
    CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &request));
    kept = request;
    CHECK_OK(MPI_Request_free(&request));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_EQ_STR(callback_log, "");
    CHECK_OK(MPI_Grequest_complete(kept));
    CHECK_EQ_STR(callback_log, "free");

    /* Bad requests. */
    CHECK_RC(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    int slot = 0;
    CHECK_OK(MPI_Irecv(&slot, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &request));
    CHECK_RC(MPI_Grequest_complete(request), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Test(&request, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0); /* still a pending receive */
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
}

static void partitioned(void)
{
    enum { P = 4, C = 2 };
    int sbuf[P * C], rbuf[P * C];
    for (int i = 0; i < P * C; i++) {
        sbuf[i] = 10 + i;
        rbuf[i] = -1;
    }
    MPI_Request sreq = SENTINEL_HANDLE(MPI_Request), rreq = SENTINEL_HANDLE(MPI_Request);
    int flag = -1;

    /* Bad init arguments: nothing made. */
    CHECK_RC(MPI_Psend_init(sbuf, -1, C, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq),
             MPI_ERR_ARG);
    CHECK_RC(MPI_Psend_init(sbuf, P, -1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq),
             MPI_ERR_COUNT);
    CHECK_RC(MPI_Psend_init(sbuf, P, C, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq),
             MPI_ERR_RANK);
    CHECK_RC(MPI_Psend_init(NULL, P, C, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq),
             MPI_ERR_BUFFER);
    CHECK_RC(MPI_Precv_init(rbuf, P, C, MPI_INT, 0, -5, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq),
             MPI_ERR_TAG);
    CHECK_RC(MPI_Precv_init(rbuf, P, C, MPI_DATATYPE_NULL, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &rreq),
             MPI_ERR_TYPE);
    CHECK_EQ_HANDLE(sreq, SENTINEL_HANDLE(MPI_Request));
    CHECK_EQ_HANDLE(rreq, SENTINEL_HANDLE(MPI_Request));

    CHECK_OK(MPI_Psend_init(sbuf, P, C, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
    CHECK_OK(MPI_Precv_init(rbuf, P, C, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
    /* Inactive: no partition can be made ready. */
    CHECK_RC(MPI_Pready(0, sreq), MPI_ERR_REQUEST);

    MPI_Request both[2] = {sreq, rreq};
    CHECK_OK(MPI_Startall(2, both));
    CHECK_OK(MPI_Parrived(rreq, 1, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Pready(1, sreq));
    CHECK_OK(MPI_Parrived(rreq, 1, &flag));
    CHECK_EQ_INT(flag, 1);
    /* Partition 1 (items 2 and 3) is in the receive buffer; the others are not. */
    CHECK_EQ_INT(rbuf[2], 12);
    CHECK_EQ_INT(rbuf[3], 13);
    CHECK_EQ_INT(rbuf[0], -1);
    CHECK_EQ_INT(rbuf[7], -1);

    /* Bad partitions change nothing. */
    CHECK_RC(MPI_Pready(1, sreq), MPI_ERR_ARG);   /* ready already */
    CHECK_RC(MPI_Pready(-1, sreq), MPI_ERR_ARG);
    CHECK_RC(MPI_Pready(P, sreq), MPI_ERR_ARG);
    CHECK_RC(MPI_Pready_range(3, 2, sreq), MPI_ERR_ARG);
    CHECK_RC(MPI_Pready_range(2, P, sreq), MPI_ERR_ARG);
    int bad_list[2] = {0, 9};
    CHECK_RC(MPI_Pready_list(2, bad_list, sreq), MPI_ERR_ARG);
    int twice[2] = {0, 0};
    CHECK_RC(MPI_Pready_list(2, twice, sreq), MPI_ERR_ARG);
    CHECK_RC(MPI_Pready_list(-1, twice, sreq), MPI_ERR_ARG);
    CHECK_OK(MPI_Parrived(rreq, 0, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Parrived(rreq, 2, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_EQ_INT(rbuf[0], -1);
    flag = SENTINEL_INT;
    CHECK_RC(MPI_Parrived(rreq, P, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Parrived(rreq, -1, &flag), MPI_ERR_ARG);
    /* The wrong kind of request. */
    CHECK_RC(MPI_Pready(0, rreq), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Parrived(sreq, 0, &flag), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag), MPI_ERR_REQUEST);
    CHECK_EQ_INT(flag, SENTINEL_INT);
    MPI_Request other;
    int slot = 0;
    CHECK_OK(MPI_Irecv(&slot, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, &other));
    CHECK_RC(MPI_Pready(0, other), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Parrived(other, 0, &flag), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Cancel(&other));
    CHECK_OK(MPI_Wait(&other, MPI_STATUS_IGNORE));

    int list[2] = {2, 0};
    CHECK_OK(MPI_Pready_list(2, list, sreq));
    CHECK_OK(MPI_Parrived(rreq, 0, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(rbuf[0], 10);
    /* Partition 2 arrived, but MPI_Parrived has not said so yet: only then is it written. */
    CHECK_EQ_INT(rbuf[5], -1);
    CHECK_OK(MPI_Parrived(rreq, 2, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(rbuf[5], 15);
    CHECK_OK(MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Pready_range(3, 3, sreq));
    MPI_Status status;
    CHECK_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&rreq, &status));
    CHECK_NE_HANDLE(sreq, MPI_REQUEST_NULL);
    CHECK_NE_HANDLE(rreq, MPI_REQUEST_NULL);
    for (int i = 0; i < P * C; i++)
        CHECK_EQ_INT(rbuf[i], 10 + i);
    int count = -1;
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, P * C);
    CHECK_EQ_INT(status.MPI_TAG, 3);

    /* A second round. */
    for (int i = 0; i < P * C; i++) {
        sbuf[i] = 50 + i;
        rbuf[i] = -1;
    }
    both[0] = sreq;
    both[1] = rreq;
    CHECK_OK(MPI_Startall(2, both));
    CHECK_OK(MPI_Pready_range(0, P - 1, sreq));
    CHECK_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    for (int i = 0; i < P * C; i++)
        CHECK_EQ_INT(rbuf[i], 50 + i);

    /* Freed: the handle names nothing any more. */
    MPI_Request freed = sreq;
    CHECK_OK(MPI_Request_free(&sreq));
    CHECK_OK(MPI_Request_free(&rreq));
    CHECK_EQ_HANDLE(sreq, MPI_REQUEST_NULL);
    CHECK_RC(MPI_Pready(0, freed), MPI_ERR_REQUEST);
    CHECK(nothing_pending(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    buffered();
    generalized();
    partitioned();
    int finalized = MPI_Finalize();
    CHECK_EQ_INT(finalized, MPI_SUCCESS);
    return test_finish("p2p_modes");
}
