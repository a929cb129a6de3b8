/*
 * The request functions of MPI-4.1 chapter 3 beyond MPI_Wait/Test/Waitall
 * (src/capi/p2p_requests.rs), and the large-count forms of the point-to-point calls:
 * - persistent sends and receives (MPI_Send_init, Ssend_init, Rsend_init, Recv_init and
 *   their _c forms) started by MPI_Start and MPI_Startall: each start sends what the buffer
 *   holds then, the request stays allocated (inactive) after its wait, MPI_Request_free
 *   frees it; starting an active request, MPI_REQUEST_NULL or a ready send with no receive
 *   posted fails and starts nothing (MPI_Startall starts none when one entry is bad);
 * - persistent collectives (MPI_Allreduce_init, MPI_Bcast_init, MPI_Gather_init) run by
 *   MPI_Start and MPI_Startall, again and again;
 * - MPI_Waitany, MPI_Testany, MPI_Testall, MPI_Waitsome, MPI_Testsome: indices, flags,
 *   outcounts, MPI_UNDEFINED when every request is null or inactive, handles set to
 *   MPI_REQUEST_NULL, persistent ones kept, MPI_STATUSES_IGNORE, MPI_ERR_IN_STATUS with
 *   each status's MPI_ERROR after a truncation; a wait that nothing can complete fails;
 * - MPI_Request_get_status and its _any/_all/_some forms: report without freeing, the
 *   data is in the buffer once reported;
 * - MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv (and _c): the matched message leaves
 *   the queue, the handle becomes MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC from MPI_PROC_NULL,
 *   MPI_Message_c2f/f2c; MPI_Request_c2f/f2c;
 * - the status accessors (MPI_Status_get/set_source/tag/error, MPI_Status_set_cancelled);
 * - bad input (negative counts, NULL arrays, freed, null and wrong-kind handles) fails with
 *   its class and leaves requests, messages and statuses as they were.
 */
#include "check.h"

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc 12 takes for an array too
 * small for the array parameters. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

static void persistent_p2p(void)
{
    int out = 0, in = -1;
    MPI_Request send, recv, reqs[2];
    MPI_Status status, statuses[2];

    CHECK_OK(MPI_Send_init(&out, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &send));
    CHECK_OK(MPI_Recv_init(&in, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &recv));
    CHECK(send != MPI_REQUEST_NULL && recv != MPI_REQUEST_NULL);
    /* Inactive: a wait returns at once with an empty status. */
    status.MPI_SOURCE = 77;
    CHECK_OK(MPI_Wait(&recv, &status));
    CHECK(recv != MPI_REQUEST_NULL);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);
    for (int round = 1; round <= 3; round++) {
        out = 100 * round; /* each start sends what the buffer holds then */
        in = -1;
        reqs[0] = recv;
        reqs[1] = send;
        if (round == 2) {
            CHECK_OK(MPI_Start(&reqs[0]));
            CHECK_OK(MPI_Start(&reqs[1]));
        } else {
            CHECK_OK(MPI_Startall(2, reqs));
        }
        /* Starting an active request again fails. */
        CHECK_RC(MPI_Start(&reqs[0]), MPI_ERR_REQUEST);
        CHECK_OK(MPI_Waitall(2, reqs, statuses));
        CHECK_EQ_INT(in, 100 * round);
        CHECK_EQ_INT(statuses[0].MPI_TAG, 4);
        CHECK_EQ_INT(statuses[0].MPI_SOURCE, 0);
        int count = -1;
        CHECK_OK(MPI_Get_count(&statuses[0], MPI_INT, &count));
        CHECK_EQ_INT(count, 1);
        CHECK(reqs[0] == recv && reqs[1] == send); /* persistent: kept */
    }

    /* Startall with one bad entry starts none of them. */
    reqs[0] = recv;
    reqs[1] = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Startall(2, reqs), MPI_ERR_REQUEST);
    CHECK(reqs[0] == recv && reqs[1] == MPI_REQUEST_NULL);
    out = 9;
    CHECK_OK(MPI_Start(&send));
    int flag = 0;
    CHECK_OK(MPI_Iprobe(0, 4, MPI_COMM_WORLD, &flag, &status));
    CHECK_EQ_INT(flag, 1); /* the receive was not started, so the message waits */
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Start(&recv));
    CHECK_OK(MPI_Wait(&recv, &status));
    CHECK_EQ_INT(in, 9);
    CHECK_RC(MPI_Startall(-1, reqs), MPI_ERR_COUNT);
    CHECK_RC(MPI_Startall(1, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Startall(0, NULL));
    MPI_Request none = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Start(&none), MPI_ERR_REQUEST);
    CHECK(none == MPI_REQUEST_NULL);
    MPI_Request wrong = (MPI_Request)(void *)MPI_COMM_WORLD;
    CHECK_RC(MPI_Start(&wrong), MPI_ERR_REQUEST);

    /* A nonpersistent request cannot be started. */
    MPI_Request plain;
    CHECK_OK(MPI_Isend(&out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &plain));
    MPI_Request kept = plain;
    CHECK_RC(MPI_Start(&plain), MPI_ERR_REQUEST);
    CHECK(plain == kept);
    /* MPI_Request_c2f/f2c: a live request crosses both ways; once completed, its integer
       names nothing. */
    MPI_Fint f_plain = MPI_Request_c2f(plain);
    CHECK(f_plain != MPI_Request_c2f(MPI_REQUEST_NULL));
    CHECK(MPI_Request_f2c(f_plain) == plain);
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&plain, MPI_STATUS_IGNORE));
    CHECK(MPI_Request_f2c(f_plain) == MPI_REQUEST_NULL);

    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&recv));
    CHECK(send == MPI_REQUEST_NULL && recv == MPI_REQUEST_NULL);
    /* The freed handle is refused. */
    CHECK_RC(MPI_Start(&kept), MPI_ERR_REQUEST);

    /* Synchronous and ready persistent sends, and the _c forms. */
    double d_out[3] = {1.5, 2.5, 3.5}, d_in[3] = {0, 0, 0};
    MPI_Request ss, rs, rr;
    CHECK_OK(MPI_Ssend_init(d_out, 3, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &ss));
    CHECK_OK(MPI_Rsend_init_c(d_out, (MPI_Count)3, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &rs));
    CHECK_OK(MPI_Recv_init_c(d_in, (MPI_Count)3, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                             MPI_COMM_WORLD, &rr));
    /* A ready send with no receive posted is refused and stays inactive. */
    CHECK_RC(MPI_Start(&rs), MPI_ERR_OTHER);
    CHECK_OK(MPI_Start(&rr));
    CHECK_OK(MPI_Start(&rs));
    CHECK_OK(MPI_Wait(&rs, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&rr, &status));
    CHECK_EQ_INT(status.MPI_TAG, 7);
    CHECK(d_in[2] == 3.5);
    d_in[2] = 0;
    CHECK_OK(MPI_Start(&rr));
    CHECK_OK(MPI_Start(&ss));
    CHECK_OK(MPI_Wait(&ss, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&rr, &status));
    CHECK_EQ_INT(status.MPI_TAG, 6);
    CHECK(d_in[2] == 3.5);
    CHECK_OK(MPI_Request_free(&ss));
    CHECK_OK(MPI_Request_free(&rs));
    CHECK_OK(MPI_Request_free(&rr));
    MPI_Request sc;
    CHECK_OK(MPI_Send_init_c(d_out, (MPI_Count)1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                             &sc));
    CHECK_OK(MPI_Start(&sc));
    CHECK_OK(MPI_Wait(&sc, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&sc));
    CHECK_OK(MPI_Ssend_init_c(d_out, (MPI_Count)1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                              &sc));
    CHECK_OK(MPI_Request_free(&sc));

    /* Bad arguments make no request. */
    MPI_Request made = SENTINEL_HANDLE(MPI_Request);
    CHECK_RC(MPI_Send_init(&out, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &made), MPI_ERR_COUNT);
    CHECK_RC(MPI_Send_init_c(&out, (MPI_Count)-1, MPI_INT, 0, 0, MPI_COMM_WORLD, &made),
             MPI_ERR_COUNT);
    CHECK_RC(MPI_Recv_init(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &made), MPI_ERR_RANK);
    CHECK_RC(MPI_Ssend_init(&out, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &made), MPI_ERR_TAG);
    CHECK_RC(MPI_Rsend_init(&out, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &made), MPI_ERR_COMM);
    CHECK_RC(MPI_Recv_init(&in, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &made),
             MPI_ERR_TYPE);
    CHECK_RC(MPI_Send_init(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK(made == SENTINEL_HANDLE(MPI_Request));
}

static void persistent_collectives(void)
{
    int value = 0, sum = -1, bval = 5, gathered = -1;
    MPI_Request ar, bc, ga, reqs[3];
    CHECK_OK(MPI_Allreduce_init(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &ar));
    CHECK_OK(MPI_Bcast_init(&bval, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bc));
    CHECK_OK(MPI_Gather_init(&value, 1, MPI_INT, &gathered, 1, MPI_INT, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &ga));
    for (int round = 1; round <= 2; round++) {
        value = 11 * round;
        sum = -1;
        CHECK_OK(MPI_Start(&ar));
        CHECK_OK(MPI_Wait(&ar, MPI_STATUS_IGNORE));
        CHECK_EQ_INT(sum, 11 * round);
        CHECK(ar != MPI_REQUEST_NULL);
    }
    value = 42;
    sum = gathered = -1;
    reqs[0] = ar;
    reqs[1] = bc;
    reqs[2] = ga;
    CHECK_OK(MPI_Startall(3, reqs));
    CHECK_RC(MPI_Start(&reqs[2]), MPI_ERR_REQUEST); /* active */
    int outcount = -1, indices[3] = {-1, -1, -1};
    MPI_Status st[3];
    CHECK_OK(MPI_Waitsome(3, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, 3);
    CHECK_EQ_INT(indices[0], 0);
    CHECK_EQ_INT(indices[2], 2);
    CHECK_EQ_INT(sum, 42);
    CHECK_EQ_INT(gathered, 42);
    CHECK_EQ_INT(bval, 5);
    CHECK(reqs[0] == ar && reqs[1] == bc && reqs[2] == ga);
    /* All inactive now: MPI_UNDEFINED. */
    CHECK_OK(MPI_Waitsome(3, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, MPI_UNDEFINED);
    CHECK_OK(MPI_Request_free(&ar));
    CHECK_OK(MPI_Request_free(&bc));
    CHECK_OK(MPI_Request_free(&ga));
}

static void multiple_completion(void)
{
    int a = 1, b = 2, got[3] = {0, 0, 0};
    MPI_Request reqs[4];
    MPI_Status status, st[4];
    int index = SENTINEL_INT, flag = SENTINEL_INT, outcount = SENTINEL_INT;
    int indices[4] = {-1, -1, -1, -1};

    /* Waitany: nulls are skipped, the complete one is reported and freed. */
    reqs[0] = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Irecv(&got[0], 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &reqs[1]));
    CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &reqs[2]));
    CHECK_OK(MPI_Waitany(3, reqs, &index, &status));
    CHECK_EQ_INT(index, 2);
    CHECK(reqs[2] == MPI_REQUEST_NULL);
    /* Testany: nothing complete: flag 0, index MPI_UNDEFINED, the requests unchanged. */
    MPI_Request pending = reqs[1];
    CHECK_OK(MPI_Testany(3, reqs, &index, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK(reqs[1] == pending);
    /* Testall: not all complete: flag 0, nothing changes. */
    CHECK_OK(MPI_Isend(&b, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &reqs[3]));
    /* reqs[1] completes (the send matched it); reqs[3] is complete too */
    for (int i = 0; i < 4; i++)
        st[i].MPI_ERROR = -7;
    CHECK_OK(MPI_Testall(4, reqs, &flag, st));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(got[0], 2);
    CHECK_EQ_INT(st[1].MPI_TAG, 10);
    /* MPI-4.1 §3.2.5: MPI_ERROR is set only when the call fails with MPI_ERR_IN_STATUS. */
    CHECK_EQ_INT(st[1].MPI_ERROR, -7);
    for (int i = 0; i < 4; i++)
        CHECK(reqs[i] == MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(&got[1], 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got[1], 1);

    /* Every request null: index MPI_UNDEFINED and an empty status. */
    status.MPI_TAG = 55;
    CHECK_OK(MPI_Waitany(4, reqs, &index, &status));
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_ANY_SOURCE);
    flag = 0;
    CHECK_OK(MPI_Testany(4, reqs, &index, &flag, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK_OK(MPI_Testsome(4, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, MPI_UNDEFINED);
    CHECK_OK(MPI_Waitany(0, NULL, &index, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK_OK(MPI_Testall(4, reqs, &flag, MPI_STATUSES_IGNORE));
    CHECK_EQ_INT(flag, 1);

    /* Testsome: none complete gives 0; then two of three. */
    CHECK_OK(MPI_Irecv(&got[0], 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &reqs[0]));
    CHECK_OK(MPI_Irecv(&got[1], 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &reqs[1]));
    CHECK_OK(MPI_Irecv(&got[2], 1, MPI_INT, 0, 22, MPI_COMM_WORLD, &reqs[2]));
    CHECK_OK(MPI_Testsome(3, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, 0);
    /* A wait that nothing can complete fails at once and changes nothing. */
    MPI_Request before[3] = {reqs[0], reqs[1], reqs[2]};
    CHECK_RC(MPI_Waitany(3, reqs, &index, &status), MPI_ERR_OTHER);
    CHECK_RC(MPI_Waitsome(3, reqs, &outcount, indices, st), MPI_ERR_OTHER);
    CHECK(reqs[0] == before[0] && reqs[1] == before[1] && reqs[2] == before[2]);
    int v22 = 22, v20[2] = {20, 21};
    CHECK_OK(MPI_Send(&v22, 1, MPI_INT, 0, 22, MPI_COMM_WORLD));
    /* two ints into a receive of one: truncated */
    CHECK_OK(MPI_Send(v20, 2, MPI_INT, 0, 20, MPI_COMM_WORLD));
    for (int i = 0; i < 4; i++)
        st[i].MPI_ERROR = -7;
    CHECK_RC(MPI_Testsome(3, reqs, &outcount, indices, st), MPI_ERR_IN_STATUS);
    CHECK_EQ_INT(outcount, 2);
    CHECK_EQ_INT(indices[0], 0);
    CHECK_EQ_INT(indices[1], 2);
    CHECK_EQ_INT(rc_class(st[0].MPI_ERROR), MPI_ERR_TRUNCATE);
    CHECK_EQ_INT(st[1].MPI_ERROR, MPI_SUCCESS);
    CHECK_EQ_INT(st[1].MPI_TAG, 22);
    CHECK_EQ_INT(got[0], 20);
    CHECK_EQ_INT(got[2], 22);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL);
    CHECK(reqs[1] == before[1]);
    int v21 = 21;
    CHECK_OK(MPI_Send(&v21, 1, MPI_INT, 0, 21, MPI_COMM_WORLD));
    CHECK_OK(MPI_Waitsome(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
    CHECK_EQ_INT(outcount, 1);
    CHECK_EQ_INT(indices[0], 1);
    CHECK_EQ_INT(got[1], 21);

    /* Bad input: negative counts, NULL arrays, freed handles; nothing changes. */
    index = flag = outcount = SENTINEL_INT;
    CHECK_RC(MPI_Waitany(-1, reqs, &index, &status), MPI_ERR_COUNT);
    CHECK_RC(MPI_Testany(1, NULL, &index, &flag, &status), MPI_ERR_ARG);
    CHECK_RC(MPI_Testall(-2, reqs, &flag, st), MPI_ERR_COUNT);
    CHECK_RC(MPI_Waitsome(1, reqs, &outcount, NULL, st), MPI_ERR_ARG);
    CHECK_RC(MPI_Testsome(1, reqs, NULL, indices, st), MPI_ERR_ARG);
    CHECK_RC(MPI_Waitany(1, reqs, NULL, &status), MPI_ERR_ARG);
    CHECK_EQ_INT(index, SENTINEL_INT);
    CHECK_EQ_INT(flag, SENTINEL_INT);
    CHECK_EQ_INT(outcount, SENTINEL_INT);
    MPI_Request freed;
    CHECK_OK(MPI_Isend(&a, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &freed));
    MPI_Request stale = freed;
    CHECK_OK(MPI_Wait(&freed, MPI_STATUS_IGNORE));
    MPI_Request mixed[2] = {MPI_REQUEST_NULL, stale};
    CHECK_RC(MPI_Waitany(2, mixed, &index, &status), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Testall(2, mixed, &flag, st), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Testsome(2, mixed, &outcount, indices, st), MPI_ERR_REQUEST);
    CHECK(mixed[1] == stale);
    CHECK_EQ_INT(index, SENTINEL_INT);
}

static void get_status(void)
{
    int got[2] = {0, 0}, one = 1, two = 2;
    MPI_Request reqs[3];
    MPI_Status status, st[3];
    int flag = SENTINEL_INT, index = SENTINEL_INT, outcount = SENTINEL_INT, indices[3];

    CHECK_OK(MPI_Irecv(&got[0], 1, MPI_INT, 0, 30, MPI_COMM_WORLD, &reqs[0]));
    CHECK_OK(MPI_Irecv(&got[1], 1, MPI_INT, 0, 31, MPI_COMM_WORLD, &reqs[1]));
    reqs[2] = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Request_get_status(reqs[0], &flag, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Request_get_status_any(3, reqs, &index, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK_OK(MPI_Request_get_status_all(3, reqs, &flag, st));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Request_get_status_some(3, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, 0);

    CHECK_OK(MPI_Send(&two, 1, MPI_INT, 0, 31, MPI_COMM_WORLD));
    CHECK_OK(MPI_Request_get_status(reqs[1], &flag, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(status.MPI_TAG, 31);
    CHECK_EQ_INT(got[1], 2); /* the data is there once reported */
    CHECK(reqs[1] != MPI_REQUEST_NULL);
    /* Reporting again, then the array forms: still not freed. */
    CHECK_OK(MPI_Request_get_status_any(3, reqs, &index, &flag, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(index, 1);
    CHECK_EQ_INT(status.MPI_TAG, 31);
    CHECK_OK(MPI_Request_get_status_some(3, reqs, &outcount, indices, st));
    CHECK_EQ_INT(outcount, 1);
    CHECK_EQ_INT(indices[0], 1);
    CHECK_EQ_INT(st[0].MPI_TAG, 31);
    CHECK_OK(MPI_Send(&one, 1, MPI_INT, 0, 30, MPI_COMM_WORLD));
    CHECK_OK(MPI_Request_get_status_all(3, reqs, &flag, st));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(st[0].MPI_TAG, 30);
    CHECK_EQ_INT(st[1].MPI_TAG, 31);
    CHECK_EQ_INT(st[2].MPI_TAG, MPI_ANY_TAG); /* the null request's empty status */
    CHECK_EQ_INT(got[0], 1);
    CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL);
    got[0] = got[1] = 0;
    CHECK_OK(MPI_Waitall(3, reqs, st));
    CHECK_EQ_INT(st[0].MPI_TAG, 30);
    CHECK_EQ_INT(got[0], 0); /* delivered once, at the report */
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);

    /* Null requests only. */
    CHECK_OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_OK(MPI_Request_get_status_any(3, reqs, &index, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(index, MPI_UNDEFINED);
    CHECK_OK(MPI_Request_get_status_some(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
    CHECK_EQ_INT(outcount, MPI_UNDEFINED);

    /* Bad input. */
    flag = index = outcount = SENTINEL_INT;
    CHECK_RC(MPI_Request_get_status((MPI_Request)(void *)MPI_COMM_WORLD, &flag, &status),
             MPI_ERR_REQUEST);
    CHECK_RC(MPI_Request_get_status(MPI_REQUEST_NULL, NULL, &status), MPI_ERR_ARG);
    CHECK_RC(MPI_Request_get_status_any(-1, reqs, &index, &flag, &status), MPI_ERR_COUNT);
    CHECK_RC(MPI_Request_get_status_all(2, NULL, &flag, st), MPI_ERR_ARG);
    CHECK_RC(MPI_Request_get_status_some(2, reqs, &outcount, NULL, st), MPI_ERR_ARG);
    CHECK_EQ_INT(flag, SENTINEL_INT);
    CHECK_EQ_INT(index, SENTINEL_INT);
    CHECK_EQ_INT(outcount, SENTINEL_INT);
}

static void matched_probes(void)
{
    int data[2] = {7, 8}, got[2] = {0, 0}, flag = SENTINEL_INT;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    MPI_Request req;

    /* Improbe with nothing there: flag 0, the handle untouched. */
    CHECK_OK(MPI_Improbe(0, 40, MPI_COMM_WORLD, &flag, &message, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK(message == MPI_MESSAGE_NULL);

    CHECK_OK(MPI_Send(data, 2, MPI_INT, 0, 40, MPI_COMM_WORLD));
    CHECK_OK(MPI_Mprobe(0, 40, MPI_COMM_WORLD, &message, &status));
    CHECK(message != MPI_MESSAGE_NULL && message != MPI_MESSAGE_NO_PROC);
    CHECK_EQ_INT(status.MPI_TAG, 40);
    int count = -1;
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 2);
    /* The matched message has left the queue. */
    CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    /* The Fortran integer names the same message. */
    MPI_Fint f = MPI_Message_c2f(message);
    CHECK(MPI_Message_f2c(f) == message);
    /* Bad receive arguments leave the message as it is. */
    MPI_Message kept = message;
    CHECK_RC(MPI_Mrecv(got, -1, MPI_INT, &message, &status), MPI_ERR_COUNT);
    CHECK_RC(MPI_Mrecv_c(got, (MPI_Count)2, MPI_DATATYPE_NULL, &message, &status), MPI_ERR_TYPE);
    CHECK(message == kept);
    CHECK_OK(MPI_Mrecv(got, 2, MPI_INT, &message, &status));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK_EQ_INT(got[0], 7);
    CHECK_EQ_INT(got[1], 8);
    CHECK_EQ_INT(status.MPI_TAG, 40);
    /* Used up: the old handle names nothing. */
    CHECK_RC(MPI_Mrecv(got, 2, MPI_INT, &kept, &status), MPI_ERR_REQUEST);
    CHECK(MPI_Message_c2f(kept) == MPI_Message_c2f(MPI_MESSAGE_NULL));
    CHECK(MPI_Message_f2c(f) == MPI_MESSAGE_NULL);
    CHECK_RC(MPI_Mrecv(got, 2, MPI_INT, &message, &status), MPI_ERR_REQUEST); /* MESSAGE_NULL */
    MPI_Message wrong = (MPI_Message)(void *)MPI_COMM_WORLD;
    CHECK_RC(MPI_Mrecv(got, 2, MPI_INT, &wrong, &status), MPI_ERR_REQUEST);

    /* Improbe and Imrecv, with the large-count form. */
    data[0] = 70;
    CHECK_OK(MPI_Send(data, 1, MPI_INT, 0, 41, MPI_COMM_WORLD));
    flag = 0;
    CHECK_OK(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &message, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(status.MPI_TAG, 41);
    CHECK_OK(MPI_Imrecv_c(got, (MPI_Count)2, MPI_INT, &message, &req));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK_OK(MPI_Wait(&req, &status));
    CHECK_EQ_INT(got[0], 70);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 1);
    data[0] = 71;
    CHECK_OK(MPI_Send(data, 1, MPI_INT, 0, 42, MPI_COMM_WORLD));
    CHECK_OK(MPI_Mprobe(0, 42, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Mrecv_c(got, (MPI_Count)1, MPI_INT, &message, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got[0], 71);
    data[0] = 72;
    CHECK_OK(MPI_Send(data, 1, MPI_INT, 0, 43, MPI_COMM_WORLD));
    CHECK_OK(MPI_Mprobe(0, 43, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Imrecv(got, 1, MPI_INT, &message, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got[0], 72);

    /* From MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, which receives nothing. */
    CHECK_OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status));
    CHECK(message == MPI_MESSAGE_NO_PROC);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_PROC_NULL);
    got[0] = 5;
    CHECK_OK(MPI_Mrecv(got, 1, MPI_INT, &message, &status));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);
    CHECK_EQ_INT(got[0], 5);
    flag = 0;
    CHECK_OK(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &message, &status));
    CHECK_EQ_INT(flag, 1);
    CHECK(message == MPI_MESSAGE_NO_PROC);
    CHECK(MPI_Message_f2c(MPI_Message_c2f(message)) == MPI_MESSAGE_NO_PROC);
    CHECK_OK(MPI_Imrecv(got, 1, MPI_INT, &message, &req));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK_OK(MPI_Wait(&req, &status));
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_PROC_NULL);

    /* Bad probes, and a probe nothing can satisfy. */
    message = SENTINEL_HANDLE(MPI_Message);
    CHECK_RC(MPI_Mprobe(1, 0, MPI_COMM_WORLD, &message, &status), MPI_ERR_RANK);
    CHECK_RC(MPI_Improbe(0, -3, MPI_COMM_WORLD, &flag, &message, &status), MPI_ERR_TAG);
    CHECK_RC(MPI_Mprobe(0, 0, MPI_COMM_NULL, &message, &status), MPI_ERR_COMM);
    CHECK_RC(MPI_Mprobe(0, 99, MPI_COMM_WORLD, &message, &status), MPI_ERR_OTHER);
    CHECK_RC(MPI_Mprobe(0, 99, MPI_COMM_WORLD, NULL, &status), MPI_ERR_ARG);
    CHECK(message == SENTINEL_HANDLE(MPI_Message));
}

static void statuses(void)
{
    MPI_Status status;
    int v = SENTINEL_INT, flag = SENTINEL_INT;
    memset(&status, 0, sizeof status);
    CHECK_OK(MPI_Status_set_source(&status, 3));
    CHECK_OK(MPI_Status_set_tag(&status, 17));
    CHECK_OK(MPI_Status_set_error(&status, MPI_ERR_TRUNCATE));
    CHECK_EQ_INT(status.MPI_SOURCE, 3);
    CHECK_EQ_INT(status.MPI_TAG, 17);
    CHECK_EQ_INT(status.MPI_ERROR, MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Status_get_source(&status, &v));
    CHECK_EQ_INT(v, 3);
    CHECK_OK(MPI_Status_get_tag(&status, &v));
    CHECK_EQ_INT(v, 17);
    CHECK_OK(MPI_Status_get_error(&status, &v));
    CHECK_EQ_INT(v, MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Status_set_cancelled(&status, 1));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_OK(MPI_Status_set_cancelled(&status, 0));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_INT(flag, 0);
    /* The setters keep the other fields (the element count among them). */
    CHECK_OK(MPI_Status_set_elements(&status, MPI_INT, 4));
    CHECK_OK(MPI_Status_set_tag(&status, 18));
    int count = -1;
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 4);
    CHECK_EQ_INT(status.MPI_SOURCE, 3);
    /* NULL statuses. */
    v = SENTINEL_INT;
    CHECK_RC(MPI_Status_get_source(NULL, &v), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_get_tag(&status, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_get_error(NULL, &v), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_set_source(NULL, 1), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_set_tag(NULL, 1), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_set_error(NULL, 1), MPI_ERR_ARG);
    CHECK_RC(MPI_Status_set_cancelled(NULL, 1), MPI_ERR_ARG);
    CHECK_EQ_INT(v, SENTINEL_INT);
}

static void large_counts(void)
{
    int out[3] = {1, 2, 3}, in[3] = {0, 0, 0};
    MPI_Request r[2];
    MPI_Status status;
    MPI_Count count = -1;

    CHECK_OK(MPI_Isend_c(out, (MPI_Count)3, MPI_INT, 0, 50, MPI_COMM_WORLD, &r[0]));
    CHECK_OK(MPI_Recv_c(in, (MPI_Count)3, MPI_INT, 0, 50, MPI_COMM_WORLD, &status));
    CHECK_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_EQ_INT(in[2], 3);
    CHECK_OK(MPI_Get_count_c(&status, MPI_INT, &count));
    CHECK(count == 3);
    CHECK_OK(MPI_Irecv_c(in, (MPI_Count)2, MPI_INT, 0, 51, MPI_COMM_WORLD, &r[0]));
    CHECK_OK(MPI_Rsend_c(out, (MPI_Count)2, MPI_INT, 0, 51, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Irecv_c(in, (MPI_Count)2, MPI_INT, 0, 52, MPI_COMM_WORLD, &r[0]));
    CHECK_OK(MPI_Ssend_c(out, (MPI_Count)2, MPI_INT, 0, 52, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Irecv_c(in, (MPI_Count)3, MPI_INT, 0, 53, MPI_COMM_WORLD, &r[0]));
    CHECK_OK(MPI_Irsend_c(out, (MPI_Count)3, MPI_INT, 0, 53, MPI_COMM_WORLD, &r[1]));
    CHECK_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK_OK(MPI_Issend_c(out, (MPI_Count)1, MPI_INT, 0, 54, MPI_COMM_WORLD, &r[1]));
    CHECK_OK(MPI_Send_c(out, (MPI_Count)1, MPI_INT, 0, 55, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(in, 1, MPI_INT, 0, 54, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Recv(in, 1, MPI_INT, 0, 55, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    in[0] = in[1] = 0;
    CHECK_OK(MPI_Sendrecv_c(out, (MPI_Count)2, MPI_INT, 0, 56, in, (MPI_Count)2, MPI_INT, 0, 56,
                            MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(in[1], 2);
    int rep[2] = {5, 6};
    CHECK_OK(MPI_Sendrecv_replace_c(rep, (MPI_Count)2, MPI_INT, 0, 57, 0, 57, MPI_COMM_WORLD,
                                    &status));
    CHECK_EQ_INT(rep[1], 6);
    CHECK_EQ_INT(status.MPI_TAG, 57);
    /* Negative counts. */
    MPI_Request made = SENTINEL_HANDLE(MPI_Request);
    CHECK_RC(MPI_Send_c(out, (MPI_Count)-1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_RC(MPI_Isend_c(out, (MPI_Count)-1, MPI_INT, 0, 0, MPI_COMM_WORLD, &made),
             MPI_ERR_COUNT);
    CHECK_RC(MPI_Irecv_c(in, (MPI_Count)-1, MPI_INT, 0, 0, MPI_COMM_WORLD, &made),
             MPI_ERR_COUNT);
    CHECK_RC(MPI_Recv_c(in, (MPI_Count)-5, MPI_INT, 0, 0, MPI_COMM_WORLD, &status),
             MPI_ERR_COUNT);
    CHECK(made == SENTINEL_HANDLE(MPI_Request));
    int flag = 1;
    CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0); /* nothing left over */
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    persistent_p2p();
    persistent_collectives();
    multiple_completion();
    get_status();
    matched_probes();
    statuses();
    large_counts();
    MPI_Finalize();
    return test_finish("p2p_requests");
}
