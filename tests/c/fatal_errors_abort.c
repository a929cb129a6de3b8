// expect-exit: 13
// expect-stderr: mpiattr: MPI_Comm_rank(
// expect-stderr: MPI_ERR_ARG
/*
 * MPI_ERRORS_ABORT (semantics.md "Errors"): set on a duplicate of MPI_COMM_WORLD, an error on
 * that communicator (a NULL output pointer) prints one line and exits with the error class
 * (MPI_ERR_ARG, 13) as status. MPI_COMM_WORLD and MPI_COMM_SELF return errors, so only the
 * dup's own handler can end the program.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    REQUIRE_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_ABORT));
    /* errors elsewhere still return */
    CHECK_RC(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    if (atomic_load(&check_failures) != 0)
        return 1;
    MPI_Comm_rank(c, NULL);
    printf("FAILED fatal_errors_abort: MPI_Comm_rank returned under MPI_ERRORS_ABORT\n");
    return 1;
}
