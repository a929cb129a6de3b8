/*
 * On one process nothing else can send or receive: a blocking call that can never complete
 * fails at once with MPI_ERR_OTHER and a message saying so, instead of hanging (MPICH and
 * Open MPI wait forever here; docs/semantics.md "Point-to-point"):
 * - MPI_Recv with no matching message; MPI_Ssend with no posted receive;
 * - MPI_Wait on a receive nothing will match (the request stays, and can be cancelled);
 * - MPI_Probe with no message.
 * Each failure changes nothing: a later matching send and receive still pair up.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Request request;
    MPI_Status status;
    int a = 5, got = 0, flag;

    CHECK_RC(MPI_Recv(&got, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    CHECK_RC(MPI_Ssend(&a, 1, MPI_INT, 0, 98, MPI_COMM_WORLD), MPI_ERR_OTHER);
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 0, 97, MPI_COMM_WORLD, &request));
    CHECK_RC(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    CHECK_NE_HANDLE(request, MPI_REQUEST_NULL);
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_HANDLE(request, MPI_REQUEST_NULL);

    CHECK_RC(MPI_Probe(0, 96, MPI_COMM_WORLD, &status), MPI_ERR_OTHER);

    /* Nothing was left behind: the next pair matches. */
    CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    CHECK_OK(MPI_Send(&a, 1, MPI_INT, 0, 99, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, 5);

    /* No MPI_Error_class after MPI_Finalize (CHECK_OK would call it). */
    int finalized = MPI_Finalize();
    CHECK_EQ_INT(finalized, MPI_SUCCESS);
    return test_finish("p2p_never_completes");
}
