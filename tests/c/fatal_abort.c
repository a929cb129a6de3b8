// expect-exit: 3
/*
 * MPI_Abort(MPI_COMM_WORLD, 3) (semantics.md "Errors"): prints exactly one line to stderr and
 * exits with status 3, without running delete callbacks (nothing may print from them).
 */
#include "check.h"

int main(int argc, char **argv)
{
    test_init(&argc, &argv);
    int kv;
    REQUIRE_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_must_not_run, &kv, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv, NULL));
    REQUIRE_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, NULL));
    MPI_Abort(MPI_COMM_WORLD, 3);
    printf("FAILED fatal_abort: MPI_Abort returned\n");
    return 1;
}
