// expect-exit: 36
// expect-stderr: mpiattr: MPI_Comm_free_keyval(
// expect-stderr: comm_keyval=77)
// expect-stderr: MPI_ERR_KEYVAL
/*
 * A fatal error's message names an in-out keyval by its number, as the Fortran routines'
 * messages do (docs/errors.md, "Where an error goes"): MPI_Comm_free_keyval(&k) with k = 77,
 * no such keyval, prints `comm_keyval=77`, not the address of k.
 */
#include "check.h"

int main(int argc, char **argv)
{
    REQUIRE_OK(MPI_Init(&argc, &argv));
    int keyval = 77;
    MPI_Comm_free_keyval(&keyval);
    printf("FAILED fatal_free_keyval: MPI_Comm_free_keyval returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
}
