// expect-exit: 44
// expect-stderr: mpiattr: MPI_Abort(
// expect-stderr: errorcode=300
/*
 * MPI_Abort with a bad communicator (docs/errors.md): MPI_Abort cannot fail, so a freed
 * communicator does not turn it into an error that returns; it still prints one line and
 * exits with status errorcode & 255 (300 gives 44), running no delete callback.
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_must_not_run, &kv, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, NULL));
    MPI_Comm c;
    REQUIRE_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm freed = c;
    REQUIRE_OK(MPI_Comm_free(&c));
    MPI_Abort(freed, 300);
    printf("FAILED fatal_abort_badcomm: MPI_Abort returned\n");
    return 1;
}
