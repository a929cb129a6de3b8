// expect-exit: 36
// expect-stderr: mpiattr: MPI_Comm_get_attr(
// expect-stderr: comm=MPI_COMM_WORLD
// expect-stderr: comm_keyval=77
// expect-stderr: MPI_ERR_KEYVAL
/*
 * The default error handler, MPI_ERRORS_ARE_FATAL (attributes.md §5, semantics.md "Errors"): an
 * invalid keyval in MPI_Comm_get_attr on MPI_COMM_WORLD prints exactly one line naming the
 * function, its arguments and the reason, and exits with the error class (36) as status.
 */
#include "check.h"

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    void *val = NULL;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, 77, &val, &flag);
    printf("FAILED fatal_keyval: MPI_Comm_get_attr returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
