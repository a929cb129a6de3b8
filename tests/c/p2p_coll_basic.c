/*
 * Point-to-point with oneself and collectives on one process, with predefined and contiguous
 * datatypes (issue 14, first shells):
 * - MPI_Send/MPI_Recv to self, non-overtaking order, MPI_ANY_SOURCE / MPI_ANY_TAG, tags
 *   selecting out of order, statuses (source, tag, MPI_Get_count, MPI_UNDEFINED for a
 *   partial element), MPI_STATUS_IGNORE;
 * - MPI_Irecv before the send, MPI_Isend then MPI_Recv, MPI_Wait/MPI_Test/MPI_Waitall,
 *   requests set to MPI_REQUEST_NULL; MPI_Issend completes once received; MPI_Rsend after
 *   MPI_Irecv; MPI_Sendrecv and MPI_Sendrecv_replace; MPI_Probe/MPI_Iprobe;
 * - MPI_PROC_NULL (source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0, buffer untouched);
 * - truncation: MPI_ERR_TRUNCATE, what fits delivered;
 * - cancel of an unreceived MPI_Isend, MPI_Test_cancelled (Open MPI 4.1 completes the send
 *   instead, which the standard also allows: one or the other, never both);
 * - MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce (and MPI_IN_PLACE), MPI_Gather,
 *   MPI_Scatter, MPI_Allgather, MPI_Alltoall, MPI_Scan, MPI_Exscan (receive buffer left as
 *   it was), MPI_Reduce_local with MPI_SUM/MPI_MAX/MPI_MINLOC; MPI_MINLOC on MPI_DOUBLE_INT;
 * - bad input: rank 1 (MPI_ERR_RANK), tag -2 (MPI_ERR_TAG), count -1 (MPI_ERR_COUNT),
 *   an uncommitted datatype (MPI_ERR_TYPE), root 1 (MPI_ERR_ROOT), MPI_BAND on doubles
 *   (MPI_ERR_OP), MPI_IN_PLACE as a receive buffer (MPI_ERR_BUFFER), MPI_COMM_NULL
 *   (MPI_ERR_COMM), NULL send buffer with data (MPI_ERR_BUFFER).
 */
#include "check.h"

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc 12 takes for an array too
 * small for MPI_Waitall's array parameter. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Status status;
    MPI_Request request, requests[3];
    int count, flag;

    /* Send/Recv to oneself, in order. */
    /* (A correct program does not count on a standard send to itself returning before the
     * receive is posted: the sends are nonblocking.) */
    int a = 1, b = 2, c = 3, got = 0;
    MPI_Request sends[3];
    CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &sends[0]));
    CHECK_OK(MPI_Isend(&b, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &sends[1]));
    CHECK_OK(MPI_Isend(&c, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &sends[2]));
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(got, 3);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(got, 1);
    CHECK_EQ_INT(status.MPI_SOURCE, 0);
    CHECK_EQ_INT(status.MPI_TAG, 5);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 1);
    CHECK_OK(MPI_Get_count(&status, MPI_SHORT, &count));
    CHECK_EQ_INT(count, (int)(sizeof(int) / sizeof(short)));
    CHECK_OK(MPI_Get_count(&status, MPI_DOUBLE, &count));
    CHECK_EQ_INT(count, MPI_UNDEFINED);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, 2);
    CHECK_OK(MPI_Waitall(3, sends, MPI_STATUSES_IGNORE));

    /* Irecv first, then a send; Isend then Recv. */
    double x[4] = {1.5, 2.5, 3.5, 4.5}, y[4] = {0};
    CHECK_OK(MPI_Irecv(y, 4, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Test(&request, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Send(x, 4, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD)); /* the receive is posted */
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);
    CHECK(y[0] == 1.5 && y[3] == 4.5);
    CHECK_OK(MPI_Get_count(&status, MPI_DOUBLE, &count));
    CHECK_EQ_INT(count, 4);
    CHECK_OK(MPI_Isend(x, 2, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Issend(&a, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &requests[1]));
    CHECK_OK(MPI_Test(&requests[1], &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0); /* synchronous: not received yet */
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &requests[2]));
    CHECK_OK(MPI_Recv(y, 4, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_DOUBLE, &count));
    CHECK_EQ_INT(count, 2);
    MPI_Status statuses[3];
    CHECK_OK(MPI_Waitall(3, requests, statuses));
    CHECK_EQ_HANDLE(requests[0], MPI_REQUEST_NULL);
    CHECK_EQ_HANDLE(requests[2], MPI_REQUEST_NULL);
    CHECK_EQ_INT(got, 1);
    CHECK_EQ_INT(statuses[2].MPI_TAG, 11);
    MPI_Request none = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Waitall(1, &none, MPI_STATUSES_IGNORE));
    CHECK_EQ_HANDLE(none, MPI_REQUEST_NULL);

    /* Ready send after the receive is posted; Sendrecv; Sendrecv_replace. */
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Rsend(&c, 1, MPI_INT, 0, 12, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, 3);
    int pair[2] = {7, 8}, into[2] = {0, 0};
    CHECK_OK(MPI_Sendrecv(pair, 2, MPI_INT, 0, 13, into, 2, MPI_INT, 0, 13, MPI_COMM_WORLD,
                          &status));
    CHECK(into[0] == 7 && into[1] == 8);
    CHECK_OK(MPI_Sendrecv_replace(pair, 2, MPI_INT, 0, 14, 0, 14, MPI_COMM_WORLD, &status));
    CHECK(pair[0] == 7 && pair[1] == 8);

    /* Probe and Iprobe. */
    CHECK_OK(MPI_Iprobe(0, 15, MPI_COMM_WORLD, &flag, &status));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Isend(pair, 2, MPI_INT, 0, 15, MPI_COMM_WORLD, &sends[0]));
    CHECK_OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(status.MPI_TAG, 15);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 2);
    CHECK_OK(MPI_Iprobe(0, 15, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 1);

    /* Truncation: what fits arrives. */
    into[0] = into[1] = 0;
    CHECK_RC(MPI_Recv(into, 1, MPI_INT, 0, 15, MPI_COMM_WORLD, &status), MPI_ERR_TRUNCATE);
    CHECK_EQ_INT(into[0], 7);
    CHECK_EQ_INT(into[1], 0);
    CHECK_OK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));

    /* MPI_PROC_NULL. */
    got = 42;
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &status));
    CHECK_EQ_INT(got, 42);
    CHECK_EQ_INT(status.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_INT(count, 0);
    CHECK_OK(MPI_Send(&got, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));

    /* Cancel an unreceived send: either the cancel succeeds and nothing arrives, or the send
     * completes and the message is there; never both (MPI-4.1 §3.8.4). mpiattr cancels. */
    CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 0, 16, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    int cancelled = -1;
    CHECK_OK(MPI_Test_cancelled(&status, &cancelled));
    CHECK_OK(MPI_Iprobe(0, 16, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_MSG(flag == !cancelled, "cancelled %d, yet a message is there: %d", cancelled, flag);
    if (!cancelled) {
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }

    /* A dup is its own context. */
    MPI_Comm dup;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Isend(&a, 1, MPI_INT, 0, 20, dup, &sends[0]));
    CHECK_OK(MPI_Iprobe(0, 20, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 20, dup, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Comm_free(&dup));

    /* Collectives. */
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_OK(MPI_Bcast(x, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    double sum[4] = {0};
    CHECK_OK(MPI_Allreduce(x, sum, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum[0] == 1.5 && sum[3] == 4.5);
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, sum, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    CHECK(sum[1] == 2.5);
    int r = 0;
    CHECK_OK(MPI_Reduce(&c, &r, 1, MPI_INT, MPI_PROD, 0, MPI_COMM_WORLD));
    CHECK_EQ_INT(r, 3);
    int gathered[2] = {0, 0};
    CHECK_OK(MPI_Gather(pair, 2, MPI_INT, gathered, 2, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(gathered[0] == 7 && gathered[1] == 8);
    int one = 0;
    CHECK_OK(MPI_Scatter(gathered, 1, MPI_INT, &one, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK_EQ_INT(one, 7);
    CHECK_OK(MPI_Allgather(&c, 1, MPI_INT, &one, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ_INT(one, 3);
    CHECK_OK(MPI_Alltoall(&b, 1, MPI_INT, &one, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ_INT(one, 2);
    CHECK_OK(MPI_Scan(&a, &one, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(one, 1);
    one = -5;
    CHECK_OK(MPI_Exscan(&a, &one, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(one, -5);
    /* The same signature through a contiguous type on one side. */
    MPI_Datatype two_ints;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &two_ints));
    CHECK_RC(MPI_Send(pair, 1, two_ints, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE); /* uncommitted */
    CHECK_OK(MPI_Type_commit(&two_ints));
    gathered[0] = gathered[1] = 0;
    CHECK_OK(MPI_Sendrecv(pair, 1, two_ints, 0, 21, gathered, 2, MPI_INT, 0, 21, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(gathered[0] == 7 && gathered[1] == 8);
    CHECK_OK(MPI_Type_free(&two_ints));

    /* Reduce_local applies the op. */
    double in[2] = {1.0, 5.0}, inout[2] = {2.0, 3.0};
    CHECK_OK(MPI_Reduce_local(in, inout, 2, MPI_DOUBLE, MPI_SUM));
    CHECK(inout[0] == 3.0 && inout[1] == 8.0);
    CHECK_OK(MPI_Reduce_local(in, inout, 2, MPI_DOUBLE, MPI_MAX));
    CHECK(inout[0] == 3.0 && inout[1] == 8.0);
    struct { double value; int index; } loc_in = {1.0, 4}, loc_inout = {1.0, 2};
    CHECK_OK(MPI_Reduce_local(&loc_in, &loc_inout, 1, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(loc_inout.value == 1.0 && loc_inout.index == 2);

    /* Bad input. */
    CHECK_RC(MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_RC(MPI_Send(&a, 1, MPI_INT, 0, -2, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_RC(MPI_Send(&a, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_RC(MPI_Send(NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Send(&a, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_RC(MPI_Recv(&a, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    CHECK_RC(MPI_Bcast(&a, 1, MPI_INT, 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_RC(MPI_Allreduce(x, sum, 4, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Allreduce(x, MPI_IN_PLACE, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
             MPI_ERR_BUFFER);
    CHECK_RC(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    /* Nothing was left behind by the failed calls. */
    CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);

    /* No MPI_Error_class after MPI_Finalize (CHECK_OK would call it). */
    int finalized = MPI_Finalize();
    CHECK_EQ_INT(finalized, MPI_SUCCESS);
    return test_finish("p2p_coll_basic");
}
