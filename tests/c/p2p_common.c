/*
 * The everyday point-to-point calls with oneself, around the cases the library completes
 * without taking its lock (MPI_Send, MPI_Isend, MPI_Recv, MPI_Sendrecv, MPI_Wait on
 * contiguous data) and the neighbouring cases that take the full path, mixed in one queue:
 * - messages are received in the order sent (MPI_ANY_TAG, MPI_ANY_SOURCE), with their tags
 *   and counts in the status, whichever call sent them (MPI_Send, MPI_Isend, MPI_Bsend,
 *   a derived datatype) and whichever received them (MPI_Recv, MPI_Irecv, MPI_Mprobe);
 * - MPI_Sendrecv whose receive matches an older queued message takes that one, and its own
 *   message stays queued; with nothing queued it receives its own message;
 * - a receive too short for the oldest match: MPI_ERR_TRUNCATE, the message is consumed;
 *   a single receive leaves the status's MPI_ERROR as it was, failed or not;
 * - MPI_Isend then MPI_Cancel before any receive: cancelled, nothing left to receive;
 *   MPI_Wait sets the request to MPI_REQUEST_NULL; MPI_Test_cancelled false otherwise;
 * - bad arguments (tag, count, rank, datatype, NULL buffer, NULL request) fail with their
 *   class and queue nothing.
 */
#include "check.h"

/* MPI_Send to oneself with no receive posted: the standard lets a standard-mode send wait
   for its receive (MPICH's does); mpiattr's never waits, and its MPI_Send is what this
   program checks. Elsewhere the message goes by MPI_Isend and MPI_Request_free. */
static int send_ahead(const void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    if (strncmp(version, "mpiattr", 7) == 0)
        return MPI_Send(buf, count, type, 0, tag, comm);
    MPI_Request request;
    int rc = MPI_Isend(buf, count, type, 0, tag, comm, &request);
    if (rc == MPI_SUCCESS)
        rc = MPI_Request_free(&request);
    return rc;
}

static int pending(int tag)
{
    int flag = 0;
    MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    return flag;
}

static void order(void)
{
    double a = 1.5, b = 2.5;
    int ints[3] = {7, 8, 9};
    MPI_Request request;
    CHECK_OK(send_ahead(&a, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD));
    CHECK_OK(MPI_Isend(&b, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &request));
    CHECK_OK(send_ahead(ints, 3, MPI_INT, 1, MPI_COMM_WORLD));

    double got = 0;
    MPI_Status status;
    CHECK_OK(MPI_Recv(&got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
    CHECK(got == 1.5);
    CHECK_EQ_INT(status.MPI_SOURCE, 0);
    CHECK_EQ_INT(status.MPI_TAG, 1);
    int count = -1;
    CHECK_OK(MPI_Get_count(&status, MPI_DOUBLE, &count));
    CHECK_EQ_INT(count, 1);

    /* Tag 1 skips the tag-2 message. */
    int in[4] = {0, 0, 0, 0};
    CHECK_OK(MPI_Recv(in, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(in[0], 7);
    CHECK_EQ_INT(in[2], 9);
    CHECK_EQ_INT(in[3], 0);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 3);

    /* The Isend's message, by a nonblocking receive. */
    MPI_Request receive;
    CHECK_OK(MPI_Irecv(&got, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &receive));
    CHECK_OK(MPI_Wait(&receive, &status));
    CHECK(got == 2.5);
    CHECK_EQ_INT(status.MPI_TAG, 2);
    CHECK_EQ_HANDLE(receive, MPI_REQUEST_NULL);
    status.MPI_TAG = -7;
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    int cancelled = 1;
    CHECK_OK(MPI_Test_cancelled(&status, &cancelled));
    CHECK_EQ_INT(cancelled, 0);
    /* Waiting on the null request: an empty status. */
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);

    /* A derived datatype on the sending side, contiguous on the receiving one. */
    int strided[6] = {1, -1, 2, -1, 3, -1};
    MPI_Datatype every_other;
    REQUIRE_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &every_other));
    REQUIRE_OK(MPI_Type_commit(&every_other));
    CHECK_OK(send_ahead(strided, 1, every_other, 3, MPI_COMM_WORLD));
    int packed[3] = {0, 0, 0};
    CHECK_OK(MPI_Recv(packed, 3, MPI_INT, 0, 3, MPI_COMM_WORLD, &status));
    CHECK(packed[0] == 1 && packed[1] == 2 && packed[2] == 3);
    /* And the other way round. */
    int back[6] = {0, 0, 0, 0, 0, 0};
    CHECK_OK(send_ahead(packed, 3, MPI_INT, 4, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(back, 1, every_other, 0, 4, MPI_COMM_WORLD, &status));
    CHECK(back[0] == 1 && back[2] == 2 && back[4] == 3 && back[1] == 0 && back[5] == 0);
    CHECK_OK(MPI_Type_free(&every_other));

    /* A message on a duplicate is not received on the original. */
    MPI_Comm dup;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    a = 4.5;
    CHECK_OK(send_ahead(&a, 1, MPI_DOUBLE, 5, dup));
    CHECK(!pending(5));
    int flag = 0;
    CHECK_OK(MPI_Iprobe(0, 5, dup, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 1);
    CHECK_OK(MPI_Recv(&got, 1, MPI_DOUBLE, 0, 5, dup, MPI_STATUS_IGNORE));
    CHECK(got == 4.5);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK(!pending(MPI_ANY_TAG));
}

static void sendrecv(void)
{
    double old = 1.0, mine = 2.0, got = 0;
    MPI_Status status;
    /* Nothing queued: it receives its own message. */
    CHECK_OK(MPI_Sendrecv(&mine, 1, MPI_DOUBLE, 0, 9, &got, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD,
                          &status));
    CHECK(got == 2.0);
    CHECK_EQ_INT(status.MPI_TAG, 9);
    CHECK(!pending(MPI_ANY_TAG));

    /* An older message matches the receive: it gets that one, its own stays queued. */
    CHECK_OK(send_ahead(&old, 1, MPI_DOUBLE, 9, MPI_COMM_WORLD));
    got = 0;
    CHECK_OK(MPI_Sendrecv(&mine, 1, MPI_DOUBLE, 0, 9, &got, 1, MPI_DOUBLE, 0, MPI_ANY_TAG,
                          MPI_COMM_WORLD, &status));
    CHECK(got == 1.0);
    CHECK(pending(9));
    CHECK_OK(MPI_Recv(&got, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == 2.0);

    /* Different datatypes of one signature on the two sides. */
    int two[2] = {5, 6}, into[2] = {0, 0};
    MPI_Datatype pair;
    REQUIRE_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    REQUIRE_OK(MPI_Type_commit(&pair));
    CHECK_OK(MPI_Sendrecv(two, 1, pair, 0, 10, into, 2, MPI_INT, 0, 10, MPI_COMM_WORLD, &status));
    CHECK(into[0] == 5 && into[1] == 6);
    int count = -1;
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 2);
    CHECK_OK(MPI_Type_free(&pair));

    /* Too long for the receive: MPI_ERR_TRUNCATE, and nothing stays queued. */
    double three[3] = {1, 2, 3}, one = 0;
    CHECK_RC(MPI_Sendrecv(three, 3, MPI_DOUBLE, 0, 11, &one, 1, MPI_DOUBLE, 0, 11,
                          MPI_COMM_WORLD, &status),
             MPI_ERR_TRUNCATE);
    CHECK(one == 1.0);
    CHECK(!pending(MPI_ANY_TAG));
}

static void truncation_and_cancel(void)
{
    double three[3] = {1, 2, 3}, one = 0;
    MPI_Status status;
    CHECK_OK(send_ahead(three, 3, MPI_DOUBLE, 12, MPI_COMM_WORLD));
    status.MPI_ERROR = -7;
    CHECK_RC(MPI_Recv(&one, 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD, &status), MPI_ERR_TRUNCATE);
    CHECK(one == 1.0);
    CHECK(!pending(12));
    /* A call that completes one operation leaves MPI_ERROR alone (MPI-4.1 §3.2.5), failed
     * or not: the error is the call's. */
    CHECK_EQ_INT(status.MPI_ERROR, -7);
    CHECK_EQ_INT(status.MPI_TAG, 12);
    CHECK_OK(send_ahead(three, 1, MPI_DOUBLE, 14, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(&one, 1, MPI_DOUBLE, 0, 14, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(status.MPI_ERROR, -7);

    MPI_Request request;
    CHECK_OK(MPI_Isend(three, 3, MPI_DOUBLE, 0, 13, MPI_COMM_WORLD, &request));
    CHECK(pending(13));
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    int cancelled = 0;
    CHECK_OK(MPI_Test_cancelled(&status, &cancelled));
    CHECK_EQ_INT(cancelled, 1);
    CHECK(!pending(13));
}

static void bad_arguments(void)
{
    double x = 1;
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Send(&x, 1, MPI_DOUBLE, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_RC(MPI_Send(&x, -1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_RC(MPI_Send(&x, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_RC(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 1, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_RC(MPI_Send(NULL, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Isend(&x, 1, MPI_DOUBLE, 0, -5, MPI_COMM_WORLD, &request), MPI_ERR_TAG);
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_RC(MPI_Isend(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_NULL, &request), MPI_ERR_COMM);
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK(!pending(MPI_ANY_TAG));
    CHECK_RC(MPI_Sendrecv(&x, 1, MPI_DOUBLE, 0, 1, NULL, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE),
             MPI_ERR_BUFFER);
    CHECK(!pending(MPI_ANY_TAG));
    CHECK_RC(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    order();
    sendrecv();
    truncation_and_cancel();
    bad_arguments();
    int finalized = MPI_Finalize();
    CHECK_EQ_INT(finalized, MPI_SUCCESS);
    return test_finish("p2p_common");
}
