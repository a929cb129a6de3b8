// expect-exit: 5
/*
 * MPI_Abort(comm, code) exits with status code & 255 (semantics.md "Errors"): 261 gives 5.
 * Called on a duplicate communicator, with one line on stderr.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Abort(c, 261);
    printf("FAILED fatal_abort_mask: MPI_Abort returned\n");
    return 1;
}
