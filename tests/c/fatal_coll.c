// expect-exit: 13
// expect-stderr: mpiattr: MPI_Ialltoallw_c(
// expect-stderr: recvtypes=NULL, comm=MPI_COMM_WORLD
// expect-stderr: MPI_ERR_ARG
/*
 * A collective's error under the default MPI_ERRORS_ARE_FATAL on the communicator named:
 * MPI_Ialltoallw_c with a NULL recvtypes array prints one line naming the function and its
 * arguments (the MPI_Count and MPI_Aint arrays as addresses, NULL as NULL) and exits with
 * MPI_ERR_ARG (13); the send buffer's block was not moved and no request was made.
 */
#include "check.h"

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    int a[2] = {1, 2}, b[2] = {0, 0};
    MPI_Count counts[1] = {2};
    MPI_Aint displs[1] = {0};
    MPI_Datatype types[1] = {MPI_INT};
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ialltoallw_c(a, counts, displs, types, b, counts, displs, NULL, MPI_COMM_WORLD,
                     &request);
    printf("FAILED fatal_coll: MPI_Ialltoallw_c returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
